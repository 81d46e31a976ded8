"""The command line through click's runner: verdicts, JSON, exit codes, bad input."""

from __future__ import annotations

import json

from click.testing import CliRunner

from satnono.cli import cli

from conftest import PUZZLES  # noqa: E402

DANCER = str(PUZZLES / "webpbn" / "webpbn-00001.xml")
EDGE = str(PUZZLES / "webpbn" / "webpbn-00023.xml")
MULTI = str(PUZZLES / "jwilk" / "data001.nin")
KNOTTY = str(PUZZLES / "webpbn" / "knotty.xml")


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_check_unique_line_solvable():
    r = run("check", DANCER)
    assert r.exit_code == 0, r.output
    assert "unique (line-solvable)" in r.output


def test_check_json_fields():
    r = run("check", "--json", DANCER, EDGE, MULTI)
    assert r.exit_code == 3
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [d["status"] for d in rows] == ["unique", "unique", "multiple"]
    assert [d["line_solvable"] for d in rows] == [True, False, False]
    for d in rows:
        assert {"file", "status", "line_solvable", "solutions", "diff", "seconds", "stats"} <= d.keys()
        assert {"unknown_after_propagation", "cnf_vars", "cnf_clauses"} <= d["stats"].keys()
    multi = rows[2]
    a, b = multi["solutions"]
    assert a != b and multi["diff"]
    assert all(a[r][c] != b[r][c] for r, c in multi["diff"])
    assert rows[0]["file"] == DANCER and "index" not in rows[0]


def test_none_exit_code(tmp_path):
    f = tmp_path / "bad.non"
    f.write_text("width 3\nheight 3\nrows\n1,1\n0\n1,1\ncolumns\n2\n0\n2\n")
    r = run("check", str(f))
    assert r.exit_code == 4
    assert "no solution" in r.output


def test_malformed_input_one_line_error_and_batch_continues(tmp_path):
    f = tmp_path / "broken.non"
    f.write_text("width 2\nheight 2\nrows\n1\nx\ncolumns\n1\n1\n")
    r = run("check", str(f), DANCER)
    assert r.exit_code == 6
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and str(f) in err[0] and ":5:" in err[0]
    assert "Traceback" not in r.output
    assert "unique" in r.stdout  # the rest of the batch ran


def test_missing_file_and_json_error_object(tmp_path):
    r = run("check", "--json", str(tmp_path / "nope.non"))
    assert r.exit_code == 6
    d = json.loads(r.stdout)
    assert d["status"] == "error" and "nope.non" in d["reason"]


def test_colour_puzzle_is_settled(corpus):
    r = run("check", str(corpus / "webpbn-survey" / "webpbn-color-00047.xml"))
    assert r.exit_code == 0 and "unique" in r.stdout, r.output


def test_mixed_batch_takes_the_largest_code(tmp_path):
    bad = tmp_path / "none.non"
    bad.write_text("width 2\nheight 2\nrows\n2\n2\ncolumns\n1\n1\n")
    assert run("check", DANCER, MULTI).exit_code == 3
    assert run("check", MULTI, str(bad)).exit_code == 4
    assert run("check", str(bad), str(tmp_path / "missing.non")).exit_code == 6


def test_multi_puzzle_file_and_selector(corpus):
    path = str(corpus / "tournament" / "nonogramrecord" / "question" / "taai2011.txt")
    r = run("check", "--json", path + "#3")
    d = json.loads(r.stdout)
    assert d["file"] == path and d["index"] == 3 and d["status"] in ("unique", "multiple")
    r = run("check", path + "#1001")
    assert r.exit_code == 6 and "Traceback" not in r.output


def test_stdin():
    text = "width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n"
    r = run("check", "--json", "-", input=text)
    d = json.loads(r.stdout)
    assert r.exit_code == 0 and d["file"] == "-" and d["solutions"] == [["##", "#."]]


def test_solve_renders_both_solutions_with_marks():
    r = run("solve", "--ascii", MULTI)
    assert r.exit_code == 3
    assert "second solution" in r.stdout
    assert "@" in r.stdout or "o" in r.stdout
    r = run("solve", DANCER)
    assert "██" in r.stdout


def test_timeout_unknown():
    r = run("check", "--timeout", "0.3", "--json", KNOTTY)
    assert r.exit_code == 5
    d = json.loads(r.stdout)
    assert d["status"] == "unknown" and d["seconds"] < 0.3 * 1.1 + 0.2


def test_solver_choice_and_bad_option():
    assert run("check", "--solver", "glucose4", EDGE).exit_code == 0
    r = run("check", "--solver", "nosuch", EDGE)
    assert r.exit_code == 2
    assert run("check", "--timeout", "-1", EDGE).exit_code == 2


def test_help_documents_exit_codes():
    r = run("check", "--help")
    assert r.exit_code == 0 and "Exit codes" in r.output and "6" in r.output


def test_convert_and_no_overwrite(tmp_path):
    out = tmp_path / "dancer.json"
    r = run("convert", DANCER, str(out))
    assert r.exit_code == 0, r.output
    d = json.loads(out.read_text())
    assert len(d["rows"]) == 10 and len(d["columns"]) == 5
    before = out.read_text()
    r = run("convert", EDGE, str(out))
    assert r.exit_code == 6 and "not overwritten" in r.stderr
    assert out.read_text() == before
    assert run("convert", "--force", EDGE, str(out)).exit_code == 0
    assert out.read_text() != before
    r = run("check", str(out))
    assert r.exit_code == 0


def test_convert_to_stdout_non():
    r = run("convert", DANCER, "-", "--to", "non")
    assert r.exit_code == 0 and "rows" in r.stdout and "columns" in r.stdout


def test_main_returns_code():
    from satnono.cli import main

    assert main(["check", DANCER]) == 0
    assert main(["check", "--bogus"]) == 2


def test_check_progress_goes_to_stderr_only():
    from satnono.cli import main
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["check", "--progress", DANCER, EDGE])
    assert code == 0
    assert [line.split(":")[0] for line in out.getvalue().splitlines()] == [DANCER, EDGE]
    assert "check" in err.getvalue() and "2/2" in err.getvalue()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["check", DANCER]) == 0  # not a terminal: no bar by default
    assert err.getvalue() == ""
