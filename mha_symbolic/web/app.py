"""The page's web app (Starlette): the page and its files, and a JSON API over the workers.

Nothing a user sends reaches a template, a file path or a shell: the page is a fixed file,
the API's answers are JSON the page's script puts into the page as text (or as the HTML
our own renderer made, which escapes every user string), and the spec is read from the
request's text, never from a name.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from mha_symbolic.spec.bounds import MAX_DECIMALS, MAX_FILE_BYTES
from mha_symbolic.web import work
from mha_symbolic.web.pool import Pool

MAX_BODY = MAX_FILE_BYTES + 100_000  # a spec file's bound, and the JSON around it
MAX_USER = 100  # characters of a page's own id
LOOPBACK = ("127.0.0.1", "localhost")
HEADERS = {
    # The page's own script and styles only; MathML's inline sizes and the data: URIs of
    # plots are the renderer's.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; object-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class BadRequest(Exception):
    def __init__(self, status: int, line: str) -> None:
        super().__init__(line)
        self.status, self.line = status, line


def _static() -> Any:
    return resources.files("mha_symbolic.web").joinpath("static")


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read at most MAX_BODY bytes (413 past that)."""
    declared = request.headers.get("content-length", "")
    too_big = BadRequest(
        413, f"{work.PROGRAM}: the request is over {MAX_BODY:,} bytes; at most {MAX_BODY:,} "
        "are read (a spec file's bound)"
    )  # fmt: skip
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise too_big
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise too_big
    try:
        table = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise BadRequest(400, f"{work.PROGRAM}: the request is not JSON") from None
    if not isinstance(table, dict):
        raise BadRequest(400, f"{work.PROGRAM}: the request is not a JSON object")
    return table


def _fields(table: dict[str, Any]) -> dict[str, Any]:
    """The request's fields a job reads, each of its type (strings, a whole number)."""
    out: dict[str, Any] = {}
    for name in ("toml", "text", "lang", "detail", "format", "kind", "limit"):
        value = table.get(name)
        if value is not None and not isinstance(value, str):
            raise BadRequest(400, f"{work.PROGRAM}: {name} must be text")
        if value is not None:
            out[name] = value
    decimals = table.get("decimals")  # absent or null: the spec's own decimals, else 2
    if decimals is not None and (isinstance(decimals, bool) or not isinstance(decimals, int)):
        raise BadRequest(400, f"{work.PROGRAM}: decimals must be a whole number")
    out["decimals"] = decimals
    marks = table.get("marks", True)
    if not isinstance(marks, bool):
        raise BadRequest(400, f"{work.PROGRAM}: marks must be true or false")
    out["marks"] = marks
    return out


def _ticket(pool: Pool, table: dict[str, Any], channel: str) -> Any:
    user, seq = table.get("user", ""), table.get("seq", 0)
    if not isinstance(user, str) or len(user) > MAX_USER:
        raise BadRequest(400, f"{work.PROGRAM}: user must be text of at most {MAX_USER} characters")
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise BadRequest(400, f"{work.PROGRAM}: seq must be a whole number")
    return pool.supersede(f"{user}:{channel}", seq)


async def _job(request: Request, name: str) -> Response:
    """A job for the workers: superseded by the same page's next request of this kind."""
    pool: Pool = request.app.state.pool
    try:
        table = await _body(request)
        ticket = _ticket(pool, table, name)
        answer = await pool.run(name, _fields(table), ticket)
    except BadRequest as bad:
        return JSONResponse({"ok": False, "error": bad.line}, bad.status, HEADERS)
    return JSONResponse({**answer, "seq": ticket.seq}, headers=HEADERS)


async def solve(request: Request) -> Response:
    return await _job(request, "solve")


async def check(request: Request) -> Response:
    return await _job(request, "check")


async def download(request: Request) -> Response:
    pool: Pool = request.app.state.pool
    try:
        table = await _body(request)
        fields = _fields(table)
    except BadRequest as bad:
        return JSONResponse({"ok": False, "error": bad.line}, bad.status, HEADERS)
    # A download is never superseded: its own ticket, not remembered.
    answer = await pool.run("download", fields, pool.ticket())
    if not answer.get("ok"):
        return JSONResponse(answer, 400, HEADERS)
    disposition = f'attachment; filename="{answer["name"]}"'
    headers = {**HEADERS, "Content-Disposition": disposition}
    return Response(answer["data"], media_type=answer["media"], headers=headers)


async def edit(request: Request) -> Response:
    """One entry of a matrix grid changed in the spec's text (comments and layout kept)."""
    from mha_symbolic.errors import SpecError
    from mha_symbolic.web.grids import edit as edited

    try:
        table = await _body(request)
        text, path, value = table.get("toml"), table.get("path"), table.get("value")
        row: Any = table.get("row")
        col: Any = table.get("col")
        if not (isinstance(text, str) and isinstance(value, str) and isinstance(path, list)):
            raise BadRequest(400, f"{work.PROGRAM}: an edit takes toml, path and value")
        if not all(isinstance(i, int) and not isinstance(i, bool) for i in (row, col)):
            raise BadRequest(400, f"{work.PROGRAM}: an edit takes a row and a column")
        changed = await asyncio.to_thread(edited, text, path, row, col, value)
    except BadRequest as bad:
        return JSONResponse({"ok": False, "error": bad.line}, bad.status, HEADERS)
    except SpecError as error:
        return JSONResponse({"ok": False, "error": work.message(error)}, 400, HEADERS)
    return JSONResponse({"ok": True, "toml": changed}, headers=HEADERS)


@functools.cache
def _examples() -> list[dict[str, str]]:
    """The built-in examples: name, title and the TOML text the editor starts from (read
    once: they ship with the package)."""
    from mha_symbolic.spec.attention import examples as listed

    folder = resources.files("mha_symbolic").joinpath("examples")
    return [
        {"name": name, "title": title, "toml": folder.joinpath(f"{name}.toml").read_text("utf-8")}
        for name, title, _ in listed()
    ]


async def examples(request: Request) -> Response:
    return JSONResponse(_examples(), headers=HEADERS)


async def info(request: Request) -> Response:
    from mha_symbolic.language.locales import LANGUAGES

    facts = {"pdf": work.pdf_available(), "languages": LANGUAGES, "max_decimals": MAX_DECIMALS}
    return JSONResponse(facts, headers=HEADERS)


async def page(request: Request) -> Response:
    with resources.as_file(_static().joinpath("index.html")) as path:
        return FileResponse(path, headers=HEADERS)


def create_app(
    workers: int = 2, time_limit: float = 20.0, hosts: tuple[str, ...] = LOOPBACK
) -> Starlette:
    """The app; its workers start with it and stop with it. ``hosts``: the Host headers
    answered (the loopback's names by default: a web page elsewhere cannot reach the app
    through a name of its own that resolves here)."""
    pool = Pool(size=workers, time_limit=time_limit)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await pool.start()
        await asyncio.to_thread(_examples)  # read before the first page asks
        app.state.pool = pool
        try:
            yield
        finally:
            await pool.stop()

    routes = [
        Route("/", page),
        Route("/api/examples", examples),
        Route("/api/info", info),
        Route("/api/solve", solve, methods=["POST"]),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/download", download, methods=["POST"]),
        Route("/api/edit", edit, methods=["POST"]),
        Mount("/static", StaticFiles(packages=[("mha_symbolic.web", "static")]), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
