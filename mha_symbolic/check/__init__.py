"""Claims as documents print them, judged against a derivation."""
