"""A document's own arithmetic (check/arithmetic.py): a chain of plain arithmetic on printed
numbers is worked out exactly, and a printed value its working cannot give is a finding with
the right value; rounded numbers (two decimals or more) may stand for what they round from."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mha_symbolic.check.arithmetic import evaluate, shown, wrong_chains
from mha_symbolic.cli import main

_NUMBERS = st.one_of(
    st.integers(0, 99).map(lambda n: (str(n), Fraction(n))),
    st.integers(0, 99).map(lambda n: (f"{n / 10:.1f}", Fraction(n, 10))),
)


@st.composite
def _expressions(draw: st.DrawFn, depth: int = 3) -> tuple[str, Fraction]:
    """An expression as printed and its value, computed here with Fractions."""
    if depth == 0 or draw(st.booleans()):
        return draw(_NUMBERS)
    (left, a), (right, b) = draw(_expressions(depth - 1)), draw(_expressions(depth - 1))
    operator = draw(st.sampled_from(["+", "-", "×", "·", "*", "/", "\\times"]))
    if operator == "/" and b == 0:
        operator = "+"
    value = {"+": a + b, "-": a - b, "/": a / b if b else a + b}.get(operator, a * b)
    return f"({left} {operator} {right})", value


class _Span:
    """An interval of Fractions, worked out here apart from check/arithmetic.py's."""

    def __init__(self, low: Fraction, high: Fraction) -> None:
        self.low, self.high = low, high

    def __add__(self, other: _Span) -> _Span:
        return _Span(self.low + other.low, self.high + other.high)

    def __sub__(self, other: _Span) -> _Span:
        return _Span(self.low - other.high, self.high - other.low)

    def __mul__(self, other: _Span) -> _Span:
        ends = [a * b for a in (self.low, self.high) for b in (other.low, other.high)]
        return _Span(min(ends), max(ends))

    def __truediv__(self, other: _Span) -> _Span:
        if other.low <= 0 <= other.high:
            raise ZeroDivisionError
        return self * _Span(1 / other.high, 1 / other.low)


def _may_divide_by_zero(text: str) -> bool:
    """Whether a divisor, its numbers of one decimal read as what they round from (as in a
    chain with a quotient), may be 0: then nothing bounds the value."""

    def number(found: re.Match[str]) -> str:
        half = "Fraction(1, 20)" if "." in found.group() else "0"
        return f"_Span(Fraction('{found.group()}') - {half}, Fraction('{found.group()}') + {half})"

    plain = re.sub(r"\\times|×|·", "*", text)
    try:
        eval(re.sub(r"\d+(?:\.\d+)?", number, plain), {"_Span": _Span, "Fraction": Fraction})
    except ZeroDivisionError:
        return True
    return False


@settings(max_examples=200, deadline=None)
@given(_expressions())
@example(("(((0 + 0) + (0 + 0)) / ((0 + 0) + (0.0 + 0.1)))", Fraction(0)))  # found by CI
def test_plain_arithmetic_is_worked_out_exactly(expression: tuple[str, Fraction]) -> None:
    """Exactly, with an interval around the value; nothing when a quotient's divisor may be 0
    within the rounding of its numbers (``0 / (0.0 + 0.1)``: the divisor may be 0.0)."""
    text, value = expression
    judged = evaluate(f"{text} + 0")  # two numbers or more: a chain
    if "/" in text and _may_divide_by_zero(text):
        assert judged is None
        return
    assert judged is not None and judged[0] == value
    low, high = judged[1]
    if "/" not in text:  # numbers of one decimal or none are as typed in sums and products
        assert low == high == value
    else:  # in a quotient a number of one decimal may be rounded: an interval around it
        assert low <= value <= high


def _typed(text: str) -> bool:
    """Whether a number of exactly one decimal is in the expression."""
    return any(len(n.partition(".")[2]) == 1 for n in re.findall(r"\d+\.\d+", text))


@settings(max_examples=200, deadline=None)
@given(_expressions())
def test_a_right_chain_is_no_finding_and_a_value_well_off_is(
    expression: tuple[str, Fraction],
) -> None:
    """Off by a unit of the last digit is a finding unless a number of one decimal is there
    (it may be a rounded one); off by three units always is, but in a quotient of such."""
    text, value = expression
    right = shown(value, 4).removeprefix("≈ ")
    decimals = len(right.partition(".")[2])
    assert wrong_chains([f"{text} + 0 = {right}"]) == []
    unit = Fraction(1, 10**decimals)
    one_off = f"{text} + 0 = {float(Fraction(right) + unit):.{decimals}f}"
    found = [(n, exact) for n, _, _, exact in wrong_chains([one_off])]
    assert found == ([] if _typed(text) else [(1, value)])
    if not ("/" in text and _typed(text)):  # a quotient of rounded numbers may be far off
        three_off = f"{text} + 0 = {float(Fraction(right) + 3 * unit):.{decimals}f}"
        assert [(n, exact) for n, _, _, exact in wrong_chains([three_off])] == [(1, value)]


def test_rounded_numbers_stand_for_what_they_round_from() -> None:
    lines = [
        "1 / 1.414 = 0.707",  # 1/√2 with √2 rounded
        "e^0.5 / (1 + e^0.5) = 1.6487 / 2.6487 = 0.6225",
        "0.5000 * 1.9269 = 0.9635",
        "0.33 × 3 = 1",
        "x = 2^10 = 1024",
        "e / (1 + e) = 2.7 / 3.7 = 0.731",  # e rounded to one decimal in a quotient
        "2.7 × 0.3 = 0.82",  # one unit off with a number of one decimal: may be rounded
    ]
    assert wrong_chains(lines) == []


def test_wrong_chains_say_where_what_and_the_exact_value() -> None:
    lines = [
        "Dot Product (sitting, The)=0.3×0.1+0.4×0.3+0.1×0.6=0.13",
        "scores: $0.5 \\times 3 = 1.2$",
        "2 + 2 = 5.",
    ]
    found = wrong_chains(lines)
    assert [(n, w, c, shown(e, 2)) for n, w, c, e in found] == [
        (1, "0.3×0.1+0.4×0.3+0.1×0.6", "0.13", "0.21"),
        (2, "0.5 \\times 3", "1.2", "1.5"),
        (3, "2 + 2", "5.", "4"),
    ]


def test_lists_worked_entry_by_entry() -> None:
    lines = [
        "study: [0,2] · Wv = [0×1+2×0, 0×0+2×1] = [0+0, 0+2] = [2, 2] → actually",
        "0.4×[0.3,0.2,0.8] = [0.12, 0.08, 0.32]",  # right: no finding
        "0.5 * [2, 6, 3] = [1.0, 3.0, 1.9]",
        "$[1*1 + 2*0 + 1*1 + 0*0,\\; 1*0 + 2*1 + 1*0 + 0*1] = [2,\\;3]$",
    ]
    found = [(n, w, c, shown(e, 2)) for n, w, c, e in wrong_chains(lines)]
    assert found == [
        (1, "0+0", "2", "0"),
        (3, "0.5 × 3", "1.9", "1.5"),
        (4, "1*0 + 2*1 + 1*0 + 0*1", "3", "2"),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "0.73 × [1, 0] + 0.27 × [0, 1] = [0.7, 0.27]",  # a sum of scaled lists
        "softmax([1+1, 2]) = [0.27, 0.73]",  # a function of a list
        "[1+1, 2] = [2, 2] + [1, 1]",  # the value is one term of a sum
        "[1, 2] = [1, 3]",  # no working in the entries
        "(1, 3) × (3, 2) = 4",  # shapes
        "softmax(0.13/3) = 0.9",  # a function
        "√2 = 1.5",  # a root
        "d_k = 64",  # no working
        "e^1 = 3",  # a name
        "the sum 2 + 3 = 6",  # words in the step
        "1 / 0 = 7",  # no value at all
        "(" * 5000 + "1 + 2" + ")" * 5000 + " = 4",  # deeper than a parser should go
    ],
)
def test_what_is_not_plain_arithmetic_is_left_alone(line: str) -> None:
    assert wrong_chains([line]) == []


def test_a_long_line_of_many_values_is_read_once() -> None:
    """No step is searched for further back than a step can be: a 2 MB line is linear."""
    assert wrong_chains(["= 1, " * 400_000, "1+" * 1_000_000 + "1 = 7"]) == []


_PAGE = """# Attention by hand

"The": Query = [0.2, 0.5, 0.1], Key = [0.1, 0.3, 0.6], Value = [0.3, 0.2, 0.8]

"dog": Query = [0.4, 0.6, 0.2], Key = [0.2, 0.4, 0.7], Value = [0.5, 0.3, 0.9]

Dot Product (dog, The)=0.4×0.1+0.6×0.3+0.2×0.6=0.34
Dot Product (dog, dog)=0.4×0.2+0.6×0.4+0.2×0.7=0.64
"""


def test_check_reports_the_pages_arithmetic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No worked example of attention to map, yet the page's wrong sum is found (exit 1)."""
    path = tmp_path / "page.md"
    path.write_text(_PAGE, encoding="utf-8")
    code = main(["check", str(path)])
    out = capsys.readouterr().out
    assert code == 1
    assert out == "finding: line 8: 0.4×0.2+0.6×0.4+0.2×0.7 is 0.46, the document has 0.64\n"
    path.write_text(_PAGE.replace("=0.64", "=0.46"), encoding="utf-8")
    assert main(["check", str(path)]) == 2  # nothing left to check
    assert "finding" not in capsys.readouterr().out


def test_the_findings_of_a_page_with_nothing_else_are_its_json_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--format json`` keeps stdout one JSON document: the findings, each with its line, the
    value printed and the value its working gives (the lines themselves go to stderr)."""
    path = tmp_path / "page.md"
    path.write_text(_PAGE, encoding="utf-8")
    assert main(["check", str(path), "--format", "json"]) == 1
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert document["claims"] == []
    (finding,) = document["findings"]
    assert (finding["line"], finding["claimed"], finding["exact"]) == (8, "0.64", "0.46")
    assert finding["text"].startswith("finding: line 8: ")
    assert "finding: line 8" in captured.err
