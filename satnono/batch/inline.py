"""The inline back end: every item in this process, one after the other."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

from . import Lost


class InlineRunner:
    """Runs items in the calling process (``--workers 1``); a Ctrl-C stops it at once."""

    slots = 1

    def __init__(self) -> None:
        self.counters = {"submitted": 0, "max_in_flight": 0}

    def run(self, fn: Callable[[Any], Any], items: Iterable[tuple[int, Any]],
            chunked: bool = True) -> Iterator[tuple[int, Any]]:
        for seq, item in items:
            self.counters["submitted"] += 1
            self.counters["max_in_flight"] = 1
            try:
                result = fn(item)
            except Exception as e:  # a bug must not end the batch; the item says so
                result = Lost(f"internal error: {type(e).__name__}: {e}")
            yield seq, result

    def close(self, cancel: bool = False) -> None:
        pass
