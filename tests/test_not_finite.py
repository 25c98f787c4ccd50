"""Anything that is not a finite real number is refused with one line, wherever a number is
read: a spec's values, a claim, the command line (``\\log_{0}(5)`` was read as 0 and held)."""

from __future__ import annotations

import pytest

from mha_symbolic import AttentionSpec, check, derive
from mha_symbolic.cli import main
from mha_symbolic.errors import SpecError

# (text, what follows "<where>" in the message)
ROWS = [
    ("\\log_{0}(5)", ' = "\\log_{0}(5)": the base of \\log must be positive, not 0'),
    ("\\log_{-2}(4)", ' = "\\log_{-2}(4)": the base of \\log must be positive, not -2'),
    ("\\log_{1}(2)", ' = "\\log_{1}(2)": \\log_{1} divides by zero (log 1 = 0)'),
    ("0^{-1}", ': "0^{-1}" is not a finite number'),
    ("\\frac{1}{0}", ': "\\frac{1}{0}" divides by zero'),
    ("\\infty", ': "\\infty" is not a finite number'),
    ("\\frac{1}{\\infty}", ': "\\frac{1}{\\infty}" is not a finite number'),
    ("0 \\cdot \\infty", ': "0 \\cdot \\infty" is not a finite number'),
    ("\\sqrt{-1}", ': "\\sqrt{-1}" is not a real number'),
    ("(\\sqrt{-1})^{2}", ': "(\\sqrt{-1})^{2}" is not a real number'),
    ("\\ln(-1)", ': "\\ln(-1)" is not a real number'),
    ("\\ln(0)", ': "\\ln(0)" is not a finite number'),
    ("\\frac{1}{\\ln(0)}", ': "\\frac{1}{\\ln(0)}" is not a finite number'),
    (
        "zoo",
        ': cannot read "zoo" as a number '
        "('zoo' is not read; complex infinity is not a finite number)",
    ),
    ("oo", ": cannot read \"oo\" as a number ('oo' is not read; infinity is not a finite number)"),
    ("nan", ": cannot read \"nan\" as a number ('nan' is not read; NaN is not a number)"),
    ("NaN", ": cannot read \"NaN\" as a number ('NaN' is not read; NaN is not a number)"),
    (
        "Inf",
        ": cannot read \"Inf\" as a number ('Inf' is not read; infinity is not a finite number)",
    ),
]


@pytest.mark.parametrize(("text", "message"), ROWS)
def test_a_spec_value_that_is_not_a_finite_real_number_is_refused(text, message):
    with pytest.raises(SpecError) as raised:
        AttentionSpec(x=[[text, 0], [0, 1]], heads=1)
    assert str(raised.value) == "<arguments>: x[1,1]" + message


@pytest.fixture(scope="module")
def two_tokens():
    return derive(AttentionSpec.example("two-tokens"))


@pytest.mark.parametrize(("text", "message"), ROWS)
def test_a_claim_that_is_not_a_finite_real_number_is_refused_not_judged(two_tokens, text, message):
    with pytest.raises(SpecError) as raised:
        check(two_tokens, {"head1.weights[1,1]": text})
    assert str(raised.value) == "claim 'head1.weights[1,1]'" + message


@pytest.mark.parametrize(("text", "message"), ROWS[:3])
def test_the_command_line_refuses_it_with_exit_code_2(capsys, text, message):
    argv = ["check", "--example", "two-tokens", "--claim", f"head1.weights[1,1]={text}"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"mha-symbolic: claim 'head1.weights[1,1]'{message}\n"
