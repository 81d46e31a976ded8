"""The level editor's web server: the only module of satnono that knows HTTP.

A Starlette app served by uvicorn on 127.0.0.1.  Everything lives under
``/TOKEN/`` (a random token in the URL): the page, its static files (package
data, no build step) and a small JSON API.  Requests whose ``Host`` is not
the server itself (DNS rebinding) or whose ``Origin`` is another site are
refused; POST bodies must be JSON and are size-limited.

The page asks for a verdict after each edit (``POST api/analyze`` with its
edit number).  The library calls run in worker processes, never in the event
loop, one at a time per kind (verdict, fix proposals), each kind on its own
:class:`satnono.batch.single.SingleWorker`: a request that a newer one from the
same page overtook while it waited is answered ``stale`` without running, and
the page drops any answer that is not for its latest edit.  Each call has its
own time limit inside the library; a worker that overruns it by far is killed
and replaced.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hmac
import json
import mimetypes
import os
import secrets
import socket
import sys
from contextlib import asynccontextmanager
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..batch.single import SingleWorker, WorkerStopped
from ..errors import ParseError
from ..solve import InternalError
from . import session
from .session import SAVE_FORMATS, TRIDDLER_SAVE_FORMATS, DocError, Editor

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
#: Largest request body accepted (bytes): files opened from the page travel as base64.
MAX_BODY = 8 * 1024 * 1024
#: Most files in one open request (a level is three).
MAX_FILES = 4

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                               "frame-ancestors 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


# module scripts must be served as JavaScript, whatever the system's MIME table says (Windows registries vary)
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/css", ".css")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def _warm() -> bool:
    """Run in each new worker so the first real call does not pay for imports."""
    import satnono.fixer  # noqa: F401  (numpy and the generator)

    return True


def _error(message: str, status: int = 400, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


async def _json_body(request: Request) -> dict[str, Any]:
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise DocError("requests must be JSON (Content-Type: application/json)")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise _TooLarge()
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise _TooLarge()
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks))
    except (ValueError, UnicodeDecodeError):
        raise DocError("the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise DocError("the request body must be a JSON object")
    return data


class _TooLarge(DocError):
    def __init__(self) -> None:
        super().__init__(f"the request is larger than {MAX_BODY // (1024 * 1024)} MB")


def _version(data: dict[str, Any]) -> tuple[str, int]:
    v, client = data.get("version"), data.get("client", "")
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise DocError("version must be a non-negative integer")
    if not isinstance(client, str) or len(client) > 64:
        raise DocError("client must be a short string")
    return client, v


def _answer(status: int, message: Callable[[Any], str], **extra: Any) -> Callable[[Request, Any], Any]:
    async def handler(request: Request, exc: Any) -> Response:
        return _error(message(exc), status, **extra)

    return handler


#: Errors become a JSON message (never a traceback); the most specific class of an error answers.
ERROR_HANDLERS: dict[Any, Callable[[Request, Any], Any]] = {
    _TooLarge: _answer(413, str),
    FileExistsError: _answer(409, lambda e: f"{e.filename or 'the file'} exists", exists=True),
    DocError: _answer(400, str),
    ParseError: _answer(400, str),
    # a failed write says 'PATH: cannot write: REASON', as the CLI does
    OSError: _answer(400, lambda e: f"{e.filename or 'the file'}: cannot write: {e.strerror or e}"),
    InternalError: _answer(500, lambda e: f"internal error: {e}"),
    WorkerStopped: _answer(500, lambda e: f"internal error: {e}"),
    # a bug: one line for the page (Starlette re-raises it after answering; _Guard drops it)
    Exception: _answer(500, lambda e: f"internal error: {type(e).__name__}: {e}"),
}


def create_app(editor: Editor, token: str, hosts: list[str], workers: str = "process",
               fix_timeout: float = session.FIX_TIMEOUT) -> Starlette:
    """The editor's ASGI app.

    ``hosts`` are the ``host:port`` values the ``Host`` header may carry (the
    server itself); ``workers`` is ``"process"`` (default) or ``"thread"``.
    """
    check_worker = SingleWorker(workers, warm=_warm)
    fix_worker = SingleWorker(workers, preempt=True, warm=_warm)
    allowed_hosts = {h.lower() for h in hosts}
    allowed_origins = {f"http://{h}" for h in allowed_hosts}
    prefix = f"/{token}"

    async def index(request: Request) -> Response:
        return FileResponse(os.path.join(STATIC, "index.html"))

    async def state(request: Request) -> Response:
        doc = await asyncio.to_thread(editor.initial)  # a file without a picture is solved: not in the event loop
        return JSONResponse({"doc": doc, "file": editor.display_name, "folder": editor.folder,
                             "can_save": editor.path is not None, "formats": list(SAVE_FORMATS),
                             "triddler_formats": list(TRIDDLER_SAVE_FORMATS),
                             "timeout": editor.timeout, **session.page_limits()})

    async def versioned(request: Request, worker: SingleWorker, limit: float, fn: Callable[..., dict]) -> Response:
        """Run ``fn(puzzle, limit)`` on ``worker`` for the page's edit number; ``stale`` when overtaken."""
        data = await _json_body(request)
        client, version = _version(data)
        puzzle = session.puzzle_of(data.get("doc"))  # validated once, here: a malformed document never reaches a worker
        res = await worker.run(client, version, limit, fn, puzzle, limit)
        if res is None:
            return JSONResponse({"version": version, "stale": True})
        return JSONResponse({"version": version, "result": res})

    async def analyze(request: Request) -> Response:
        return await versioned(request, check_worker, editor.timeout, session.analyze)

    async def fix(request: Request) -> Response:
        return await versioned(request, fix_worker, fix_timeout, session.propose)

    async def open_files(request: Request) -> Response:
        data = await _json_body(request)
        files = data.get("files")
        if not isinstance(files, list) or not 1 <= len(files) <= MAX_FILES:
            raise DocError(f"give 1 to {MAX_FILES} files")
        decoded = []
        for f in files:
            if not isinstance(f, dict) or not isinstance(f.get("name"), str) or not isinstance(f.get("data"), str):
                raise DocError("each file is {name, data (base64)}")
            try:
                decoded.append((os.path.basename(f["name"]), base64.b64decode(f["data"], validate=True)))
            except (binascii.Error, ValueError):
                raise DocError(f"{f['name']}: the content is not valid base64") from None
        doc = await asyncio.to_thread(session.open_bytes, decoded, editor.timeout)
        return JSONResponse({"doc": doc})

    async def new(request: Request) -> Response:
        """A new, empty document: ``{"hexagon": N}``, a hexagonal triddler of side N."""
        data = await _json_body(request)
        return JSONResponse({"doc": session.new_triddler(data.get("hexagon"))})

    async def export(request: Request) -> Response:
        data = await _json_body(request)
        fmt = data.get("format")
        if not isinstance(fmt, str):
            raise DocError("choose a format")
        name, content = session.export(data.get("doc"), fmt)
        return Response(content, media_type="application/octet-stream",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def save(request: Request) -> Response:
        data = await _json_body(request)
        path = editor.save(data.get("doc"))
        return JSONResponse({"path": path, "file": editor.display_name})

    async def save_as(request: Request) -> Response:
        data = await _json_body(request)
        fmt, name, overwrite = data.get("format"), data.get("name"), data.get("overwrite", False)
        if fmt is not None and not isinstance(fmt, str):
            raise DocError("format must be a string")
        if not isinstance(overwrite, bool):
            raise DocError("overwrite must be true or false")
        path = editor.save_as(data.get("doc"), name, fmt or None, overwrite)
        return JSONResponse({"path": path, "file": editor.display_name})

    @asynccontextmanager
    async def lifespan(app: Starlette):
        check_worker.start()
        fix_worker.start()
        try:
            yield
        finally:
            check_worker.stop()
            fix_worker.stop()

    routes = [
        Route(prefix + "/", index),
        Route(prefix + "/api/state", state),
        Route(prefix + "/api/analyze", analyze, methods=["POST"]),
        Route(prefix + "/api/fix", fix, methods=["POST"]),
        Route(prefix + "/api/open", open_files, methods=["POST"]),
        Route(prefix + "/api/new", new, methods=["POST"]),
        Route(prefix + "/api/export", export, methods=["POST"]),
        Route(prefix + "/api/save", save, methods=["POST"]),
        Route(prefix + "/api/save-as", save_as, methods=["POST"]),
        Mount(prefix + "/static", StaticFiles(directory=STATIC)),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=ERROR_HANDLERS)
    return _Guard(app, allowed_hosts, allowed_origins, prefix)  # type: ignore[return-value]


_SECURITY_RAW = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in SECURITY_HEADERS.items()]


class _Guard:
    """ASGI middleware: the Host must be the server, an Origin must be the server, the path must carry
    the token; every answer carries :data:`SECURITY_HEADERS`."""

    def __init__(self, app: Any, hosts: set[str], origins: set[str], prefix: str) -> None:
        self.app, self.hosts, self.origins, self.prefix = app, hosts, origins, prefix

    def __getattr__(self, name: str) -> Any:  # let tests reach the Starlette app's attributes
        return getattr(self.app, name)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "").lower()
        origin = headers.get("origin")
        path = scope.get("path", "")
        if host not in self.hosts:
            reply: Response = PlainTextResponse("unknown Host: this editor answers only to its own address", 421)
        elif origin is not None and origin.lower() not in self.origins:
            reply = PlainTextResponse("requests from other sites are refused", 403)
        elif not (hmac.compare_digest(path[: len(self.prefix) + 1].encode(), (self.prefix + "/").encode())):
            reply = PlainTextResponse("not found (the editor's address carries a token: use the URL it printed)", 404)
        elif scope["type"] == "websocket":
            reply = PlainTextResponse("no WebSocket here", 404)
        else:
            with contextlib.suppress(Exception):  # already answered by ERROR_HANDLERS[Exception]: no traceback in the log
                await self.app(scope, receive, self._secured(send))
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await reply(scope, receive, self._secured(send))

    @staticmethod
    def _secured(send: Callable) -> Callable:
        async def wrapped(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *_SECURITY_RAW]}
            await send(message)

        return wrapped


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family)


WILDCARD = ("0.0.0.0", "::", "")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def allowed_hosts(host: str, port: int) -> list[str]:
    """The ``Host`` header values that name this server: its address, plus loopback names for
    a loopback or wildcard address, plus this machine's name and addresses for a wildcard one."""
    names = {host}
    if host in LOOPBACK or host in WILDCARD:
        names |= set(LOOPBACK)
    if host in WILDCARD:
        me = socket.gethostname()
        names.add(me)
        with contextlib.suppress(OSError):
            names |= set(socket.gethostbyname_ex(me)[2])
    return sorted(url_host(n, port) for n in names if n)


def url_host(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def serve(editor: Editor, host: str = "127.0.0.1", port: int = 0,
          on_ready: Callable[[str], None] | None = None) -> None:
    """Serve the editor until interrupted; ``on_ready(url)`` is called once the socket listens.

    Raises:
        OSError: the address cannot be bound.
    """
    import uvicorn

    sock = bind(host, port)
    port = sock.getsockname()[1]
    hosts = allowed_hosts(host, port)
    token = new_token()
    app = create_app(editor, token, hosts)
    config = uvicorn.Config(app, log_level="warning", ws="none", lifespan="on", access_log=False,
                            timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    if on_ready is not None:
        shown = "127.0.0.1" if host in WILDCARD else host
        on_ready(f"http://{url_host(shown, port)}/{token}/")
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        sys.stdout.flush()
