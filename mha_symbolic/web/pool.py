"""Worker processes for the page: each derivation away from the event loop, within a time
limit, and stopped when the same user's next edit supersedes it.

A thread cannot be stopped; a process can. Workers fork from a server process that has
imported the library once (multiprocessing's forkserver), so replacing one that was
stopped takes milliseconds, not the seconds of importing SymPy again. A worker whose memory
grew past a bound after a job is replaced too: twenty users editing for an hour leave the
server the size it started at.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from mha_symbolic.web import work

MEMORY_LIMIT = 1_500_000_000  # bytes a worker may hold after a job before it is replaced
# A superseded derivation still running after this many seconds is stopped (its worker
# replaced); a quicker one finishes and its answer is dropped: replacing a worker on every
# keystroke would cost more than the derivations it saves.
GRACE = 1.0
MAX_USERS = 10_000  # users whose newest request is remembered (the oldest forgotten first)
SUPERSEDED = {"ok": False, "superseded": True}


def _resident_bytes() -> int:
    """This process's resident memory (Linux; 0 where /proc is not there)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


# Imported once by the server that workers fork from: a new worker starts warm.
PRELOAD = [
    "mha_symbolic.web.work",
    "mha_symbolic.web.heatmaps",
    "mha_symbolic.web.documents",
    "mha_symbolic.solution.render",
    "mha_symbolic.check.judge",
    "mha_symbolic.exact.evaluate",
    "mha_symbolic.extract",
]
WARM_UP = "two-tokens"  # derived, checked and rendered before the first real job


def _serve(conn: Connection) -> None:
    """A worker's loop: a job in, its answer and the worker's memory out, until closed."""
    from importlib import resources

    example = resources.files("mha_symbolic").joinpath("examples", f"{WARM_UP}.toml")
    work.run("solve", {"toml": example.read_text("utf-8")})
    conn.send("ready")
    while True:
        try:
            name, request = conn.recv()
        except (EOFError, OSError):
            return
        answer = work.run(name, request)
        conn.send((answer, _resident_bytes()))


@dataclass(eq=False)  # workers are told apart by identity (kept in a set)
class _Worker:
    process: Any
    conn: Connection


@dataclass
class Ticket:
    """One request of one user (``user``, with its sequence number ``seq``)."""

    user: str
    seq: int
    worker: _Worker | None = None
    stopped: bool = False


@dataclass
class Pool:
    """``size`` workers; ``run`` answers a job, or SUPERSEDED when a newer one of the same
    user came first."""

    size: int = 2
    time_limit: float = 20.0
    _idle: asyncio.Queue[_Worker] | None = None
    _newest: OrderedDict[str, Ticket] = field(default_factory=OrderedDict)
    _context: Any = None
    _workers: set[_Worker] = field(default_factory=set)

    async def start(self) -> None:
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(PRELOAD)
        # A thread waits on each busy worker's pipe: enough of them for every worker.
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(self.size + 4))
        self._idle = asyncio.Queue()
        for _ in range(self.size):
            self._idle.put_nowait(await asyncio.to_thread(self._spawn))

    def _spawn(self) -> _Worker:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        ours.recv()  # "ready": warmed up, so a job's time limit counts the job alone
        worker = _Worker(process, ours)
        self._workers.add(worker)
        return worker

    async def stop(self) -> None:
        for worker in list(self._workers):
            await asyncio.to_thread(self._retire, worker)

    def _retire(self, worker: _Worker) -> None:
        self._workers.discard(worker)
        with contextlib.suppress(OSError, ValueError):
            worker.process.kill()
            worker.conn.close()
        worker.process.join(timeout=5)

    def supersede(self, user: str, seq: int) -> Ticket:
        """A ticket for ``user``'s request ``seq``; the user's older request is stopped (its
        worker replaced) or, still waiting, dropped when its turn comes. A request arriving
        after a newer one of the same user is dropped itself."""
        ticket = Ticket(user, seq)
        newest = self._newest.get(user)
        if newest is not None and newest.seq > seq:
            ticket.stopped = True
            return ticket
        if newest is not None:
            newest.stopped = True
            asyncio.get_running_loop().call_later(GRACE, _stop_if_running, newest)
        self._newest[user] = ticket
        self._newest.move_to_end(user)
        while len(self._newest) > MAX_USERS:
            self._newest.popitem(last=False)
        return ticket

    @staticmethod
    def ticket() -> Ticket:
        """A ticket nothing supersedes (a download)."""
        return Ticket("", 0)

    async def run(self, name: str, request: dict[str, Any], ticket: Ticket) -> dict[str, Any]:
        assert self._idle is not None, "Pool.start() first"
        worker = await self._idle.get()
        if ticket.stopped:
            self._idle.put_nowait(worker)
            return SUPERSEDED
        ticket.worker = worker
        try:
            return await self._answer(worker, name, request, ticket)
        finally:
            ticket.worker = None

    async def _answer(
        self, worker: _Worker, name: str, request: dict[str, Any], ticket: Ticket
    ) -> dict[str, Any]:
        answer, memory, ended = None, 0, False
        try:
            worker.conn.send((name, request))
            if await asyncio.to_thread(worker.conn.poll, self.time_limit):
                answer, memory = worker.conn.recv()
        except (EOFError, OSError):  # stopped (superseded), or it died
            ended = True
        if answer is None or memory > MEMORY_LIMIT:
            await asyncio.to_thread(self._retire, worker)
            worker = await asyncio.to_thread(self._spawn)
        self._idle.put_nowait(worker)  # type: ignore[union-attr]
        if ticket.stopped:
            return SUPERSEDED
        if answer is None:
            return _failed(self.time_limit, ended)
        return dict(answer)


def _stop_if_running(ticket: Ticket) -> None:
    if ticket.worker is not None:
        ticket.worker.process.kill()  # its waiting thread sees the pipe close


def _failed(seconds: float, ended: bool) -> dict[str, Any]:
    """The line for a derivation that took too long, or whose worker died (out of memory)."""
    why = (
        "the worker ended without an answer (out of memory?)"
        if ended
        else f"stopped after {seconds:g} s, the page's time limit for one derivation "
        "(`mha-symbolic derive` has none)"
    )
    return {"ok": False, "error": f"{work.PROGRAM}: {work.SOURCE}: {why}", "field": None}
