"""The model: attention as one typed program of nodes, their formulas and rules."""
