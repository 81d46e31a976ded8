"""Whole-grid logic: what line logic and probing deduce from the known cells."""
