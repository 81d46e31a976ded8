"""The benchmarks of ``scripts/bench.py``, one module per sub-command (see ``bench.py --help``)."""
