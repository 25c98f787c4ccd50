"""The spec: what to derive, read strictly from TOML, dicts, keywords or torch."""
