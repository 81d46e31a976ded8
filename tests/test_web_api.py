"""The editor's HTTP API through Starlette's test client: routes, security rules, malformed requests."""

from __future__ import annotations

import base64
import json
import time
import warnings

import pytest

pytest.importorskip("httpx")
with warnings.catch_warnings():  # newer Starlette prefers httpx2 for its test client; httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from satnono.formats import load  # noqa: E402
from satnono.solve import InternalError  # noqa: E402
from satnono.web import server  # noqa: E402
from satnono.web.session import Editor  # noqa: E402

TOKEN = "t0ken-for-tests"
HOST = "testserver"
SWITCH = {"grid": ["#.", ".#"]}


def make_client(editor: Editor, workers: str = "thread") -> TestClient:
    app = server.create_app(editor, TOKEN, [HOST], workers=workers)
    return TestClient(app, base_url=f"http://{HOST}")


@pytest.fixture
def client(tmp_path):
    src = tmp_path / "p.non"
    src.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    with make_client(Editor(str(src))) as c:
        yield c


def api(client, route, body, **kw):
    return client.post(f"/{TOKEN}/api/{route}", json=body, **kw)


def test_page_and_static_files_are_served_under_the_token(client):
    r = client.get(f"/{TOKEN}/")
    assert r.status_code == 200 and 'data-testid="verdict"' in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["referrer-policy"] == "no-referrer"
    for f in ("app.js", "board.js", "doc.js", "style.css"):
        r = client.get(f"/{TOKEN}/static/{f}")
        assert r.status_code == 200 and r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["content-type"].startswith("text/javascript" if f.endswith(".js") else "text/css")
    assert client.get(f"/{TOKEN}/static/../server.py").status_code == 404
    assert client.get(f"/{TOKEN}/static/%2e%2e/server.py").status_code == 404
    assert client.get("/nope").headers["x-frame-options"] == "DENY"
    state = client.get(f"/{TOKEN}/api/state").json()
    assert state["file"] == "p.non" and state["can_save"] and "level" in state["formats"]
    assert state["doc"]["grid"] in (["#.", ".#"], [".#", "#."])


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/wrong/", f"/{TOKEN}x/", f"/{TOKEN[:-1]}/api/state",
                                  "/api/state"])
def test_paths_without_the_token_are_not_found(client, path):
    r = client.get(path)
    assert r.status_code == 404 and "token" in r.text


def test_foreign_host_and_origin_are_refused(client):
    r = client.get(f"/{TOKEN}/", headers={"Host": "evil.example:80"})  # DNS rebinding
    assert r.status_code == 421
    r = api(client, "analyze", {"version": 1, "doc": SWITCH}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403
    r = api(client, "analyze", {"version": 1, "doc": SWITCH}, headers={"Origin": f"http://{HOST}"})
    assert r.status_code == 200
    with pytest.raises(Exception):
        with client.websocket_connect(f"/{TOKEN}/ws"):
            pass


def test_analyze_and_fix(client):
    r = api(client, "analyze", {"client": "a", "version": 3, "doc": SWITCH}).json()
    assert r["version"] == 3 and r["result"]["status"] == "multiple"
    assert r["result"]["row_counts"] == ["2", "2"]
    f = api(client, "fix", {"client": "a", "version": 3, "doc": {"grid": ["#...", ".#..", "....", "...."]}}).json()
    assert f["result"]["status"] == "multiple" and f["result"]["edits"]
    # an older edit number than one already seen is stale and not run
    r = api(client, "analyze", {"client": "a", "version": 2, "doc": SWITCH}).json()
    assert r == {"version": 2, "stale": True}
    # another page has its own numbering
    assert "result" in api(client, "analyze", {"client": "b", "version": 0, "doc": SWITCH}).json()


@pytest.mark.parametrize("body, status, words", [
    (b"{not json", 400, "not valid JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (b'{"doc": {"grid": ["#"]}}', 400, "version"),
    (b'{"version": -1, "doc": {"grid": ["#"]}}', 400, "version"),
    (b'{"version": true, "doc": {"grid": ["#"]}}', 400, "version"),
    (b'{"version": 1, "client": 5, "doc": {"grid": ["#"]}}', 400, "client"),
    (b'{"version": 1}', 400, "JSON object"),
    (b'{"version": 1, "doc": {"grid": ["#.", "#"]}}', 400, "row 2"),
    (json.dumps({"version": 1, "doc": {"grid": ["." * 101]}}).encode(), 400, "1 to 100"),
    (b"\xff\xfe", 400, "not valid JSON"),
])
def test_malformed_requests_get_a_message(client, body, status, words):
    r = client.post(f"/{TOKEN}/api/analyze", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == status
    assert words in r.json()["error"] and "Traceback" not in r.text


def test_requests_must_be_json_and_small(client):
    r = client.post(f"/{TOKEN}/api/analyze", content=b'{"version": 1, "doc": {"grid": ["#"]}}',
                    headers={"Content-Type": "text/plain"})
    assert r.status_code == 400 and "Content-Type" in r.json()["error"]
    big = b'{"pad": "' + b"x" * (server.MAX_BODY + 1) + b'"}'
    r = client.post(f"/{TOKEN}/api/open", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert client.get(f"/{TOKEN}/api/analyze").status_code == 405


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_open_files(client):
    r = api(client, "open", {"files": [{"name": "../../x.non", "data": b64(b"width 1\nheight 1\nrows\n1\ncolumns\n1\n")}]})
    assert r.status_code == 200 and r.json()["doc"]["grid"] == ["#"]
    trio = [{"name": "a.level", "data": b64(b"0")}, {"name": "a.pbm", "data": b64(b"P1 1 1 1")},
            {"name": "a.ppm", "data": b64(b"P6 1 1 255 abc")}]
    d = api(client, "open", {"files": trio}).json()["doc"]
    assert d["level"]["completed"] is False and d["format"] == "level"
    for body, words in (({"files": []}, "1 to 4"), ({"files": [{"name": "x"}]}, "base64"),
                        ({"files": [{"name": "x.non", "data": "!!"}]}, "not valid base64"),
                        ({"files": [{"name": "bad.non", "data": b64(b"width 2\nheight x\n")}]}, "bad.non:2"),
                        ({"files": [{"name": "x.txt", "data": b64(b"\x00\x01")}]}, "x.txt")):
        r = api(client, "open", body)
        assert r.status_code == 400 and words in r.json()["error"], (body, r.text)


def test_export_save_and_save_as(client, tmp_path):
    doc = {"grid": ["##.", ".##"], "name": "zig"}
    r = api(client, "export", {"doc": doc, "format": "pbm"})
    assert r.status_code == 200 and r.headers["content-disposition"] == 'attachment; filename="zig.pbm"'
    assert r.content.startswith(b"P1")
    assert api(client, "export", {"doc": doc, "format": "exe"}).status_code == 400
    r = api(client, "save", {"doc": doc})
    assert r.status_code == 200
    assert load(str(tmp_path / "p.non")).goal == ("##.", ".##")
    r = api(client, "save-as", {"doc": doc, "name": "zig.json", "format": None})
    assert r.status_code == 200 and r.json()["file"] == "zig.json"
    r = api(client, "save-as", {"doc": doc, "name": "zig.json"})
    assert r.status_code == 409 and r.json()["exists"] is True
    r = api(client, "save-as", {"doc": {"grid": ["###", "..."]}, "name": "zig.json", "overwrite": True})
    assert r.status_code == 200 and load(str(tmp_path / "zig.json")).goal == ("###", "...")
    for name in ("../evil.non", "/etc/evil.non", "a/../../evil.non"):
        r = api(client, "save-as", {"doc": doc, "name": name})
        assert r.status_code == 400, name
    assert not (tmp_path.parent / "evil.non").exists()
    r = api(client, "save-as", {"doc": doc, "name": "x.non", "overwrite": "yes"})
    assert r.status_code == 400


def test_process_workers_answer(tmp_path):
    with make_client(Editor(None), workers="process") as c:
        r = api(c, "analyze", {"version": 0, "doc": {"grid": ["#.", "##"]}}).json()
        assert r["result"]["status"] == "unique" and r["result"]["line_solvable"]


def test_a_worker_that_stops_responding_answers_500_and_the_next_call_runs(tmp_path, monkeypatch):
    from satnono.batch import single
    from satnono.web import session

    monkeypatch.setattr(single, "GRACE", 0.2)
    real = session.analyze

    def slow(puzzle, timeout):
        if puzzle.goal == tuple(SWITCH["grid"]):
            time.sleep(1.0)
        return real(puzzle, timeout)

    monkeypatch.setattr(session, "analyze", slow)
    with make_client(Editor(None, timeout=0.1)) as c:  # given up after 0.1 + 0.2 s
        r = api(c, "analyze", {"version": 1, "doc": SWITCH})
        assert r.status_code == 500
        assert r.json() == {"error": "internal error: the slow worker stopped responding and was restarted"}
        r = api(c, "analyze", {"version": 2, "doc": {"grid": ["#.", "##"]}}).json()
        assert r["result"]["status"] == "unique"


def test_edit_command_serves_on_loopback_and_reports_bad_files(tmp_path):
    import signal
    import subprocess
    import sys

    import httpx

    bad = tmp_path / "bad.non"
    bad.write_text("width 2\nheight x\n")
    r = subprocess.run([sys.executable, "-m", "satnono", "edit", str(bad), "--no-browser"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 6 and r.stderr.count("\n") == 1 and "bad.non:2" in r.stderr and not r.stdout
    proc = subprocess.Popen([sys.executable, "-m", "satnono", "edit", "--no-browser"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        assert httpx.get(url, timeout=30).status_code == 200
        state = httpx.get(url + "api/state", timeout=30).json()
        assert state["doc"]["grid"] == ["." * 10] * 10 and state["can_save"] is False
        port = url.split(":")[2].split("/")[0]
        assert httpx.get(url, headers={"Host": f"attacker.example:{port}"}, timeout=30).status_code == 421
        r = httpx.post(url + "api/analyze", json={"version": 1, "doc": {"grid": ["#.", ".#"]}}, timeout=30)
        assert r.json()["result"]["status"] == "multiple"
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl+C
        assert proc.wait(20) == 0
        assert "Traceback" not in proc.stderr.read()


def test_allowed_hosts():
    assert server.allowed_hosts("127.0.0.1", 8) == ["127.0.0.1:8", "[::1]:8", "localhost:8"]
    assert server.allowed_hosts("192.0.2.7", 8) == ["192.0.2.7:8"]
    wild = server.allowed_hosts("0.0.0.0", 8)
    assert "127.0.0.1:8" in wild and "0.0.0.0:8" in wild and "evil.example:8" not in wild


def test_each_request_is_validated_once_and_the_worker_gets_the_puzzle(client, monkeypatch):
    from satnono.model import Puzzle
    from satnono.web import session

    calls, got = [], []
    real_of, real_analyze = session.puzzle_of, session.analyze
    monkeypatch.setattr(session, "puzzle_of", lambda doc: calls.append(doc) or real_of(doc))
    monkeypatch.setattr(session, "analyze", lambda p, t: got.append(p) or real_analyze(p, t))
    r = api(client, "analyze", {"client": "a", "version": 1, "doc": SWITCH}).json()
    assert r["result"]["status"] == "multiple" and len(calls) == 1
    assert isinstance(got[0], Puzzle) and got[0].goal == tuple(SWITCH["grid"])
    r = api(client, "analyze", {"client": "a", "version": 2, "doc": {"grid": ["#.", "#"]}})
    assert r.status_code == 400 and len(got) == 1  # refused before any worker


def test_state_sends_the_limits_the_page_applies(client):
    from satnono.model import MAX_COLORS, default_palette

    state = client.get(f"/{TOKEN}/api/state").json()
    assert state["max_side"] == 100 and state["max_colors"] == MAX_COLORS
    assert state["default_colors"][:2] == [["black", "#000000"], ["red", default_palette(2)[2].hex]]
    assert state["spare_chars"].startswith("abc") and "," not in state["spare_chars"]


def test_errors_answer_as_json_with_their_status(client, monkeypatch):
    from satnono.formats import WriteError
    from satnono.web import session

    def boom(doc, fmt):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(session, "export", boom)
    r = api(client, "export", {"doc": SWITCH, "format": "non"})
    assert r.status_code == 500 and r.json() == {"error": "internal error: ZeroDivisionError: division by zero"}
    assert r.headers["x-frame-options"] == "DENY"

    def bug(doc, fmt):
        raise InternalError("a grid that does not satisfy the clues")

    monkeypatch.setattr(session, "export", bug)
    r = api(client, "export", {"doc": SWITCH, "format": "non"})
    assert r.status_code == 500 and r.json() == {"error": "internal error: a grid that does not satisfy the clues"}

    def full(self, doc):
        raise WriteError(28, "No space left on device", "/x/p.non")

    monkeypatch.setattr(Editor, "save", full)
    r = api(client, "save", {"doc": SWITCH})
    assert r.status_code == 400 and r.json() == {"error": "/x/p.non: cannot write: No space left on device"}
    monkeypatch.undo()
    r = api(client, "export", {"doc": {"grid": ["#x"]}, "format": "non"})
    assert r.status_code == 400 and "characters other than" in r.json()["error"]
