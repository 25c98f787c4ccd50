"""Scores a program printed in e-notation (3.0004e+01 beside 8.9624e-01) are known to each
entry's own last digit: a softmax the page computed from the unrounded scores holds within
the printed precision, never called wrong for their rounding; a slip in it is still found."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main

SCORES = """[[3.0004e+01, 8.9624e-01, -8.2241e-01, -2.6718e+00],
 [-1.3640e+00, 2.7025e+01, 1.8043e-01, 4.0206e+00],
 [-1.4766e+00, -1.8614e+00, 3.1470e+01, 1.0707e+00],
 [3.1624e-01, -2.7914e+00, -8.7755e-02, 3.2086e+01]]"""
# softmax of the unrounded scores (the diagonal 30 above the rest), printed as torch prints
WEIGHTS = """[[1.0000e+00, 2.2845e-13, 4.0963e-14, 6.4450e-15],
 [4.6858e-13, 1.0000e+00, 2.1955e-12, 1.0217e-10],
 [4.9167e-15, 3.3462e-15, 1.0000e+00, 6.2797e-14],
 [1.5944e-14, 7.1281e-16, 1.0645e-14, 1.0000e+00]]"""
PAGE = """# Scores of a long run

```
print(scores)
```

```
{scores}
```

```
weights = torch.softmax(scores, dim=-1)
print(weights)
```

```
{weights}
```
"""


def _check(tmp_path: Path, weights: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "page.md"
    path.write_text(PAGE.format(scores=SCORES, weights=weights))
    code = main(["check", str(path)])
    return code, capsys.readouterr().out


def test_tiny_weights_from_rounded_scores_hold_within_the_printed_precision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _check(tmp_path, WEIGHTS, capsys)
    assert code == 0
    assert out.splitlines()[-1].endswith(
        "page.md: 1 claim: 1 holds (0 exact, 0 rounded, 1 within the printed precision)"
    )


def test_a_slip_in_a_tiny_weight_is_still_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _check(tmp_path, WEIGHTS.replace("2.2845e-13", "4.5690e-13"), capsys)
    assert code == 1
    assert "(1, 2)   claimed 4.5690e-13, exact 0.0000000000002283813: wrong" in out


def test_a_trailing_zero_the_spec_lost_is_known_to_the_arrays_digits() -> None:
    """A given stage's entry known to its own last digit only where the array shows that
    many significant digits: 0.4000 beside 0.1921 is 0.4 in the spec, known to 0.0001 (not
    0.1); 3.1348e+01 beside 8.7807e-01 is known to 0.001, 3.1300e+01 (31.3) to 0.001 too."""
    import sympy as sp

    from mha_symbolic.check.precision import _digits, _own_unit

    fixed = sp.Matrix([[sp.Rational("0.1921"), sp.Rational("0.4")]])
    assert _digits(fixed) == 4
    assert _own_unit(sp.Rational("0.4"), sp.Rational(1, 10**4), 4) == sp.Rational(1, 10**4)
    e_notation = sp.Matrix([[sp.Rational("31.348"), sp.Rational("0.87807"), sp.Rational("31.3")]])
    digits = _digits(e_notation)
    assert digits == 5
    unit = sp.Rational(1, 10**5)
    assert _own_unit(sp.Rational("31.348"), unit, digits) == sp.Rational(1, 1000)
    assert _own_unit(sp.Rational("31.3"), unit, digits) == sp.Rational(1, 1000)
    assert _own_unit(sp.Rational("0.87807"), unit, digits) == unit
    assert _own_unit(sp.Integer(31), unit, digits) == unit  # an integer: the array's unit
