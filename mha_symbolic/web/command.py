"""``mha-symbolic serve``: the page on a local port (Starlette and uvicorn, the ``web`` extra)."""

from __future__ import annotations

import argparse
import importlib.util
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mha_symbolic.errors import SpecError

EXIT_OK, EXIT_MISSING = 0, 2
INSTALL = "pip install 'mha-symbolic[web]'"


def missing() -> list[str]:
    """The web extra's packages that are not installed."""
    return [name for name in ("starlette", "uvicorn") if importlib.util.find_spec(name) is None]


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port), or a one-line SpecError."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise SpecError(f"--host {host}: {error.strerror}") from None
    family, kind, _, _, address = infos[0]
    sock = socket.socket(family, kind)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as error:
        sock.close()
        raise SpecError(f"--port {port}: cannot listen on {host}: {error.strerror}") from None
    sock.listen(128)
    return sock


def url(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(args: argparse.Namespace) -> int:
    """Serve the page until Ctrl-C; exit 2 with the install command when the extra is not
    there."""
    absent = missing()
    if absent:
        print(
            f"mha-symbolic: serve needs {' and '.join(absent)}: {INSTALL}",
            file=sys.stderr,
        )
        return EXIT_MISSING
    import uvicorn

    from mha_symbolic.web.app import LOOPBACK, create_app

    sock = bind(args.host, args.port)
    address = url(sock, args.host)
    loopback = args.host in (*LOOPBACK, "::1")
    hosts = LOOPBACK if args.host in LOOPBACK else ("*",)
    print(f"mha-symbolic: serving the page at {address} (Ctrl-C stops)", flush=True)
    if not loopback:
        print(
            f"mha-symbolic: listening on {args.host}, not only this machine: anyone who can "
            "reach it can use the page",
            flush=True,
        )
    if args.open:
        threading.Timer(1.0, webbrowser.open, (address,)).start()
    app = create_app(workers=args.workers, time_limit=args.time_limit, hosts=hosts)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
    return EXIT_OK


@contextmanager
def in_thread(**options: Any) -> Iterator[str]:
    """The app (``create_app(**options)``) served by uvicorn on a free loopback port in a
    thread of this process, for the tests and the load check; yields its URL."""
    import uvicorn

    from mha_symbolic.web.app import create_app

    sock = bind("127.0.0.1", 0)
    config = uvicorn.Config(create_app(**options), log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120  # the workers start with the app (a loaded machine)
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the page's server did not start")
        time.sleep(0.05)
    try:
        yield url(sock, "127.0.0.1")
    finally:
        server.should_exit = True
        thread.join(timeout=60)
        sock.close()
