"""Sweep files and what a sweep needs: each mistake is one line naming the file and the field
(exit 2), found before any cluster starts; without Dask, one line saying what to install."""

from __future__ import annotations

import sys

import pytest

from mha_symbolic import SpecError
from mha_symbolic.cli import main
from mha_symbolic.sweep_grid import Config, grid, read_grid

GOOD = """\
kernel = "scaled_dot_product_attention"
shapes = [{ L = 3, E = 4, heads = 2 }, { L = 5, E = 8, heads = 4 }]
dtypes = ["float32", "float64"]
seeds = [0, 7]
"""


def _file(tmp_path, text: str) -> str:
    path = tmp_path / "sweep.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_every_combination_is_one_configuration_in_the_files_order(tmp_path) -> None:
    plan = read_grid(_file(tmp_path, GOOD))
    assert plan.kernel == "scaled_dot_product_attention" and plan.float64 is True
    assert plan.configs == (
        Config(3, 4, 2, "float32", "none", 0),
        Config(3, 4, 2, "float32", "none", 7),
        Config(3, 4, 2, "float64", "none", 0),
        Config(3, 4, 2, "float64", "none", 7),
        Config(5, 8, 4, "float32", "none", 0),
        Config(5, 8, 4, "float32", "none", 7),
        Config(5, 8, 4, "float64", "none", 0),
        Config(5, 8, 4, "float64", "none", 7),
    )
    assert str(plan.configs[1]) == "L 3, E 4, heads 2, float32, mask none, seed 7"


def test_dtypes_masks_and_seeds_have_defaults() -> None:
    plan = grid({"shapes": [{"L": 2, "E": 2, "heads": 1}], "float64": False})
    assert plan.kernel is None and plan.float64 is False
    assert plan.configs == (Config(2, 2, 1, "float32", "none", 0),)


BAD = [
    ('shapes = [{ L = 3, E = 4, heads = 2 }]\nkernels = "x"\n',
     "kernels: not a sweep field (the fields: kernel, shapes, dtypes, masks, seeds, float64)"),
    ('kernel = "k:f"\n',
     "shapes: missing; give a list such as [{ L = 4, E = 8, heads = 2 }]"),
    ('kernel = "k:f"\nshapes = []\n', "shapes: expected a non-empty list, got []"),
    ('kernel = "k:f"\nshapes = [{ L = 3, E = 4 }]\n',
     "shapes[0]: expected { L = ..., E = ..., heads = ... }, got {'L': 3, 'E': 4}"),
    ('kernel = "k:f"\nshapes = [{ L = 3, E = 4, heads = 2 }, { L = 0, E = 4, heads = 2 }]\n',
     "shapes[1].L: expected a whole number from 1 to 65,536, got 0"),
    ('kernel = "k:f"\nshapes = [{ L = 3, E = 4.0, heads = 2 }]\n',
     "shapes[0].E: expected a whole number from 1 to 65,536, got 4.0"),
    ('kernel = "k:f"\nshapes = [{ L = 3, E = 6, heads = 4 }]\n',
     "shapes[0]: E 6 is not a multiple of heads 4"),
    ('kernel = "k:f"\nshapes = [{ L = 3, E = 4, heads = 2 }, { heads = 2, E = 4, L = 3 }]\n',
     "shapes[1]: the same as shapes[0]"),
    ('kernel = "k:f"\nshapes = [{ L = 3, E = 4, heads = 2 }]\ndtypes = ["float32", "half"]\n',
     "dtypes[1]: expected one of float16, bfloat16, float32, float64, got 'half'"),
    ('kernel = "k:f"\nshapes = [{ L = 3, E = 4, heads = 2 }]\nmasks = ["causal", "causal"]\n',
     "masks[1]: the same as masks[0]"),
    ('kernel = "k:f"\nshapes = [{ L = 3, E = 4, heads = 2 }]\nseeds = [1, -1]\n',
     "seeds[1]: expected a whole number from 0 to 9,223,372,036,854,775,807, got -1"),
    ('kernel = "k:f"\nshapes = [{ L = 3, E = 4, heads = 2 }]\nseeds = [true]\n',
     "seeds[0]: expected a whole number from 0 to 9,223,372,036,854,775,807, got True"),
    ('kernel = "k:f"\nshapes = [{ L = 1, E = 4, heads = 2 }]\nmasks = ["padding"]\n',
     "masks: padding blocks the last key, and shapes[0] has L 1: no key would be left"),
    ('kernel = "k:f"\nshapes = [{ L = 3, E = 4, heads = 2 }]\nfloat64 = "yes"\n',
     "float64: expected true or false, got 'yes'"),
    ('kernel = 3\nshapes = [{ L = 3, E = 4, heads = 2 }]\n',
     'kernel: expected the name of a kernel ("scaled_dot_product_attention", '
     '"MultiheadAttention" or "package.module:function"), got 3'),
    ('shapes = [{ L = 3, E = 4, heads = 2 }]\n',
     'kernel: missing; give "scaled_dot_product_attention", "MultiheadAttention" or '
     '"package.module:function"'),
    ('kernel = "k:f"\nshapes = [{ L = 3, E = 4, heads = 2 }]\nseeds = [',
     "invalid TOML: Invalid value (at end of document)"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), BAD)
def test_a_bad_sweep_file_is_one_line_naming_the_file_and_field(
    tmp_path, capsys, text, message
) -> None:
    path = _file(tmp_path, text)
    assert main(["verify", "--sweep", path]) == 2
    assert capsys.readouterr() == ("", f"mha-symbolic: {path}: {message}\n")


def test_too_many_configurations_are_refused_before_any_work() -> None:
    seeds = list(range(1001))
    shapes = [{"L": n, "E": 2, "heads": 1} for n in range(1, 101)]
    with pytest.raises(SpecError) as raised:
        grid({"shapes": shapes, "seeds": seeds})
    assert str(raised.value) == (
        "configs: shapes x dtypes x masks x seeds make 100,100 configurations; at most "
        "100,000 run in one sweep"
    )


def test_a_missing_file_and_a_missing_flag(tmp_path, capsys) -> None:
    missing = str(tmp_path / "none.toml")
    assert main(["verify", "--sweep", missing]) == 2
    assert capsys.readouterr().err == f"mha-symbolic: {missing}: no such file\n"
    with pytest.raises(SystemExit) as raised:
        main(["verify"])
    assert raised.value.code == 2
    assert capsys.readouterr().err == (
        "mha-symbolic verify: the following arguments are required: --sweep (see "
        "mha-symbolic verify --help)\n"
    )


def _torch():  # type: ignore[no-untyped-def]
    return pytest.importorskip("torch", reason="sweep kernels are torch's; torch is not installed")


@pytest.mark.parametrize(
    ("kernel", "masks", "message"),
    [
        ('"scaled_dot_product_attention"', '["none", "causal"]',
         "masks: causal goes with the MultiheadAttention kernel; scaled_dot_product_attention "
         "is called as f(query, key, value), without a mask"),
        ('"attention"', '["none"]',
         "kernel: 'attention' names no kernel (give \"scaled_dot_product_attention\", "
         '"MultiheadAttention" or "package.module:function")'),
        ('"no_such_package_here:f"', '["none"]',
         "kernel: cannot import no_such_package_here (No module named "
         "'no_such_package_here')"),
        ('"torch.nn.functional:no_such_kernel"', '["none"]',
         "kernel: torch.nn.functional has no no_such_kernel"),
        ('"torch:float32"', '["none"]', "kernel: torch:float32 is not callable"),
    ],
)  # fmt: skip
def test_a_kernel_that_does_not_fit_is_named_with_the_file(
    tmp_path, capsys, kernel, masks, message
) -> None:
    _torch()
    pytest.importorskip("distributed", reason="verify --sweep runs on Dask; it is not installed")
    shapes = "[{ L = 3, E = 4, heads = 2 }]"
    path = _file(tmp_path, f"kernel = {kernel}\nshapes = {shapes}\nmasks = {masks}\n")
    assert main(["verify", "--sweep", path]) == 2
    assert capsys.readouterr() == ("", f"mha-symbolic: {path}: {message}\n")


@pytest.fixture
def no_dask(monkeypatch):
    """Dask as Python sees it when it is not installed (None in sys.modules: ImportError)."""
    for name in [n for n in sys.modules if n.split(".")[0] in ("dask", "distributed")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "distributed", None)


def test_without_dask_the_command_says_what_to_install(no_dask, tmp_path, capsys) -> None:
    assert main(["verify", "--sweep", _file(tmp_path, GOOD)]) == 2
    assert capsys.readouterr() == (
        "",
        "mha-symbolic: verify sweeps run on Dask, which is not installed: pip install "
        '"mha-symbolic[cluster]"\n',
    )


def test_without_dask_the_function_says_what_to_install(no_dask) -> None:
    from mha_symbolic import sweep

    with pytest.raises(ImportError) as raised:
        sweep("scaled_dot_product_attention", {"shapes": [{"L": 2, "E": 2, "heads": 1}]})
    assert type(raised.value) is ImportError
    assert str(raised.value) == (
        'verify sweeps run on Dask, which is not installed: pip install "mha-symbolic[cluster]"'
    )


def test_workers_are_the_local_clusters(tmp_path, capsys) -> None:
    path = _file(tmp_path, GOOD)
    args = ["verify", "--sweep", path, "--scheduler", "tcp://127.0.0.1:8786", "--workers", "3"]
    assert main(args) == 2
    assert capsys.readouterr().err == (
        "mha-symbolic: --workers is the LocalCluster's; an existing cluster has its own\n"
    )


def test_without_torch_a_built_in_kernel_says_what_to_install(tmp_path, capsys, monkeypatch):
    pytest.importorskip("distributed", reason="verify --sweep runs on Dask; it is not installed")
    for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "torch", None)
    path = _file(tmp_path, GOOD)
    assert main(["verify", "--sweep", path]) == 2
    assert capsys.readouterr().err == (
        f"mha-symbolic: {path}: kernel: scaled_dot_product_attention needs torch, which is not "
        'installed: pip install "mha-symbolic[torch]"\n'
    )


@pytest.mark.parametrize(
    ("configs", "message"),
    [
        ([Config(2, 6, 4)], "configs[0]: E 6 is not a multiple of heads 4"),
        ([Config(2, 4, 2, dtype="half")],
         "configs[0].dtype: expected one of float16, bfloat16, float32, float64, got 'half'"),
        ([Config(2, 4, 2, seed=-3)],
         "configs[0].seed: expected a whole number from 0 to 9,223,372,036,854,775,807, got -3"),
        ([Config(2, 4, 2), Config(3, 4, 2), Config(2, 4, 2)], "configs[2]: the same as configs[0]"),
        ([(2, 4, 2)], "configs[0]: expected a Config, got (2, 4, 2)"),
        ([], "configs: no configuration to run"),
    ],
)  # fmt: skip
def test_configurations_given_one_by_one_are_checked_as_a_files(configs, message) -> None:
    pytest.importorskip("distributed", reason="sweep runs on Dask; it is not installed")
    from mha_symbolic import sweep

    with pytest.raises(SpecError) as raised:
        sweep(lambda q, k, v: q, configs)
    assert str(raised.value) == message


def test_a_local_cluster_needs_a_worker() -> None:
    pytest.importorskip("distributed", reason="sweep runs on Dask; it is not installed")
    from mha_symbolic import sweep

    with pytest.raises(SpecError) as raised:
        sweep(lambda q, k, v: q, [Config(2, 2, 1)], workers=0)
    assert str(raised.value) == "workers: expected a whole number of processes from 1, got 0"
