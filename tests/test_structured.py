"""The structured exact form (rational FLINT matrices, softmax rows over one denominator)
against the SymPy values: rational steps equal entry for entry, every other step's enclosure
(made from the structure) contains the SymPy value computed by mpmath at 60 digits."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import flint
import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mha_symbolic import AttentionSpec, SpecError, derive
from mha_symbolic.exact import structured_values as st_values
from mha_symbolic.exact.backward import backward
from mha_symbolic.exact.enclose import enclose
from mha_symbolic.exact.evaluate import walk
from mha_symbolic.model.program import build
from mha_symbolic.spec import exact_numbers
from tests.mp_value import mp_value
from tests.test_exercises import MASKED_CROSS  # 2 queries, 3 keys, a mask, a value bias

STRUCTURED = ["one-token", "pytorch-style", "rope", "split-scaled", "two-tokens"]
UNSTRUCTURED = ["eight-tokens-split", "temperature"]  # symbols, a parameter


def _ball(value: sp.Expr) -> flint.arb:
    """The value by mpmath at 150 digits, as a ball of radius 1e-75. Not 80: a gradient's
    formula sums terms near e^700 that cancel to thousands, and at 80 digits the value came out
    2.8e-75 off (beyond its radius) in one order of terms that Python's hash seed picks."""
    with mpmath.workdps(150):
        number = mp_value(value)
        text = mpmath.nstr(number, 120, strip_zeros=False)
    old = flint.ctx.prec
    flint.ctx.prec = 400
    try:
        return flint.arb(text, "1e-75")
    finally:
        flint.ctx.prec = old


def _agrees(d: Any, gradients: bool = False) -> None:
    """Each step's structured form against its SymPy value (made by the ordinary evaluator)."""
    old = walk(build(d.spec))
    old = backward(old) if gradients else old
    for step in old.steps:
        form, value = d.structured[step.key], step.value
        assert d[step.key] == value, step.key  # the values made on demand are today's
        entries = d.step(step.key).entries  # made one by one from the structure (rows.py)
        assert entries.shape == value.shape, step.key
        assert [entries[i, j] for i in range(value.rows) for j in range(value.cols)] == list(
            value
        ), step.key
        if isinstance(form, flint.fmpq_mat):
            assert (form.nrows(), form.ncols()) == value.shape, step.key
            exact = [sp.Rational(int(e.p), int(e.q)) for e in form.entries()]
            assert exact == list(value), step.key
        elif -sp.oo not in set(value):
            balls = enclose(d, step.key, 40)
            for i in range(value.rows):
                for j in range(value.cols):
                    assert balls[i][j].overlaps(_ball(value[i, j])), (step.key, i, j)


@pytest.mark.parametrize("name", STRUCTURED)
def test_examples_structure_equals_sympy_values(name: str) -> None:
    d = derive(AttentionSpec.example(name))
    assert d.structured is not None
    _agrees(d)


def test_cross_attention_structure_has_a_row_per_query() -> None:
    """Fewer queries than keys (and a mask, a value bias): the mix of heads has the queries'
    rows, its entries and enclosures agree with the SymPy values."""
    d = derive(AttentionSpec.from_dict(MASKED_CROSS))
    assert d.structured is not None and d.step("output").entries.shape == (2, 2)
    _agrees(d)


@pytest.mark.parametrize("name", UNSTRUCTURED)
def test_symbols_and_parameters_stay_sympy(name: str) -> None:
    d = derive(AttentionSpec.example(name))
    assert d.structured is None
    assert d["output"] == walk(build(d.spec))["output"]


def _matrices(rows: int, cols: int) -> st.SearchStrategy[list[list[Fraction]]]:
    entry = st.builds(Fraction, st.integers(-6, 6), st.sampled_from([1, 2, 3, 4]))
    return st.lists(st.lists(entry, min_size=cols, max_size=cols), min_size=rows, max_size=rows)


@st.composite
def specs(draw: Any) -> dict[str, Any]:
    heads = draw(st.sampled_from([1, 2]))
    layout = draw(st.sampled_from(["per_head", "split", "fused"]))
    convention = draw(st.sampled_from(["xW", "xWT"]))
    length, width = draw(st.integers(1, 3)), 2 * heads
    d_in = width // heads if layout == "split" else width
    d_out = width if layout == "fused" else draw(st.sampled_from([1, 2]))
    shape = (d_out, d_in) if convention == "xWT" else (d_in, d_out)

    def weight() -> Any:
        one = draw(_matrices(*shape))
        return one if layout == "fused" else [draw(_matrices(*shape)) for _ in range(heads)]

    weights = {name: weight() for name in ("w_q", "w_k", "w_v")}
    if draw(st.booleans()):
        total = d_out * (1 if layout == "fused" else heads)
        weights["w_o"] = draw(_matrices(*(width, total) if convention == "xWT" else (total, width)))
        if draw(st.booleans()):
            weights["b_o"] = draw(_matrices(1, width))[0]
    if layout == "fused" and draw(st.booleans()):
        weights["b_q"] = draw(_matrices(1, d_out))[0]
    raw: dict[str, Any] = {
        "heads": heads,
        "layout": layout,
        "convention": convention,
        "weights": weights,
        "scale": draw(st.sampled_from(["sqrt_dk", "none"])),
        "mask": draw(st.sampled_from(["none", "causal"])),
    }
    raw["x"] = draw(_matrices(length, width))
    return raw


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs())
def test_random_specs_structure_equals_sympy_values(raw: dict[str, Any]) -> None:
    try:
        spec = AttentionSpec.from_dict(raw)
    except SpecError:  # a drawn combination the spec refuses (its own tests cover those)
        return
    d = derive(spec)
    assert d.structured is not None
    _agrees(d)


@pytest.mark.parametrize("name", STRUCTURED)
def test_examples_gradients_are_formulas_over_the_structure(name: str) -> None:
    d = derive(AttentionSpec.example(name), gradients=True)
    assert d.structured is not None and "grad.head1.q" in d.structured
    _agrees(d, gradients=True)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs(), st.sampled_from(["sum", "mse"]), st.data())
def test_random_specs_gradients_agree(raw: dict[str, Any], kind: str, data: Any) -> None:
    try:
        spec = AttentionSpec.from_dict(raw)
    except SpecError:
        return
    if kind == "mse":
        rows, cols = derive(spec).step("output").shape
        raw = {**raw, "loss": {"kind": "mse", "target": data.draw(_matrices(rows, cols))}}
        spec = AttentionSpec.from_dict(raw)
    d = derive(spec, gradients=True)
    assert d.structured is not None
    _agrees(d, gradients=True)


def test_masked_logits_are_not_enclosed_but_the_weights_are() -> None:
    spec = AttentionSpec.example("two-tokens")
    raw = {"x": [[1, 0], [0, 1]], "heads": 1, "mask": "causal"}
    d = derive(AttentionSpec.from_dict(raw))
    with pytest.raises(ValueError, match=r"^enclose: step 'head1.masked' has blocked"):
        enclose(d, "head1.masked")
    assert enclose(d, "head1.weights", 10)[0][1].is_zero()
    assert derive(spec).structured is not None


def test_binary_arrays_are_read_like_their_entries() -> None:
    rng = np.random.default_rng(0)
    array = rng.standard_normal((5, 7)).astype(np.float32)
    with exact_numbers.floats("binary"):
        fast = exact_numbers.to_matrix(array, "w_q")
        slow = exact_numbers.to_matrix([[float(v) for v in row] for row in array], "w_q")
    assert fast == slow and fast.shape == (5, 7)
    assert fast[0, 0] == sp.Rational(*float(array[0, 0]).as_integer_ratio())
    assert fast * fast.T == slow * slow.T  # SymPy's own arithmetic on the given FLINT matrix


def test_a_nan_in_an_array_names_its_entry() -> None:
    array = np.zeros((3, 4))
    array[1, 2] = np.nan
    with exact_numbers.floats("binary"), pytest.raises(SpecError) as error:
        exact_numbers.to_matrix(array, "w_q")
    assert str(error.value) == "w_q[2,3]: nan is not a finite number"


def test_arrays_may_be_model_sized_but_written_matrices_not() -> None:
    with exact_numbers.floats("binary"):
        assert exact_numbers.to_matrix(np.ones((768, 768)), "w_o").shape == (768, 768)
    with pytest.raises(SpecError) as error:
        exact_numbers.to_matrix([[1] * 600] * 600, "x")
    assert str(error.value) == (
        "x has shape (600, 600); a spec matrix has at most 4,096 rows and columns and "
        "262,144 entries"
    )
    with pytest.raises(SpecError) as error:
        exact_numbers.to_matrix(np.ones((4100, 2)), "x")
    assert str(error.value) == (
        "x has shape (4100, 2); an array has at most 4,096 rows and columns and 16,777,216 entries"
    )


def test_bench_scale_forward_rows_and_peak_memory() -> None:
    from mha_symbolic.bench import model_scale

    lines = list(model_scale.bench_forward(quick=True))
    rows = [line.split() for line in lines if re.match(r"\s*\(\d", line)]  # the shape rows
    assert [row[:3] for row in rows] == [["(16,", "16,", "4)"], ["(64,", "64,", "8)"]]
    assert all(float(row[3]) > 0 for row in rows)  # derive's median seconds
    peak = model_scale.peak_mb(lambda: bytearray(64 * 2**20))
    if peak is not None:  # Linux: /proc/self/clear_refs resets the peak in the child
        assert 60 <= peak < 200


def _fractions(matrix: Any) -> list[list[Fraction]]:
    return [[Fraction(*float(v).as_integer_ratio()) for v in row] for row in matrix]


@pytest.mark.parametrize("denominators", ["binary", "many"])
def test_scores_are_integers_times_one_factor_and_exact(denominators: str) -> None:
    """Q_h K_h^T of binary floats (a power of two over every entry) is kept as its two
    integer factors and one factor, not multiplied out; its entries, read by rows and as the
    whole product, are exactly the products of the floats' fractions; rationals of many
    unrelated denominators stay a rational matrix, as exact."""
    rng = np.random.default_rng(3)
    length, width, heads = 6, 4, 2
    if denominators == "binary":
        x = _fractions(rng.standard_normal((length, width)).astype(np.float32))
        w = _fractions(rng.standard_normal((width, width)).astype(np.float32))
    else:
        big = [int(sp.nextprime(2**40 + 10**6 * n)) for n in range(length * width)]
        x = [[Fraction(i - j, big[i * width + j]) for j in range(width)] for i in range(length)]
        w = [[Fraction(i + j + 1, 2 * j + 3) for j in range(width)] for i in range(width)]
    raw = {"x": x, "heads": heads, "layout": "fused", "convention": "xW", "mask": "causal"}
    raw["weights"] = {"w_q": w, "w_k": [row[::-1] for row in w], "w_v": w}
    with exact_numbers.floats("binary"):
        d = derive(AttentionSpec.from_dict(raw))
    scores = d.structured["head2.scores"]  # type: ignore[index]
    q = [[sum(a * b for a, b in zip(row, col)) for col in zip(*w)] for row in x]
    k = [[sum(a * b for a, b in zip(row, col)) for col in zip(*[r[::-1] for r in w])] for row in x]
    half = width // heads
    expected = [
        [sum(qi[c] * kj[c] for c in range(half, width)) for kj in k] for qi in q
    ]  # head 2: the second half of the columns
    if denominators == "binary":
        assert isinstance(scores, st_values.Logits) and scores.factor.q & (scores.factor.q - 1) == 0
        held = scores.matrix
        assert isinstance(held, st_values.Scores)  # the pair: no product made when derived
        assert isinstance(held.left, flint.fmpz_mat) and isinstance(held.right, flint.fmpz_mat)
        factor = Fraction(int(scores.factor.p), int(scores.factor.q))
        by_rows = [[held[i, j] for j in range(length)] for i in range(length)]
        assert [e for row in by_rows for e in row] == held.exact().entries()
        entries = held.exact().entries()
    else:
        assert isinstance(scores, flint.fmpq_mat)  # their lcm is long: FLINT's own product
        factor, entries = Fraction(1), scores.entries()
    made = [
        [factor * Fraction(int(e.p), int(e.q)) for e in entries[i * length : (i + 1) * length]]
        for i in range(length)
    ]
    assert made == expected
    _agrees(d)


@pytest.mark.parametrize("kind", ["causal", "given"])
def test_the_additive_mask_is_the_matrix_made_entry_by_entry(kind: str) -> None:
    """The mask leaf (0 where a 0/1 mask allows, -oo where it blocks) is made from the mask's
    representation at once: equal, with the same hash and form, to the one made entry by
    entry; the structure reads it as its pattern."""
    from mha_symbolic.exact import structured as st_walker
    from mha_symbolic.operations.mask import additive

    if kind == "causal":
        allowed = sp.ImmutableMatrix(5, 5, lambda i, j: 1 if j <= i else 0)
    else:
        allowed = sp.ImmutableMatrix([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    made = additive(allowed)
    slow = sp.ImmutableMatrix(*allowed.shape, lambda i, j: 0 if allowed[i, j] else -sp.oo)
    assert made == slow and hash(made) == hash(slow) and made._rep == slow._rep
    assert made.tolist() == slow.tolist()
    form = st_walker._leaf(made)
    assert isinstance(form, st_values.Blocked)
    assert form.allowed == tuple(tuple(bool(a) for a in row) for row in allowed.tolist())


@pytest.mark.parametrize(
    "pattern",
    [
        [[1, 0, 0], [1, 1, 0], [1, 1, 1]],  # causal: each row's blocked keys a suffix
        [[0, 1, 1], [1, 0, 1], [1, 1, 0]],  # no self-attention: not suffixes
        [[1, 1, 0], [0, 0, 0], [1, 0, 1]],  # a row with every key blocked
    ],
    ids=["causal", "not-self", "a-blocked-row"],
)
def test_a_sparse_mask_is_read_as_its_listed_entries(pattern: list[list[int]]) -> None:
    """The additive mask the program makes (SymPy holds only its -oo entries) is read from
    those entries: the same pattern as the entries listed one by one."""
    from mha_symbolic.exact import structured as walker
    from mha_symbolic.operations.mask import additive

    mask = additive(sp.Matrix(pattern))
    sparse = walker._sparse_mask(mask)
    assert sparse is not None
    listed = tuple(tuple(entry == 0 for entry in row) for row in mask.tolist())
    assert sparse.allowed == listed == tuple(tuple(bool(v) for v in row) for row in pattern)
    assert walker._leaf(mask) == sparse
    # a sparse matrix of other numbers (a finite bias) is not a mask
    from sympy.polys.domains import EXRAW
    from sympy.polys.matrices import DomainMatrix

    rows = [[sp.S.Zero, sp.Integer(-5)], [sp.S.NegativeInfinity, sp.S.Zero]]
    bias = sp.ImmutableMatrix._fromrep(DomainMatrix(rows, (2, 2), EXRAW).to_sparse())
    assert walker._sparse_mask(bias) is None
