"""Reading and writing files: safe YAML with line numbers, capped regular-file inputs, the
vocabulary file, key and type checks, bundled resources, the data version, atomic outputs."""
