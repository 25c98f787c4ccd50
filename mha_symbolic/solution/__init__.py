"""Worked solutions: the view model of a derivation and its renderings."""
