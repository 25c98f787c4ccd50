"""Exercise banks: nice variants of a spec, sheets and answer keys."""
