"""A ``--rule`` is bound to each puzzle it is applied to, on its own: in a multi-puzzle file a rule
that does not fit one puzzle (a colour its palette lacks) is that puzzle's one-line input error
(``FILE#k``, exit 6 at the end), and the file's other puzzles are judged as usual; ``FILE#k``
binds the rule to puzzle k alone.  The same for every verb, for selectors, whole files and
directories, in text and --json."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from satnono.cli import cli

# Two 2x2 puzzles of one webpbn puzzleset: #1 black and white ('#', several solutions), #2 red ('@',
# unique).  A count rule on '@' fits #2 only; one on '#' fits #1 only.
PUZZLES = [
    """<puzzle type="grid" defaultcolor="black">
<color name="white" char=".">FFFFFF</color>
<color name="black" char="#">000000</color>
<clues type="columns"><line><count>1</count></line><line><count>1</count></line></clues>
<clues type="rows"><line><count>1</count></line><line><count>1</count></line></clues>
</puzzle>""",
    """<puzzle type="grid" defaultcolor="red">
<color name="white" char=".">FFFFFF</color>
<color name="red" char="@">FF0000</color>
<clues type="columns"><line><count>2</count></line><line><count>1</count></line></clues>
<clues type="rows"><line><count>2</count></line><line><count>1</count></line></clues>
</puzzle>""",
]
#: (rule, the puzzle it fits, the puzzle it does not fit)
CASES = [("count:>=1:@", 2, 1), ("count:>=1:#", 1, 2)]
BATCH_VERBS = ["check", "solve", "count", "classify"]


def _write(path, puzzles: list[str]) -> str:
    path.write_text('<?xml version="1.0"?>\n<puzzleset>\n' + "\n".join(puzzles) + "\n</puzzleset>\n")
    return str(path)


def _run(*args: str):
    return CliRunner().invoke(cli, list(args))


def _notes(r) -> list[str]:
    """The ``satnono: ...`` lines on stderr (classify --json also puts its summary there)."""
    return [line for line in r.stderr.splitlines() if line.startswith("satnono:")]


def _bare(row):
    """A JSON row without what differs between two runs or two names of one puzzle."""
    if isinstance(row, dict):
        return {k: _bare(v) for k, v in row.items() if k not in ("file", "index", "seconds")}
    if isinstance(row, list):
        return [_bare(v) for v in row]
    return row


def _rows(r) -> list[dict]:
    return [json.loads(line) for line in r.stdout.splitlines()]


def _is_error(row: dict) -> bool:
    return row.get("status", row.get("class")) == "error"


def _selected(verb: str, path: str, k: int) -> tuple[str, int | None]:
    """(file, index) of the row of ``FILE#k``: classify names the input as given."""
    return (f"{path}#{k}", None) if verb == "classify" else (path, k)


def _rule_error(note: str, where: str) -> bool:
    return (note.startswith(f"satnono: {where}: rule count: colour ")
            and "is not in the puzzle's palette" in note)


@pytest.fixture(autouse=True)
def _no_rules_left():
    """A command run in this process leaves its --rule in EXTRA_RULES (a real run exits): clear it,
    so that no later test's puzzles get these rules."""
    from satnono.formats import EXTRA_RULES

    yield
    EXTRA_RULES.set(())


@pytest.fixture
def files(tmp_path):
    """The two-puzzle set, and each puzzle alone in a file of its own (the oracle)."""
    return _write(tmp_path / "set.pbn", PUZZLES), {k: _write(tmp_path / f"alone{k}.pbn", [PUZZLES[k - 1]])
                                                   for k in (1, 2)}


@pytest.mark.parametrize("rule, good, bad", CASES)
@pytest.mark.parametrize("verb", BATCH_VERBS)
def test_a_selector_binds_the_rule_to_its_own_puzzle(verb, rule, good, bad, files):
    path, alone = files
    a = _run(verb, "--json", "--rule", rule, alone[good])
    assert a.exit_code != 6 and not _notes(a), a.output  # the rule fits the puzzle on its own
    r = _run(verb, "--json", "--rule", rule, f"{path}#{good}")
    assert not _notes(r), r.output
    assert r.exit_code == a.exit_code
    rows = _rows(r)
    assert [(row["file"], row.get("index")) for row in rows] == [_selected(verb, path, good)]
    assert _bare(rows) == _bare(_rows(a))
    # and the other selector gets the rule's error, naming its own puzzle
    r = _run(verb, "--json", "--rule", rule, f"{path}#{bad}")
    assert r.exit_code == 6 and "Traceback" not in r.output
    notes = _notes(r)
    assert len(notes) == 1 and _rule_error(notes[0], f"{path}#{bad}"), r.output


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("rule, good, bad", CASES)
@pytest.mark.parametrize("verb", BATCH_VERBS)
def test_a_whole_file_errs_only_for_the_puzzle_the_rule_does_not_fit(verb, rule, good, bad, as_json, files):
    path, alone = files
    flags = ["--json"] if as_json else []
    r = _run(verb, *flags, "--rule", rule, path)
    assert r.exit_code == 6 and "Traceback" not in r.output
    notes = _notes(r)
    assert len(notes) == 1 and _rule_error(notes[0], f"{path}#{bad}"), r.output
    if as_json:
        rows = _rows(r)
        assert [(row["file"], row.get("index"), _is_error(row)) for row in rows] == sorted(
            [(path, good, False), (path, bad, True)], key=lambda t: t[1])
        error = next(row for row in rows if _is_error(row))
        assert _rule_error(f"satnono: {error['reason']}", f"{path}#{bad}")
        assert _bare([row for row in rows if not _is_error(row)]) == _bare(
            _rows(_run(verb, "--json", "--rule", rule, alone[good])))
    else:
        lines = r.stdout.splitlines()
        assert sum(line.startswith(f"{path}#{good}: ") for line in lines) == 1, r.output
        assert f"{path}#{bad}" not in r.stdout


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("rule, good, bad", CASES)
def test_classify_walks_a_directory_with_a_row_per_puzzle(rule, good, bad, as_json, tmp_path):
    (tmp_path / "d").mkdir()
    path = _write(tmp_path / "d" / "set.pbn", PUZZLES)
    r = _run("classify", *(["--json"] if as_json else []), "--rule", rule, str(tmp_path / "d"))
    assert r.exit_code == 6 and "Traceback" not in r.output
    notes = _notes(r)
    assert len(notes) == 1 and _rule_error(notes[0], f"{path}#{bad}"), r.output
    if as_json:
        rows = {row["index"]: row for row in _rows(r)}
        assert sorted(rows) == [1, 2] and {row["file"] for row in rows.values()} == {path}
        assert rows[bad]["class"] == "error" and rows[good]["class"] != "error"
    else:
        assert sum(line.startswith(f"{path}#{good}: ") for line in r.stdout.splitlines()) == 1


@pytest.mark.parametrize("rule, good, bad", CASES)
def test_load_tasks_gives_the_puzzle_the_rule_does_not_fit_its_own_error_task(rule, good, bad, tmp_path):
    from satnono.batch.inputs import load_tasks
    from satnono.formats import EXTRA_RULES
    from satnono.rules import rule_from_spec

    path = _write(tmp_path / "set.pbn", PUZZLES)
    token = EXTRA_RULES.set((rule_from_spec(rule),))
    try:
        tasks = load_tasks([path])
        picked = load_tasks([f"{path}#{good}", f"{path}#{bad}"])
    finally:
        EXTRA_RULES.reset(token)
    assert [(t.file, t.index) for t in tasks] == [(path, 1), (path, 2)]
    assert [(t.file, t.index) for t in picked] == [(f"{path}#{good}", None), (f"{path}#{bad}", None)]
    for by in ({t.index: t for t in tasks}, dict(zip((good, bad), picked))):
        assert by[good].puzzle is not None and by[good].error is None
        assert [r.name for r in by[good].puzzle.rules] == ["count"]  # bound to it
        assert by[bad].puzzle is None and _rule_error(f"satnono: {by[bad].error}", f"{path}#{bad}")


@pytest.mark.parametrize("rule, good, bad", CASES)
@pytest.mark.parametrize("verb", ["diagnose", "explain", "fix"])
def test_one_puzzle_verbs_bind_the_rule_to_the_puzzle_picked(verb, rule, good, bad, files):
    path, alone = files
    a = _run(verb, "--rule", rule, alone[good])
    assert a.exit_code != 6 and not _notes(a), a.output
    r = _run(verb, "--rule", rule, f"{path}#{good}")
    assert r.exit_code == a.exit_code and not _notes(r), r.output
    r = _run(verb, "--rule", rule, f"{path}#{bad}")
    assert r.exit_code == 6 and [_rule_error(n, f"{path}#{bad}") for n in _notes(r)] == [True], r.output


@pytest.mark.parametrize("verb", ["diagnose", "fix"])
def test_one_puzzle_verbs_ask_for_a_selector_before_judging_rules(verb, files):
    """A multi-puzzle file given whole to a verb of one puzzle: the error is that it holds several
    (choose one with FILE#k), not the rule's misfit on puzzle #1."""
    path, _ = files
    r = _run(verb, "--rule", CASES[0][0], path)
    assert r.exit_code == 6
    assert _notes(r) == [f"satnono: {path}: the file holds 2 puzzles; choose one with {path}#k (k from 1 to 2)"]
