"""sweep(): ``verify`` over a grid of shapes, dtypes, masks and seeds, one Dask task per
configuration (the ``cluster`` extra): on a LocalCluster by default, on an existing cluster by
its scheduler's address. A task whose worker dies is run again by Dask on another worker; the
results are gathered as they complete, keyed by configuration, so each is reported once."""

from __future__ import annotations

import logging
import re
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from importlib import import_module
from typing import Any

from mha_symbolic.errors import SpecError
from mha_symbolic.sweep_grid import KERNELS, Config, Grid, grid, listed
from mha_symbolic.sweep_report import SweepResult
from mha_symbolic.sweep_task import Row, is_module_kernel, run

INSTALL = 'pip install "mha-symbolic[cluster]"'
# Each worker computes on one thread: two workers of two threads each would fight for the
# same cores, and BLAS's own threads would multiply that.
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
CONNECT_SECONDS = 10
ADDRESS = re.compile(r"(tcp|tls)://\S+:\d+")
BUILT_IN = {
    "scaled_dot_product_attention": ("torch.nn.functional", "scaled_dot_product_attention"),
    "MultiheadAttention": ("torch.nn", "MultiheadAttention"),
}


def sweep(
    kernel: Any,
    configs: Grid | Mapping[str, Any] | Iterable[Config],
    *,
    scheduler: str | None = None,
    workers: int = 2,
    float64: bool | None = None,
    progress: Callable[[int], None] | None = None,
) -> SweepResult:
    """``verify`` of ``kernel`` for each configuration, one Dask task each.

    ``kernel`` is the class ``torch.nn.MultiheadAttention`` (built for each configuration,
    with its masks), a function shaped like ``torch.nn.functional.scaled_dot_product_attention``
    (no mask), or the name of either (``"MultiheadAttention"``,
    ``"scaled_dot_product_attention"``, ``"package.module:function"``). ``configs`` is a grid
    (the sweep file's fields: shapes, dtypes, masks, seeds), a :class:`Grid` read by
    :func:`mha_symbolic.sweep_grid.read_grid`, or :class:`Config` objects. ``scheduler``
    (``tcp://HOST:PORT``) runs on that cluster; without it a LocalCluster of ``workers``
    processes, one thread each, runs for this sweep. ``float64`` also runs each kernel in
    float64 (default: the grid's, else true). ``progress`` is called with the count done.
    """
    distributed = require_dask()
    target, plan = prepare(kernel, configs)
    wide = plan.float64 if float64 is None else float64
    with _client(distributed, scheduler, workers) as client:
        count = _workers(client, scheduler)
        rows = _gather(distributed, client, (target, wide), plan.configs, progress)
    return SweepResult(rows[0].kernel, rows, count)


def require_dask() -> Any:
    """``distributed``, or one line saying how to install it."""
    try:
        return import_module("distributed")
    except ImportError:
        raise ImportError(f"verify sweeps run on Dask, which is not installed: {INSTALL}") from None


def prepare(kernel: Any, configs: Grid | Mapping[str, Any] | Iterable[Config]) -> tuple[Any, Grid]:
    """The kernel found by its name, and the configurations checked against it."""
    target = resolve(kernel)
    if isinstance(configs, Grid):
        plan = configs
    elif isinstance(configs, Mapping):
        plan = grid(configs)
    else:
        plan = listed(configs)
    if not plan.configs:
        raise SpecError("configs: no configuration to run")
    if not is_module_kernel(target):
        for config in plan.configs:
            if config.mask != "none":
                raise SpecError(
                    f"masks: {config.mask} goes with the MultiheadAttention kernel; "
                    f"{_name(target)} is called as f(query, key, value), without a mask"
                )
    return target, plan


def resolve(kernel: Any) -> Any:
    """The kernel a name stands for (a callable is itself), or a one-line SpecError."""
    if not isinstance(kernel, str):
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(kernel, torch.nn.Module):
            raise SpecError(
                "kernel: a sweep builds a module for each shape: pass the class "
                f"{type(kernel).__name__}, not a module"
            )
        if not callable(kernel):
            raise SpecError(f"kernel: expected a callable or the name of one, got {kernel!r}")
        return kernel
    module, name = BUILT_IN.get(kernel) or kernel.partition(":")[::2]
    if not name or not module:
        raise SpecError(f"kernel: {kernel!r} names no kernel (give {KERNELS})")
    try:
        found = getattr(import_module(module), name)
    except ImportError as error:
        if kernel in BUILT_IN:
            raise SpecError(
                f"kernel: {kernel} needs torch, which is not installed: "
                'pip install "mha-symbolic[torch]"'
            ) from None
        raise SpecError(f"kernel: cannot import {module} ({error})") from None
    except AttributeError:
        raise SpecError(f"kernel: {module} has no {name}") from None
    if not callable(found):
        raise SpecError(f"kernel: {kernel} is not callable")
    return found


def _name(kernel: Any) -> str:
    return str(getattr(kernel, "__qualname__", None) or type(kernel).__name__)


@contextmanager
def _client(distributed: Any, scheduler: str | None, workers: int) -> Iterator[Any]:
    """A client of the cluster at ``scheduler``, or of a LocalCluster closed afterwards."""
    if scheduler is not None:
        if not ADDRESS.fullmatch(scheduler):
            raise SpecError(f"scheduler: expected tcp://HOST:PORT, got {scheduler!r}")
        try:
            client = distributed.Client(scheduler, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as error:
            raise SpecError(
                f"scheduler: no Dask scheduler answered at {scheduler} within "
                f"{CONNECT_SECONDS} s ({type(error).__name__})"
            ) from None
        with client:
            yield client
        return
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SpecError(f"workers: expected a whole number of processes from 1, got {workers!r}")
    cluster = distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",  # this machine only
        # The scheduler serves HTTP whatever it is told; on a free port, never a warning that
        # 8787 is taken (by another cluster, or another sweep).
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.CRITICAL,
        env=ONE_THREAD,
    )
    with cluster, distributed.Client(cluster) as client:
        yield client


def _workers(client: Any, scheduler: str | None) -> int:
    """The cluster's workers as the sweep starts; an existing cluster without any worker
    would leave the sweep waiting for ever."""
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except TimeoutError:
        where = f"scheduler: the cluster at {scheduler}" if scheduler else "the LocalCluster"
        raise SpecError(f"{where} has no worker (none came within {CONNECT_SECONDS} s)") from None
    return len(client.scheduler_info()["workers"])


def _gather(
    distributed: Any,
    client: Any,
    task: tuple[Any, bool],
    configs: tuple[Config, ...],
    progress: Callable[[int], None] | None,
) -> tuple[Row, ...]:
    """Each configuration's row, gathered as the tasks complete; a task Dask ran again after
    its worker died completes once, and a configuration is kept once whatever happens."""
    kernel, wide = task
    token = uuid.uuid4().hex[:12]  # a second sweep on the same cluster never meets these
    futures = [
        client.submit(run, kernel, config, wide, key=f"verify-{_slug(config)}-{token}")
        for config in configs
    ]
    config_of = {future.key: config for future, config in zip(futures, configs)}
    done: dict[Config, Row] = {}
    try:
        for future in distributed.as_completed(futures):
            config = config_of[future.key]
            if config not in done:
                done[config] = _result(distributed, future, config)
                if progress is not None:
                    progress(len(done))
    finally:  # stopped early: nothing of this sweep stays queued on a shared cluster
        client.cancel(futures)
    return tuple(done[config] for config in configs)


def _slug(config: Config) -> str:
    return f"L{config.L}-E{config.E}-h{config.heads}-{config.dtype}-{config.mask}-s{config.seed}"


def _result(distributed: Any, future: Any, config: Config) -> Row:
    try:
        row: Row = future.result()
    except distributed.KilledWorker:
        raise SpecError(
            f"{config}: every worker that ran it died (out of memory?), and Dask stopped "
            "retrying it"
        ) from None
    except Exception as error:  # the kernel's own error, raised on a worker
        raise SpecError(f"{config}: {type(error).__name__}: {error}") from None
    return row
