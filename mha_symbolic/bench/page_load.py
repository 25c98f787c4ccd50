"""A load check of the page's server (not a test: it takes a minute): CLIENTS pages editing
built-in examples at once (each page one of EXAMPLES in turn), each edit (sometimes two in
quick succession, the first then superseded) followed by reading the answer, or with
--no-wait edits at a typist's pace whether answered or not; every answer compared with the
answer this process works out for the same text beforehand (and two-tokens' weight with its
closed form), the server's memory (its process and its workers) read at the start and the end.

    python -m mha_symbolic.bench.page_load [--clients 20] [--seconds 60] [--workers 2]
        [--examples two-tokens,one-token] [--no-wait]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from mha_symbolic.bench.page import edited
from mha_symbolic.bench.timing import machine

EXAMPLES = ("two-tokens", "one-token", "split-scaled", "alibi")  # the quick ones: 20 pages
VALUES = range(1, 10)  # the entry each edit writes


@dataclass
class Tally:
    answered: list[float] = field(default_factory=list)  # seconds of each answered edit
    superseded: int = 0
    errors: list[str] = field(default_factory=list)
    wrong: int = 0


def answers(names: list[str]) -> dict[tuple[str, int], dict[str, Any]]:
    """(example, value) -> what the page shows for that edit (its solution and heatmaps),
    worked out here, by this process, before the server is asked."""
    from mha_symbolic.web.work import solve

    made = {}
    for name in names:
        text = _text(name)
        for value in VALUES:
            answer = solve({"toml": edited(text, value)})
            made[name, value] = {"html": answer.get("html"), "heatmaps": answer.get("heatmaps")}
    return made


def _text(name: str) -> str:
    return resources.files("mha_symbolic").joinpath("examples", f"{name}.toml").read_text()


def expected(value: int) -> str:
    """The exact weight [1,1] of head 1 when x[1,1] = ``value`` (plain text, as the page)."""
    square = value * value
    return "e/(1 + e)" if square == 1 else f"e^({square})/(1 + e^({square}))"


def resident_kib(pid: int) -> int:
    """Resident memory of ``pid`` and its children (KiB, from /proc)."""
    total = 0
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        total += next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as children:
            for child in children.read().split():
                # a worker replaced between the listing and the read: gone
                with contextlib.suppress(OSError, StopIteration):
                    total += resident_kib(int(child))
    return total


async def _edit(
    client: Any, url: str, body: dict[str, Any], tally: Tally, right: dict[str, Any]
) -> None:
    start = time.perf_counter()
    try:
        answer = (await client.post(url, json=body, timeout=120)).json()
    except Exception as error:  # a refused connection or a timeout is what this counts
        tally.errors.append(f"{type(error).__name__}: {error}")
        return
    if answer.get("superseded"):
        tally.superseded += 1
    elif not answer.get("ok"):
        tally.errors.append(str(answer.get("error")))
    else:
        tally.answered.append(time.perf_counter() - start)
        shown = {"html": answer.get("html"), "heatmaps": answer.get("heatmaps")}
        wrong = shown != right
        if body["example"] == "two-tokens":  # and its weight against the closed form
            wrong |= answer["heatmaps"][0]["rows"][0][0]["text"] != expected(body["value"])
        tally.wrong += wrong


async def _page(url: str, name: str, args: argparse.Namespace, page: int, tally: Tally) -> None:
    """One page editing example ``name``: an edit (sometimes two in quick succession, the
    first superseded), then reading its answer for a while; with ``args.no_wait``, edits at a
    typist's pace whether answered or not."""
    import httpx

    text, pending, seq = _text(name), [], 0
    async with httpx.AsyncClient() as client:
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            for _ in range(2 if random.random() < 0.3 else 1):
                seq, value = seq + 1, random.choice(VALUES)
                body = {"toml": edited(text, value), "user": f"load{page}", "seq": seq}
                sent = _edit(
                    client, url, {**body, "value": value, "example": name}, tally,
                    args.answers[name, value],
                )  # fmt: skip
                pending.append(asyncio.create_task(sent))
                await asyncio.sleep(0.3)  # the page's debounce and a little typing
            if args.no_wait:
                await asyncio.sleep(random.uniform(0.0, 1.2))
            else:
                await pending[-1]
                await asyncio.sleep(random.uniform(0.5, 2.0))  # reading the solution
        await asyncio.gather(*pending)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--examples", default=",".join(EXAMPLES), help="comma-separated")
    parser.add_argument(
        "--no-wait", action="store_true", help="edit on without waiting for answers (overload)"
    )
    args = parser.parse_args(argv)
    print(machine("at the start"))
    tally, before, after = run(args)
    report(args, tally, before, after)
    print(machine("at the end"))


def run(args: argparse.Namespace) -> tuple[Tally, int, int]:
    """The pages' edits against a server started here on a free port: what they got, and
    the server's memory (KiB) at the start and the end."""
    from mha_symbolic.web.command import in_thread  # the server the tests start

    names = args.examples.split(",")
    args.answers = answers(names)
    tally = Tally()
    with in_thread(workers=args.workers) as address:
        before = resident_kib(os.getpid())

        async def pages() -> None:
            url = address + "api/solve"
            edits = (_page(url, names[n % len(names)], args, n, tally) for n in range(args.clients))
            await asyncio.gather(*edits)

        asyncio.run(pages())
        after = resident_kib(os.getpid())
    return tally, before, after


def report(args: argparse.Namespace, tally: Tally, before: int, after: int) -> None:
    times = sorted(tally.answered) or [float("nan")]
    sent = len(tally.answered) + tally.superseded + len(tally.errors)
    p95 = times[int(0.95 * (len(times) - 1))]
    lines = [
        f"{args.clients} pages editing {args.examples} for {args.seconds:g} s, {args.workers} "
        f"workers, {'not waiting for' if args.no_wait else 'reading'} answers",
        f"edits sent {sent}: answered {len(tally.answered)}, superseded by a newer edit "
        f"{tally.superseded}, errors {len(tally.errors)}, wrong values {tally.wrong}",
        f"answer time: median {statistics.median(times) * 1e3:.0f} ms, 95th percentile "
        f"{p95 * 1e3:.0f} ms, max {times[-1] * 1e3:.0f} ms",
        f"server memory (process and workers): {before / 1024:.0f} MiB at the start, "
        f"{after / 1024:.0f} MiB at the end",
        *(f"error: {line}" for line in sorted(set(tally.errors))[:5]),
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
