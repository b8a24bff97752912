// Placeholder until the TechoText work lands.
