"""One-off investigations run as sub-commands of ``scripts/bench.py`` (see ``bench.py --help``)."""
