// Placeholder until the TechoModel work lands.
