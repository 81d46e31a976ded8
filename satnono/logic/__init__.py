"""The whole grid: its known cells, what line logic and the rules deduce, probing and independent parts."""
