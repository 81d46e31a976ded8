"""CNF encoding and the SAT/counting back ends."""
