"""Printed-precision inputs and float32 computations, decided by an independent reference.

The reference is written here: mpmath interval arithmetic at 50 digits over the intervals the
printed inputs stand for (a claim outside that enclosure must be judged wrong), and mpmath at
50 digits on the unprinted inputs (a claim that rounds from them must hold).
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from mha_symbolic import check, derive
from mha_symbolic.errors import SpecError
from mha_symbolic.spec.attention import AttentionSpec

iv = mpmath.iv


def attention(x, wq, wk, wv, exp, sqrt):  # type: ignore[no-untyped-def]
    """softmax(Q K^T / sqrt(d)) V with the given exp and sqrt, in plain loops."""
    q, k, v = (
        [[sum(r[t] * w[t][c] for t in range(len(w))) for c in range(len(w[0]))] for r in x]
        for w in (wq, wk, wv)
    )
    scale = 1 / sqrt(len(wq[0]))
    weights, output = [], []
    for qi in q:
        e = [exp(sum(a * b for a, b in zip(qi, kj)) * scale) for kj in k]
        total = sum(e[1:], e[0])
        row = [ej / total for ej in e]
        weights.append(row)
        output.append(
            [
                sum((row[j] * v[j][c] for j in range(1, len(v))), row[0] * v[0][c])
                for c in range(len(v[0]))
            ]
        )
    return weights, output


def case(seed: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    true = [rng.normal(size=shape).round(6) for shape in ((3, 2), (2, 2), (2, 2), (2, 2))]
    printed = [[[f"{v:.2f}" for v in row] for row in m] for m in true]
    return true, printed


def fixed(value, places: int = 4) -> str:  # type: ignore[no-untyped-def]
    scaled = int(mpmath.nint(value * 10**places))
    sign, digits = ("-" if scaled < 0 else ""), str(abs(scaled)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


@pytest.mark.parametrize("seed", range(6))
def test_printed_inputs_against_the_reference(seed: int) -> None:
    true, printed = case(seed)
    spec = AttentionSpec.from_dict(
        {
            "heads": 1,
            "x": printed[0],
            "weights": {"w_q": [printed[1]], "w_k": [printed[2]], "w_v": [printed[3]]},
        }
    )
    d = derive(spec)
    mpmath.mp.dps = 50
    exact_true = attention(
        *[[[mpmath.mpf(str(v)) for v in r] for r in m] for m in true],
        exp=mpmath.exp,
        sqrt=mpmath.sqrt,
    )
    iv.dps = 50
    boxes = [
        [
            [
                iv.mpf([mpmath.mpf(v) - mpmath.mpf("0.005"), mpmath.mpf(v) + mpmath.mpf("0.005")])
                for v in r
            ]
            for r in m
        ]
        for m in printed
    ]
    enclosure = attention(*boxes, exp=iv.exp, sqrt=iv.sqrt)
    claims, expected = {}, {}
    for name, true_rows, box_rows in zip(("weights", "output"), exact_true, enclosure):
        for i, (row, box_row) in enumerate(zip(true_rows, box_rows), start=1):
            for j, (value, box) in enumerate(zip(row, box_row), start=1):
                claims[f"head1.{name}[{i},{j}]"] = fixed(value)  # the notebook's own result
                expected[f"head1.{name}[{i},{j}]"] = "holds"
                # Past everything the inputs allow (the reference's rigorous enclosure),
                # by a tenth of its width: two enclosures of one box differ by a few percent.
                width = mpmath.mpf(box.b) - mpmath.mpf(box.a)
                off = mpmath.mpf(box.b) + width / 10 + mpmath.mpf("0.001")
                claims[f"head1.{name}[{i},{j}] "] = fixed(off + mpmath.mpf("0.0001"))
                expected[f"head1.{name}[{i},{j}] "] = "wrong"
    report = check(d, claims, inputs="printed")
    for claim in report.claims:
        if expected[claim.key] == "holds":
            assert claim.verdict in ("rounded", "within"), claim.key
        else:
            assert claim.verdict == "wrong", claim.key
            assert claim.diagnosis.startswith("wrong even allowing for the printed precision")
    exact_mode = check(d, {k: v for k, v in claims.items() if expected[k] == "holds"})
    assert sum(not c.holds for c in exact_mode.claims) >= 1  # inputs taken as exact: refused


def test_float32_computation_holds_as_float32() -> None:
    """A float32 softmax printed to eight digits holds when the spec says dtype float32."""
    x = [["0.31", "-1.20"], ["0.70", "0.05"], ["-0.44", "0.93"]]
    w = [["1.5", "-0.25"], ["0.75", "2.0"]]
    spec = {"heads": 1, "x": x, "weights": {"w_q": [w], "w_k": [w], "w_v": [w]}}
    xs, ws = (np.array(m, dtype=np.float32) for m in (x, w))
    q = xs @ ws
    s = (q @ q.T) / np.float32(np.sqrt(2))
    e = np.exp(s - s.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)
    claims = {"head1.weights": np.array2string(a, precision=8, floatmode="fixed")}
    strict = check(derive(AttentionSpec.from_dict(spec)), claims)
    loose = check(derive(AttentionSpec.from_dict({**spec, "dtype": "float32"})), claims)
    assert strict.claims[0].verdict == "wrong"
    assert loose.claims[0].verdict == "within"
    assert loose.summary() == (
        "<dict>: 1 claim: 1 holds (0 exact, 0 rounded, 1 within the printed precision)"
    )


def test_bad_options() -> None:
    with pytest.raises(SpecError) as error:
        AttentionSpec.from_dict({"x": [[1]], "dtype": "float23"})
    assert str(error.value) == (
        "<dict>: unknown dtype 'float23' (did you mean 'float32'?); choose one of exact, "
        "float64, float32"
    )


def test_printed_inputs_keep_what_each_leaf_is() -> None:
    """An input stood in for by its printed intervals is the same leaf otherwise: only its
    value changes. No leaf the program marks today has decimals (an identity filled in is
    integers, symbolic weights are symbols), so X is marked here by hand."""
    from dataclasses import replace

    from mha_symbolic.check.precision import Bounds

    spec = AttentionSpec.from_dict(
        {
            "x": [["0.12", "1.5"], ["0.5", "-0.25"]],
            "heads": 1,
            "weights": {"w_q": [["0.5", "1"], ["1", "0.5"]], "w_k": [["1", "0"], ["0.5", "1"]]},
            "inputs": "printed",
        }
    )
    d = derive(spec)
    leaves = d.program.leaves
    marked = [replace(leaf, kind="given") if leaf.role == "x" else leaf for leaf in leaves]
    program = Bounds(d, "printed", "exact")._printed(d.program.replace(leaves=tuple(marked)))
    fields = [(leaf.symbol, leaf.role, leaf.head, leaf.kind) for leaf in program.leaves]
    assert fields == [(leaf.symbol, leaf.role, leaf.head, leaf.kind) for leaf in marked]
    assert ("x", "given") in {(leaf.role, leaf.kind) for leaf in program.leaves}
    x = next(leaf for leaf in program.leaves if leaf.role == "x")
    assert [str(v).rstrip("0123456789") for v in x.value] == ["printed_input_"] * 4
