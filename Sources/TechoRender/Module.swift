// Placeholder until the TechoRender work lands.
