"""Binary float arrays read at model scale (spec/binary_arrays.py): the same exact values as
reading every float by ``float.as_integer_ratio``, whatever the exponents."""

from __future__ import annotations

import pickle
from fractions import Fraction
from typing import Any

import flint
import numpy as np
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.errors import SpecError
from mha_symbolic.spec import exact_numbers
from mha_symbolic.spec.binary_arrays import BinaryMatrix, flint_of, fraction_matrix

SMALLEST = 5e-324  # the smallest subnormal float64
LARGEST = 1.7976931348623157e308


def _entry_by_entry(values: Any) -> sp.ImmutableMatrix:
    """What reading each float on its own gives: its exact ratio, a SymPy Rational."""
    rows = [[sp.Rational(*float(v).as_integer_ratio()) for v in row] for row in values]
    return sp.ImmutableMatrix(rows)


def _fmpq_entry_by_entry(values: Any) -> flint.fmpq_mat:
    rows, cols = values.shape
    flat = [flint.fmpq(*float(v).as_integer_ratio()) for v in np.ravel(values)]
    return flint.fmpq_mat(rows, cols, flat)


def _special() -> np.ndarray:
    rng = np.random.default_rng(5)
    values = rng.standard_normal((40, 30))
    values[0, :6] = [SMALLEST, -SMALLEST, 2.2250738585072014e-308, -1e-310, LARGEST, -LARGEST]
    values[1, :4] = [-0.0, 0.0, 1e300, -3e-300]
    values[2, :3] = [2.0**-1074 * 3, 2.0**1000 + 2.0**948, -(2.0**-1022)]
    return values


@pytest.mark.parametrize(
    "values",
    [
        np.random.default_rng(0).standard_normal((33, 17)).astype(np.float32),  # one group
        np.random.default_rng(1).standard_normal((20, 25)) * 1e-3,  # float64: groups of binades
        _special(),  # subnormals, -0.0, the largest floats: one by one beside the groups
        np.array([[SMALLEST, LARGEST], [-0.0, 1.0]]),
        np.array([[1e-300] * 4] * 4),
        np.full((3, 2), -0.0),
        np.array([[2.0**-60, 2.0**70], [3.0, -(2.0**-20)]], dtype=np.float32),
    ],
)
def test_a_float_array_is_its_exact_binary_fractions(values: np.ndarray) -> None:
    assert fraction_matrix(values) == _fmpq_entry_by_entry(values)


def test_negative_zero_and_subnormals_read_as_sympy_reads_them() -> None:
    values = np.array([[-0.0, SMALLEST], [-1e-310, 0.5]])
    with exact_numbers.floats("binary"):
        read = exact_numbers.to_matrix(values, "w_q")
    subnormal = sp.Rational(*(-1e-310).as_integer_ratio())
    assert list(read) == [0, sp.Rational(1, 2**1074), subnormal, sp.Rational(1, 2)]
    assert subnormal < 0 and subnormal.q == 2**1074
    assert read == _entry_by_entry(values)


def test_the_matrix_equals_the_one_made_entry_by_entry() -> None:
    values = _special()
    with exact_numbers.floats("binary"):
        read = exact_numbers.to_matrix(values, "w_o")
    plain = _entry_by_entry(values)
    assert isinstance(read, BinaryMatrix)
    assert read == plain and plain == read and hash(read) == hash(plain)
    assert read.args == plain.args and read[2, 1] == plain[2, 1]
    assert read.T == plain.T and read * plain.T == plain * plain.T
    assert read.free_symbols == set() and flint_of(read) == _fmpq_entry_by_entry(values)
    assert pickle.loads(pickle.dumps(read)) == plain
    assert flint_of(plain) is None


def test_sympy_entries_are_made_only_when_read() -> None:
    with exact_numbers.floats("binary"):
        read = exact_numbers.to_matrix(np.full((300, 300), 0.25), "w_o")
    assert "_made_rep" not in read.__dict__  # nothing made yet
    assert read.shape == (300, 300) and flint_of(read)[299, 0] == flint.fmpq(1, 4)
    assert read[299, 0] == sp.Rational(1, 4)
    assert "_made_rep" in read.__dict__


def test_a_bias_vector_is_read_at_once_too() -> None:
    values = np.array([0.1, -0.0, SMALLEST, 3.0], dtype=np.float64)
    with exact_numbers.floats("binary"):
        read = exact_numbers.to_vector(values, "b_q")
    assert isinstance(read, BinaryMatrix)
    assert read == _entry_by_entry(values.reshape(1, -1))


def test_a_non_finite_bias_names_its_entry() -> None:
    values = np.array([0.5, np.inf])
    with exact_numbers.floats("binary"), pytest.raises(SpecError) as error:
        exact_numbers.to_vector(values, "b_q")
    assert str(error.value) == "b_q[2]: inf is not a finite number"


def _module(torch: Any) -> Any:
    torch.manual_seed(7)
    module = torch.nn.MultiheadAttention(8, 2, bias=True, batch_first=True).eval()
    with torch.no_grad():  # the extremes of float32, exactly as torch holds them
        module.in_proj_weight[0, :4] = torch.tensor([1e-45, -0.0, 3e38, -1.2e-38])
        module.out_proj.bias[1] = -0.0
    return module


def test_from_torch_reads_the_same_exact_values_as_entry_by_entry() -> None:
    torch = pytest.importorskip(
        "torch", reason="torch is optional: pip install 'mha-symbolic[torch]'"
    )
    module = _module(torch)
    x = torch.randn(1, 5, 8)
    spec = AttentionSpec.from_torch(module, x, floats="binary")
    in_proj = module.in_proj_weight.detach().double().numpy()
    assert spec.weights["w_q"][0] == _entry_by_entry(in_proj[:8])
    assert spec.weights["w_v"][0] == _entry_by_entry(in_proj[16:])
    assert spec.weights["w_o"][0] == _entry_by_entry(module.out_proj.weight.detach().double())
    assert spec.weights["b_o"][0] == _entry_by_entry(module.out_proj.bias.detach().double()[None])
    assert spec.query == _entry_by_entry(x[0].double().numpy())
    assert spec.weights["w_q"][0][0, 0] == sp.Rational(1, 2**149)  # float32's smallest


def test_a_layer_read_at_once_derives_the_same_output_as_its_fractions() -> None:
    torch = pytest.importorskip(
        "torch", reason="torch is optional: pip install 'mha-symbolic[torch]'"
    )
    module = _module(torch)
    with torch.no_grad():
        module.in_proj_weight[0, 2] = 0.5  # 3e38 squared is no trouble, but slow to print
    x = torch.randn(1, 3, 8)
    spec = AttentionSpec.from_torch(module, x, floats="binary")

    def fractions(tensor: Any) -> list[Any]:
        return [[Fraction(*float(v).as_integer_ratio()) for v in row] for row in tensor.tolist()]

    w = module.in_proj_weight.detach()
    weights = {
        name: fractions(w[8 * k : 8 * (k + 1)]) for k, name in enumerate(("w_q", "w_k", "w_v"))
    }
    weights["w_o"] = fractions(module.out_proj.weight.detach())
    for k, name in enumerate(("b_q", "b_k", "b_v")):
        weights[name] = fractions(module.in_proj_bias.detach()[None, 8 * k : 8 * (k + 1)])[0]
    weights["b_o"] = fractions(module.out_proj.bias.detach()[None])[0]
    plain = AttentionSpec(
        x=fractions(x[0]), heads=2, layout="fused", convention="xWT", weights=weights
    )
    assert derive(spec, large=True)["output"] == derive(plain, large=True)["output"]
