"""sweep() and `verify --sweep` on a real LocalCluster of 2 worker processes (shared by the
module: a cluster takes seconds to start): each configuration's worst ulps are verify's own,
each is reported once, also when a worker is killed in the middle of the sweep."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from mha_symbolic.cli import main
from mha_symbolic.sweep_grid import Config, grid

# With pytest -n: one LocalCluster (the `cluster` fixture), on one worker.
pytestmark = pytest.mark.xdist_group("test_sweep")

SHAPES = [{"L": 3, "E": 4, "heads": 2}, {"L": 2, "E": 6, "heads": 3}]


def _torch():  # type: ignore[no-untyped-def]
    return pytest.importorskip("torch", reason="sweep kernels are torch's; torch is not installed")


@pytest.fixture(scope="module")
def cluster():  # type: ignore[no-untyped-def]
    """A LocalCluster of 2 processes, one thread each, and a client of it for the tests."""
    distributed = pytest.importorskip(
        "distributed", reason="sweeps run on Dask (the cluster extra); it is not installed"
    )
    import logging

    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address="127.0.0.1:0",
            silence_logs=logging.CRITICAL,
        ) as local,
        distributed.Client(local) as client,
    ):
        yield client


def _sdpa_inputs(torch, config: Config):  # type: ignore[no-untyped-def]
    """The inputs the README promises for a function kernel, made here from the seed."""
    generator = torch.Generator().manual_seed(config.seed)
    shape = (config.heads, config.L, config.E // config.heads)
    dtype = getattr(torch, config.dtype)
    return [
        torch.randn(*shape, generator=generator, dtype=torch.float64).to(dtype) for _ in range(3)
    ]


def _worst(found) -> tuple:  # type: ignore[no-untyped-def]
    return (
        found.entries,
        found.max_ulps,
        found.median_ulps,
        found.scale_ulps,
        found.max_error,
        found.float64_max_ulps,
        found.float64_scale_ulps,
    )


def test_two_workers_give_verifys_own_worst_ulps_for_each_configuration(cluster) -> None:
    torch = _torch()
    from mha_symbolic import sweep, verify

    sdpa = torch.nn.functional.scaled_dot_product_attention
    plan = grid({"shapes": SHAPES, "dtypes": ["float32", "float64"], "seeds": [5]})
    counted: list[int] = []
    address = cluster.scheduler.address
    result = sweep(sdpa, plan, scheduler=address, progress=counted.append)
    assert [row.config for row in result.rows] == list(plan.configs)  # the grid's order
    assert counted == [1, 2, 3, 4]
    for row in result.rows:
        direct = verify(sdpa, *_sdpa_inputs(torch, row.config))
        assert _worst(row) == _worst(direct), row.config
        assert row.kernel == "scaled_dot_product_attention"
    assert result.worst.scale_ulps == max(row.scale_ulps for row in result.rows)


def _dies_once(marker: str, ready: str):  # type: ignore[no-untyped-def]
    """SDPA, except that the first call on an L 3 input waits until ``ready`` exists (the
    sweep has reported a result) and then kills its worker process (SIGKILL: no goodbye to
    the scheduler); the call that creates ``marker`` writes its pid there and dies."""
    import torch

    def attention(query, key, value):  # type: ignore[no-untyped-def]
        if query.shape[-2] == 3 and not os.path.exists(marker):
            deadline = time.monotonic() + 300  # a safety net, not a measure
            while not os.path.exists(ready) and time.monotonic() < deadline:
                time.sleep(0.02)
            try:
                descriptor = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                pass
            else:
                os.write(descriptor, str(os.getpid()).encode())
                os.close(descriptor)
                os.kill(os.getpid(), signal.SIGKILL)
        return torch.nn.functional.scaled_dot_product_attention(query, key, value)

    return attention


def test_a_worker_killed_mid_sweep_loses_nothing_and_repeats_nothing(cluster, tmp_path) -> None:
    torch = _torch()
    from mha_symbolic import sweep, verify

    before = set(cluster.run(os.getpid).values())
    marker, ready = str(tmp_path / "killed"), tmp_path / "ready"
    plan = grid({"shapes": SHAPES[::-1], "seeds": [0, 1, 2]})  # L 2 first, then L 3
    counted: list[tuple[int, bool]] = []  # each report, and whether the worker had died

    def progress(done: int) -> None:
        counted.append((done, os.path.exists(marker)))
        ready.touch()

    kernel = _dies_once(marker, str(ready))
    result = sweep(kernel, plan, scheduler=cluster.scheduler.address, progress=progress)
    with open(marker, encoding="utf-8") as file:
        killed = int(file.read())
    assert killed in before  # one of the two workers really died in the sweep
    assert [done for done, _ in counted] == [1, 2, 3, 4, 5, 6]
    assert counted[0][1] is False and counted[-1][1] is True  # it died mid-sweep
    assert [row.config for row in result.rows] == list(plan.configs)
    sdpa = torch.nn.functional.scaled_dot_product_attention
    for row in result.rows:
        assert _worst(row) == _worst(verify(sdpa, *_sdpa_inputs(torch, row.config)))
    cluster.wait_for_workers(2, timeout=120)  # the nanny starts a new worker
    assert killed not in set(cluster.run(os.getpid).values())


def _file(tmp_path, text: str) -> str:
    path = tmp_path / "sweep.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


MODULE_SWEEP = """\
kernel = "MultiheadAttention"
shapes = [{ L = 3, E = 4, heads = 2 }]
masks = ["none", "causal", "padding"]
float64 = false
"""


def test_the_command_runs_a_modules_masks_on_an_existing_cluster(
    cluster, tmp_path, capsys, monkeypatch
) -> None:
    torch = _torch()
    from mha_symbolic import verify

    path = _file(tmp_path, MODULE_SWEEP)
    args = ["verify", "--sweep", path, "--scheduler", cluster.scheduler.address]
    assert main([*args, "--format", "json", "-q"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    document = json.loads(out)
    assert (document["kernel"], document["digits"]) == ("MultiheadAttention", 50)
    rows = document["configurations"]
    assert [row["mask"] for row in rows] == ["none", "causal", "padding"]
    masks = [
        {},
        {"attn_mask": torch.ones(3, 3, dtype=torch.bool).triu(1)},
        {"key_padding_mask": torch.tensor([[False, False, True]])},
    ]
    for row, mask in zip(rows, masks):
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            module = torch.nn.MultiheadAttention(4, 2, batch_first=True).eval()
        x = torch.randn(1, 3, 4, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
        direct = verify(module, x.float(), **mask, float64=False)
        assert row == {
            "L": 3, "E": 4, "heads": 2, "dtype": "float32", "mask": row["mask"], "seed": 0,
            "entries": 12, "max_ulps": direct.max_ulps, "median_ulps": direct.median_ulps,
            "scale_ulps": direct.scale_ulps, "max_error": direct.max_error,
            "float64_max_ulps": None, "float64_scale_ulps": None,
        }  # fmt: skip
    monkeypatch.setenv("MHA_SYMBOLIC_PROGRESS_EVERY", "0")  # a plain line at every report
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert err == "verify: 1/3\nverify: 2/3\nverify: 3/3\n"
    table = out.splitlines()
    assert table[0] == (
        "verify sweep of MultiheadAttention: 3 configurations against exact values certified "
        "to 50 digits (2 workers)"
    )
    assert table[1].split() == [
        "L", "E", "heads", "dtype", "mask", "seed", "entries", "max", "ulp", "ulp", "at",
        "scale", "float64", "at", "scale",
    ]  # fmt: skip
    worst = max(rows, key=lambda row: row["scale_ulps"])
    first = [f"{rows[0]['max_ulps']:.3g}", f"{rows[0]['scale_ulps']:.3g}", "-"]
    assert table[2].split() == ["3", "4", "2", "float32", "none", "0", "12", *first]
    assert table[5] == (
        f"worst at the output's scale: {worst['scale_ulps']:.3g} ulp (L 3, E 4, heads 2, "
        f"float32, mask {worst['mask']}, seed 0)"
    )


def test_a_kernel_that_fails_on_a_worker_is_one_line(cluster, tmp_path, capsys) -> None:
    _torch()
    path = _file(
        tmp_path,
        'kernel = "torch.nn.functional:softmax"\nshapes = [{ L = 2, E = 2, heads = 1 }]\n',
    )
    assert main(["verify", "--sweep", path, "--scheduler", cluster.scheduler.address]) == 2
    assert capsys.readouterr().err == (
        "mha-symbolic: L 2, E 2, heads 1, float32, mask none, seed 0: TypeError: softmax(): "
        "argument 'dim' (position 1) must be int, not Tensor\n"
    )


def test_a_scheduler_that_does_not_answer(tmp_path, capsys, monkeypatch) -> None:
    pytest.importorskip("distributed", reason="sweeps run on Dask; it is not installed")
    _torch()
    import importlib
    import socket

    monkeypatch.setattr(importlib.import_module("mha_symbolic.sweep"), "CONNECT_SECONDS", 1)
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    path = _file(tmp_path, 'kernel = "scaled_dot_product_attention"\n'
                 "shapes = [{ L = 2, E = 2, heads = 1 }]\n")  # fmt: skip
    assert main(["verify", "--sweep", path, "--scheduler", f"tcp://127.0.0.1:{port}"]) == 2
    assert capsys.readouterr().err == (
        f"mha-symbolic: --scheduler: no Dask scheduler answered at tcp://127.0.0.1:{port} "
        "within 1 s (OSError)\n"
    )
    assert main(["verify", "--sweep", path, "--scheduler", "127.0.0.1:8786"]) == 2
    assert capsys.readouterr().err == (
        "mha-symbolic: --scheduler: expected tcp://HOST:PORT, got '127.0.0.1:8786'\n"
    )


def test_a_cluster_without_workers_is_one_line(tmp_path, capsys, monkeypatch) -> None:
    distributed = pytest.importorskip("distributed", reason="sweeps run on Dask; not installed")
    _torch()
    import importlib
    import logging

    monkeypatch.setattr(importlib.import_module("mha_symbolic.sweep"), "CONNECT_SECONDS", 1)
    path = _file(tmp_path, 'kernel = "scaled_dot_product_attention"\n'
                 "shapes = [{ L = 2, E = 2, heads = 1 }]\n")  # fmt: skip
    with distributed.LocalCluster(
        n_workers=0, dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL
    ) as empty:
        address = empty.scheduler_address
        assert main(["verify", "--sweep", path, "--scheduler", address]) == 2
    assert capsys.readouterr().err == (
        f"mha-symbolic: --scheduler: the cluster at {address} has no worker (none came "
        "within 1 s)\n"
    )


def test_without_scheduler_a_local_cluster_runs_the_sweep(tmp_path, capsys) -> None:
    pytest.importorskip("distributed", reason="sweeps run on Dask; it is not installed")
    torch = _torch()
    from mha_symbolic import verify

    path = _file(tmp_path, 'kernel = "scaled_dot_product_attention"\n'
                 "shapes = [{ L = 2, E = 2, heads = 1 }]\nfloat64 = false\n")  # fmt: skip
    assert main(["verify", "--sweep", path, "--workers", "1", "--format", "json", "-q"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["configurations"]
    direct = verify(torch.nn.functional.scaled_dot_product_attention,
                    *_sdpa_inputs(torch, Config(2, 2, 1)), float64=False)  # fmt: skip
    assert (row["max_ulps"], row["scale_ulps"]) == (direct.max_ulps, direct.scale_ulps)
