"""floats = "binary": every binary float read as its exact value (float.as_integer_ratio())."""

from __future__ import annotations

from fractions import Fraction

import numpy
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, SpecError


def test_decimal_is_the_default_and_binary_is_exact() -> None:
    assert AttentionSpec(x=[[0.1]]).query[0, 0] == sp.Rational(1, 10)
    spec = AttentionSpec(x=[[0.1, 2.5]], floats="binary")
    assert spec.floats == "binary"
    assert spec.query[0, 0] == sp.Rational(*(0.1).as_integer_ratio())
    assert spec.query[0, 1] == sp.Rational(5, 2)  # a float that is a short decimal stays it


def test_text_stays_decimal_and_numpy_float32_is_its_own_value() -> None:
    spec = AttentionSpec(x=[["0.1", numpy.float32(0.1)]], floats="binary")
    assert spec.query[0, 0] == sp.Rational(1, 10)  # text is what was written
    assert spec.query[0, 1] == sp.Rational(13421773, 134217728)  # float32 0.1 exactly
    assert Fraction(13421773, 134217728) == Fraction(float(numpy.float32(0.1)))


def test_weights_and_toml(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "spec.toml"
    path.write_text('floats = "binary"\nx = [[0.1, 0.2]]\n[weights]\nw_q = [[0.3, 0], [0, 1]]\n')
    spec = AttentionSpec.from_toml(path)
    assert spec.query[0, 1] == sp.Rational(*(0.2).as_integer_ratio())
    assert spec.weights["w_q"][0][0, 0] == sp.Rational(*(0.3).as_integer_ratio())


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(SpecError) as error:
        AttentionSpec(x=[[1]], floats="bin")
    assert str(error.value) == (
        "<arguments>: unknown floats 'bin' (did you mean 'binary'?); choose one of decimal, binary"
    )


def test_from_torch_binary_reads_the_floats_the_module_holds() -> None:
    torch = pytest.importorskip("torch", reason="from_torch reads a torch module")
    torch.manual_seed(0)
    module = torch.nn.MultiheadAttention(4, 2).eval()
    x = torch.tensor([[0.1, 0.2, 0.3, 0.4], [0.5, 0.25, 1.0, 2.0]])
    spec = AttentionSpec.from_torch(module, x, floats="binary")
    assert spec.floats == "binary"
    assert spec.query[0, 0] == sp.Rational(13421773, 134217728)
    weight = module.in_proj_weight.detach()
    assert spec.weights["w_q"][0][1, 2] == sp.Rational(*float(weight[1, 2]).as_integer_ratio())
    with pytest.raises(SpecError, match="floats must be 'decimal' or 'binary', got 'bin'"):
        AttentionSpec.from_torch(module, x, floats="bin")


def test_a_toml_float_beyond_binary64_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "spec.toml"
    path.write_text('floats = "binary"\nx = [[1e400]]\n')
    with pytest.raises(SpecError) as error:
        AttentionSpec.from_toml(path)
    assert str(error.value) == f"{path}: x[1,1]: 1E+400 is beyond the range of a binary float"
