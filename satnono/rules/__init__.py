"""Rules: what else must hold besides the clues (placeholder until the Rule protocol lands)."""
