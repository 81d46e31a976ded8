"""Several searches of one puzzle at once; the first answer wins (``--jobs N``, ``Limits(jobs=N)``).

A settle allowed more than one job (:meth:`satnono.solve.Checker.settle`) runs as with one up to
the point where the SAT search may take long: after the short first try (when the try found a
solution or one was known, after a short try of the second search,
:meth:`satnono.solve._Search.try_second`).  There it starts its *members*, N processes that each go on with the rest of
the search (:meth:`satnono.solve._Search.finish`) configured their own way (:func:`member`:
member 0 is the one search of ``jobs=1``, the others shuffle its decision order), and takes the first answer: a verdict (unique,
multiple, none) or, asked for one solution, that solution.  Every solution a member reports is
verified here against the clues, the givens and the rules before it is used.  The others are
killed at once.  python-sat's CaDiCaL holds the GIL for a whole call, so threads would take
turns: members are processes.

On Linux each member is a fork of this process at that point (:class:`LocalPortfolio`): it
inherits the CNF and the solver, with what the try learnt, and member 0 searches exactly as the
one search would.  Elsewhere (and on a Dask cluster, :class:`satnono.batch.dask_portfolio.DaskPortfolio`)
a member is a fresh process, ``python -m satnono.portfolio``, given the propagated puzzle
(:class:`Request`): it encodes, tries and goes on by itself (:func:`fresh`).

No member outlives the settle: each is in a process group of its own (a terminal's Ctrl-C
reaches this process only, which decides), ignores SIGINT and SIGTERM, and is killed with
SIGKILL by the kernel when this process dies (``PR_SET_PDEATHSIG``), and by this process when
an answer came, the deadline passed, or it is interrupted or fails.  Then every member is
reaped and its CPU time counted (``Outcome.cpu``).

A member that fails (an exception, a crash) is out; the others go on.  When every member
failed, the first member's error is raised (what the one search would have raised), except an
:class:`~satnono.solve.InternalError` (a solution that failed its check: a bug), which is raised
at once.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import signal
import sys
import time
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Iterable, Protocol

from .interrupt import children_starting, critical, ignore_in_child
from .model import Grid
from .results import Status
from .solve import InternalError, Member, Outcome, verified

if TYPE_CHECKING:
    from .lanepuzzle import LanePuzzle
    from .model import Puzzle
    from .solve import _Search

#: CaDiCaL's options that shuffle its decision order (with a ``seed``): a random restart of the
#: same search.
SHUFFLE = (("shuffle", 1), ("shufflerandom", 1))


def member(k: int) -> Member:
    """Member ``k`` of a portfolio: 0 is the one search of ``jobs=1``; each other is that search
    with CaDiCaL's decision order shuffled by the seed ``k`` (from where the searches part, and
    for the second search too).

    Measured alone, each from where the searches part, in conflicts to settle (the search times
    are chaotic: a member worse on average still wins some puzzles).  The 20 tournament puzzles
    that need the most conflicts with one job: member 0 and member 1 together (the fewer of the
    two) 0.72x member 0's, with seed 2 or 3 instead 0.93x, 0.68x; three members (seeds 1 and
    3) 0.59x.  The eight hardest pictures of bench.py's colour36 and deadline sets that some
    configuration settles within 20 s: two members 0.84x, three 0.75x.  Tried and not taken
    (the decisions record, ``docs/decisions.md``): the hints' opposite (colour 0.82x, but on Knotty and Faase over 350,000
    and 140,000 conflicts, not settled in 20 s, where member 0 needs 150 and 12,000), no hints
    (colour 0.83x; Knotty and Faase likewise), no hunches (tournament 0.74x, colour 0.94x),
    ``stabilizeonly=0`` (colour 0.85x), and options that only choose phases (``phase``,
    ``target``, ``seed`` without shuffling: no change at all once the hints force the phases).

    >>> member(0), member(2).options
    (Member(options=()), (('shuffle', 1), ('shufflerandom', 1), ('seed', 2)))
    """
    return Member() if k == 0 else Member(options=(*SHUFFLE, ("seed", k)))


#: Seconds a fresh member (a process of its own, a Dask task) is waited for past the deadline:
#: it stops at the deadline by itself and says what it found by then (a first solution).
FRESH_GRACE = 2.0


def members(n: int) -> list[Member]:
    """The first ``n`` members of a portfolio (:func:`member`)."""
    return [member(k) for k in range(n)]


class Portfolio(Protocol):
    """Where a portfolio's members run: :class:`LocalPortfolio` (this machine) or a Dask cluster
    (:class:`satnono.batch.dask_portfolio.DaskPortfolio`)."""

    def run(self, search: _Search, members: list[Member]) -> Outcome:
        """Run ``members`` from where ``search`` stopped (:attr:`~satnono.solve._Search.stage`);
        the first answer, verified, with the CPU seconds of every member in ``cpu``."""
        ...


def run_portfolio(search: _Search, n: int, portfolio: Portfolio | None = None) -> Outcome:
    """The answer of ``n`` members (:func:`members`) on ``portfolio`` (this machine by default)."""
    return (portfolio or LocalPortfolio()).run(search, members(n))


# --------------------------------------------------------------------------- the answer


class Referee:
    """Takes the members' messages in the order they come and says when there is an answer.

    A message is ``("first", grid)`` (a member found a first solution and goes on to a second
    search), ``("done", Outcome)`` or ``("error", exception)``; a member that ends without
    ``done`` is :meth:`lost`.  Every solution is verified against the puzzle here.
    """

    def __init__(self, search: _Search, n: int) -> None:
        self.search = search
        self.puzzle = search.puzzle
        self.left = set(range(n))
        self.n = n
        self.answer: Outcome | None = None
        self.first: Grid | None = None  # a first solution a member found (for an answer out of time)
        self.ended: list[Outcome] = []  # members that ran out of time
        self.errors: dict[int, BaseException] = {}

    def take(self, k: int, message: tuple[str, Any]) -> bool:
        """Take member ``k``'s ``message``; True once there is an answer (or nothing left to wait for)."""
        kind, value = message
        if kind == "first":
            if self.first is None:
                self.first = verified(self.puzzle, value)
            return False
        self.left.discard(k)
        if kind == "error":
            if isinstance(value, InternalError):
                raise value
            self.errors[k] = value
        else:
            outcome: Outcome = value
            for grid in outcome.solutions:
                verified(self.puzzle, grid)
            if outcome.final:
                outcome.winner = k
                self.answer = outcome
                return True
            self.ended.append(outcome)
        return not self.left

    def lost(self, k: int, why: str) -> bool:
        """Member ``k`` ended without a word (``why``); True when nothing is left to wait for."""
        if k in self.left:
            self.left.discard(k)
            self.errors[k] = RuntimeError(f"search {k} of the portfolio {why}")
        return not self.left

    def outcome(self, cpu: float) -> Outcome:
        """The answer; else, every member out of time (or the deadline passed), the best of what
        they found; else, when every member failed, the first one's error is raised."""
        out = self.answer
        if out is None:
            if self.errors and len(self.errors) == self.n:
                raise self.errors[min(self.errors)]
            with_first = [o for o in self.ended if o.solutions]
            if with_first:
                out = with_first[0]
            elif self.first is not None:
                out = Outcome(Status.UNKNOWN, (self.first,), "found a solution, but timed out before proving it unique",
                              proving=True, final=False)
            elif self.search.s1 is not None:
                out = Outcome(Status.UNKNOWN, (self.search.s1,), self.search.late, proving=True, final=False)
            else:
                out = Outcome(Status.UNKNOWN, (), "timed out before a first solution was found", final=False)
            sat = self.search.sat
            out.sat_calls = max(out.sat_calls, sat.calls)
            out.conflicts = max(out.conflicts, sat.conflicts)
            out.cuts = max(out.cuts, self.search.stats.cuts)
        out.cpu = cpu
        out.members = self.n
        return out


# --------------------------------------------------------------------------- processes


def _prctl() -> Any:
    """The C library's ``prctl`` (Linux; None elsewhere), looked up once, before any fork: a
    forked member only calls it (looking it up takes the dynamic loader's lock)."""
    if not _PRCTL:
        try:
            _PRCTL.append(ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None)
        except (OSError, AttributeError):
            _PRCTL.append(None)
    return _PRCTL[0]


_PRCTL: list[Any] = []


def die_with_parent(parent: int) -> None:
    """In a child: be killed (SIGKILL) when the parent dies (Linux's ``PR_SET_PDEATHSIG``), and
    end now if it has died already."""
    prctl = _prctl()
    if prctl is not None:
        prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)


def _cpu(rusage: Any) -> float:
    return rusage.ru_utime + rusage.ru_stime


def stop(pid: int) -> float:
    """Kill the process group of member ``pid`` (and the member), reap it; its CPU seconds."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    return reap(pid)


def reap(pid: int) -> float:
    """Wait for the child ``pid`` to end; its CPU seconds (0 when it was reaped already)."""
    while True:
        try:
            _, _, usage = os.wait4(pid, 0)
            return _cpu(usage)
        except InterruptedError:
            continue
        except ChildProcessError:
            return 0.0


def _send(conn: Any, message: tuple[str, Any]) -> None:
    try:
        conn.send(message)
    except (pickle.PicklingError, TypeError, AttributeError):  # an exception that does not pickle
        kind, value = message
        conn.send((kind, RuntimeError(f"{type(value).__name__}: {value}")))


class LocalPortfolio:
    """Members on this machine: forks of this process on Linux, fresh processes elsewhere
    (``fresh=True`` forces them)."""

    def __init__(self, fresh: bool | None = None) -> None:
        self.fresh = not sys.platform.startswith("linux") if fresh is None else fresh

    def run(self, search: _Search, members: list[Member]) -> Outcome:
        from multiprocessing.connection import Connection, wait

        referee = Referee(search, len(members))
        conns: dict[Any, tuple[int, int]] = {}  # connection -> (member, pid)
        pids: list[int] = []
        cpu = 0.0
        deadline = search.deadline
        grace = FRESH_GRACE if self.fresh else 0.0
        try:
            for k, member in enumerate(members):
                try:
                    pid, fd = (self._spawn if self.fresh else self._fork)(search, member, pids)
                except OSError as e:  # (no more processes or memory here: the members started go on)
                    if not conns:
                        raise
                    for later in range(k, len(members)):
                        referee.lost(later, f"could not be started ({e.strerror or e})")
                    break
                conns[Connection(fd, writable=False)] = (k, pid)
            while conns:
                left = None if deadline is None else deadline + grace - time.monotonic()
                if left is not None and left <= 0:
                    break
                ready: list[Any] = wait(list(conns), left)
                if not ready:
                    break
                over = False
                for conn in ready:
                    k, pid = conns[conn]
                    try:
                        message = conn.recv()
                    except (EOFError, OSError):
                        del conns[conn]
                        conn.close()
                        over = referee.lost(k, _ended(pid))
                    else:
                        over = referee.take(k, message)
                    if over:
                        break
                if over:
                    break
        finally:
            with critical(check=False):  # (a second Ctrl-C waits until every member is gone)
                for pid in pids:
                    cpu += stop(pid)
                for conn in conns:
                    conn.close()
        return referee.outcome(cpu)

    @staticmethod
    def _fork(search: _Search, member: Member, pids: list[int]) -> tuple[int, int]:
        """A member forked from this process, going on from ``search``; ``(pid, read end)``."""
        parent = os.getpid()
        _prctl()
        r, w = os.pipe()
        with children_starting(), warnings.catch_warnings():  # (signals held back until the member ignores them)
            # Python 3.12 warns of a fork beside other threads (the child might need a lock one of
            # them holds); a member takes none: it searches in CaDiCaL and writes to its pipe
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
            if pid == 0:
                code = 0
                try:
                    os.close(r)
                    _forked_member(search, member, w, parent)
                except BaseException:
                    code = 1
                finally:
                    os._exit(code)
            pids.append(pid)
            _own_group(pid)
        os.close(w)
        return pid, r

    @staticmethod
    def _spawn(search: _Search, member: Member, pids: list[int]) -> tuple[int, int]:
        """A fresh member (:func:`spawn`) going on from ``search``; ``(pid, read end)``."""
        return spawn(Request.of(search, member), pids.append)


def _own_group(pid: int) -> None:
    """Put member ``pid`` in a process group of its own (from the parent's side as well as the
    child's: whichever runs first, the group exists before the parent may kill it)."""
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass


def _ended(pid: int) -> str:
    """How member ``pid`` ended, in words (it closed its pipe: it is gone, or going; it is left
    to be reaped by :func:`stop`)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    except ChildProcessError:
        info = None
    if info is None:
        return "ended without an answer"
    if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED):
        return f"was killed by signal {info.si_status} without an answer"
    return f"ended without an answer (exit code {info.si_status})"


def _forked_member(search: _Search, member: Member, fd: int, parent: int) -> None:
    """A forked member: the rest of ``search`` as ``member`` says, its messages on ``fd``."""
    from multiprocessing.connection import Connection

    ignore_in_child()
    die_with_parent(parent)
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    from .sat import forget_inherited, leave_sigint_alone

    leave_sigint_alone()
    forget_inherited()
    conn = Connection(fd, readable=False)
    try:
        search.checker.progress = None  # (the parent's terminal is not the member's to write on)
        search.member = member
        if search.solutions >= 2:
            search.on_first = lambda grid: conn.send(("first", grid))
        conn.send(("done", search.finish()))
    except Exception as e:
        _send(conn, ("error", e))


# --------------------------------------------------------------------------- fresh members


@dataclass
class Request:
    """What a fresh member needs: the puzzle, its state after line propagation, what was known."""

    puzzle: Puzzle | LanePuzzle
    state: Any
    known: Grid | None
    solutions: int
    seconds: float | None
    """Time left when the request was made (clocks of other machines differ)."""
    member: Member
    solver: str
    max_memory: int | None | str

    @classmethod
    def of(cls, search: _Search, member: Member) -> Request:
        left = None if search.deadline is None else max(0.0, search.deadline - time.monotonic())
        return cls(search.puzzle, search.state, search.known, search.solutions, left, member,
                   search.checker.solver, search.checker.max_memory)


def spawn(request: Request, started: Callable[[int], object]) -> tuple[int, int]:
    """A fresh member, ``python -m satnono.portfolio`` in a session of its own, given ``request``
    on its stdin; ``started(pid)`` is called as soon as it exists (whoever started it stops and
    reaps it: :func:`stop`).  ``(pid, read end of its messages)``."""
    import subprocess

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    with children_starting():
        proc = subprocess.Popen([sys.executable, "-m", "satnono.portfolio", str(os.getpid())],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, start_new_session=True)
        started(proc.pid)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL))
    proc.stdin.close()
    fd = os.dup(proc.stdout.fileno())
    proc.stdout.close()
    proc.returncode = 0  # (reaped by :func:`stop`, not by the Popen object)
    return proc.pid, fd


def fresh(request: Request, tell: Callable[[Grid], None] | None = None) -> Outcome:
    """A member from the start (a process of its own, a Dask task): encode, try, go on as
    ``request.member`` says; ``tell(grid)`` when a first solution is found and it goes on."""
    from .results import Limits
    from .solve import Checker, Start

    checker = Checker(request.solver, max_memory=request.max_memory)
    checker.member = request.member
    checker.on_first = tell
    deadline = None if request.seconds is None else time.monotonic() + request.seconds
    start = Start(request.state, propagated=True, known=request.known, switch_looked=True)
    st = checker.settle(request.puzzle, start, Limits(deadline=deadline), solutions=request.solutions)
    if st.outcome is not None:
        return st.outcome
    res = st.result
    # settled before the SAT search (by the totals, line logic, the encoding or the memory limit)
    return Outcome(res.status, res.solutions, res.reason, res.stats.sat_calls, res.stats.conflicts,
                   res.stats.cuts, final=res.status is not Status.UNKNOWN)


def serve(stdin: BinaryIO, stdout: BinaryIO) -> None:
    """The child's side of a fresh member: the request from ``stdin``, the messages to ``stdout``."""
    from multiprocessing.connection import Connection

    request = pickle.load(stdin)
    conn = Connection(os.dup(stdout.fileno()), readable=False)
    os.dup2(2, stdout.fileno())  # (nothing else may write into the messages)
    try:
        conn.send(("done", fresh(request, lambda grid: conn.send(("first", grid)))))
    except Exception as e:
        _send(conn, ("error", e))


def main(argv: Iterable[str]) -> int:
    """``python -m satnono.portfolio PARENT_PID``: one fresh member (see :func:`serve`)."""
    ignore_in_child()
    args = list(argv)
    die_with_parent(int(args[0]) if args else os.getppid())
    from .sat import leave_sigint_alone

    leave_sigint_alone()
    serve(sys.stdin.buffer, sys.stdout.buffer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
