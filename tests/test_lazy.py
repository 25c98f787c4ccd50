"""A structured derivation shows and streams only what is asked for: rendering makes the
entries it shows, JSON is written row by row (with certified balls on request), and check
reads the entries its claims name. Each is compared with the SymPy values made whole."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import flint
import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic import AttentionSpec, SpecError, check, derive
from mha_symbolic.cli import main
from mha_symbolic.exact.rows import Entries
from mha_symbolic.solution import latex
from mha_symbolic.solution.json_out import chunks, to_json
from mha_symbolic.solution.render import render, write
from mha_symbolic.solution.svg_heatmap import ticks
from mha_symbolic.solution.view import Options
from mha_symbolic.spec import bounds
from mha_symbolic.text import decimal_text
from tests.mp_value import mp_value


def _spec(length: int = 10, width: int = 4, heads: int = 2) -> AttentionSpec:
    """A self-attention spec with rational inputs, more tokens than a solution shows."""
    entry = lambda i, j, k: str(Fraction((i * 7 + j * 3 + k) % 11 - 5, 1 + (i + j) % 3))  # noqa: E731
    x = [[entry(i, j, 0) for j in range(width)] for i in range(length)]
    w = {
        name: [[entry(i, j, k) for j in range(width)] for i in range(width)]
        for k, name in enumerate(("w_q", "w_k", "w_v", "w_o"), start=1)
    }
    raw = {"heads": heads, "layout": "fused", "x": x, "weights": w, "mask": "causal"}
    return AttentionSpec.from_dict(raw, source="lazy.toml")


@pytest.fixture
def refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every derivation counts as one whose SymPy values would take minutes."""
    monkeypatch.setattr(bounds, "LARGE_SECONDS", 1e-9)


def test_asking_whether_a_step_exists_makes_no_value(refused: None) -> None:
    d = derive(_spec())
    assert "output" in d and "nothing" not in d
    with pytest.raises(SpecError, match="pass large=True"):
        _ = d.step("output").value  # the whole matrix as one SymPy object
    with pytest.raises(SpecError, match="pass large=True"):
        list(d["output"])  # d[key] reads entries one at a time; all of them is refused


def test_an_elided_solution_makes_only_the_entries_it_shows(refused: None) -> None:
    d = derive(_spec())
    made = d.step("output").entries
    text = d.to_markdown(max_size=4)
    whole = derive(_spec(), large=True).to_markdown(max_size=4)
    assert text == whole
    assert isinstance(made, Entries)
    assert len(made._made) < made.rows * made.cols  # the hidden rows were never made


@pytest.mark.parametrize("fmt", ["tex", "html", "text"])
def test_every_format_renders_without_the_whole_values(refused: None, fmt: str) -> None:
    d = derive(AttentionSpec.example("pytorch-style"))
    whole = derive(AttentionSpec.example("pytorch-style"), large=True)
    assert render(d, fmt, Options()) == render(whole, fmt, Options())


def test_json_streams_the_same_document_it_joins() -> None:
    d = derive(_spec(6, 4, 2))
    pieces = list(chunks(d, Options()))
    assert len(pieces) > 10 and "".join(pieces) == to_json(d, Options())
    document = json.loads("".join(pieces))
    for step in document["steps"]:
        value = d[step["key"]]
        assert step["latex"] == latex.exact(value)
        assert step["decimals"] == [
            [decimal_text(value[i, j], 2) for j in range(value.cols)] for i in range(value.rows)
        ]
        assert "balls" not in step


def _reference(value: sp.Expr) -> flint.arb:
    """The value by mpmath at 150 digits, as a ball of radius 1e-75 (an oracle not ours;
    digits to spare for terms that cancel, see tests/test_structured.py's ``_ball``)."""
    with mpmath.workdps(150):
        text = mpmath.nstr(mp_value(value), 120)
    with _precision():
        return flint.arb(text, "1e-75")


def _ball(text: str) -> flint.arb:
    """A ball as JSON writes it, ``[mid +/- rad]``, read back at a precision that keeps it."""
    mid, _, rad = text.strip("[]").partition(" +/- ")  # an exact ball has no radius
    with _precision():
        return flint.arb(mid, rad or 0)


class _precision:
    def __enter__(self) -> None:
        self.old, flint.ctx.prec = flint.ctx.prec, 400

    def __exit__(self, *_: object) -> None:
        flint.ctx.prec = self.old


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 6), st.integers(5, 40))
def test_json_balls_contain_the_values_and_keep_the_decimals(places: int, digits: int) -> None:
    d = derive(AttentionSpec.example("pytorch-style"))
    plain = json.loads(to_json(d, Options(decimals=places)))
    enclosed = json.loads(to_json(d, Options(decimals=places, enclose=digits)))
    assert enclosed["digits"] == digits
    for before, after in zip(plain["steps"], enclosed["steps"]):
        assert after["decimals"] == before["decimals"], after["key"]
        balls = after["balls"]
        if balls is None:  # a step with -oo (masked logits) has no ball
            assert "-inf" in {t for row in after["decimals"] for t in row}
            continue
        value = d[after["key"]]
        for i in range(value.rows):
            for j in range(value.cols):
                ball = _ball(balls[i][j])
                assert ball.overlaps(_reference(value[i, j])), (after["key"], i, j)
                assert ball.rad() < flint.arb(10) ** -digits


def test_json_without_exact_values_needs_no_large(refused: None, tmp_path: Path) -> None:
    d = derive(_spec())
    path = tmp_path / "out.json"
    path.write_text("old\n")
    with pytest.raises(SpecError, match="--enclose N --no-exact"):
        write(d, path)  # the exact LaTeX of every entry is what would take minutes
    assert path.read_text() == "old\n"  # never a damaged file
    assert not [p for p in tmp_path.iterdir() if p.name != "out.json"]  # nor a temporary
    write(d, path, options=Options(enclose=30, exact=False))
    document = json.loads(path.read_text())
    output = document["steps"][-1]
    assert output["key"] == "output" and output["latex"] is None
    whole = derive(_spec(), large=True)["output"]
    assert output["decimals"][9] == [decimal_text(whole[9, j], 2) for j in range(whole.cols)]
    assert _ball(output["balls"][9][0]).overlaps(_reference(whole[9, 0]))


def test_options_refuse_balls_without_json_sense() -> None:
    with pytest.raises(SpecError, match="give enclose"):
        Options(exact=False)
    with pytest.raises(SpecError, match="enclose must be a whole number from 1 to"):
        Options(enclose=0)


def test_cli_json_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["derive", "--example", "two-tokens", "--format", "md", "--enclose", "5"]) == 2
    assert capsys.readouterr().err == "mha-symbolic: --enclose is for --format json, not md\n"
    assert main(["derive", "--example", "two-tokens", "--format", "json", "--no-exact"]) == 2
    assert "give enclose" in capsys.readouterr().err
    args = ["derive", "--example", "one-token", "--format", "json", "--enclose", "12"]
    assert main(args) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["digits"] == 12 and document["steps"][-1]["balls"]


def test_check_reads_only_the_entries_its_claims_name(refused: None) -> None:
    d = derive(_spec())
    claims = {
        "output[10]": "[0.5, 1, 2, 3]",
        "head1.weights[2]": "[0.5, 0.5, 0, 0, 0, 0, 0, 0, 0, 0]",
    }
    report = check(d, claims)
    whole = check(derive(_spec(), large=True), claims)
    assert [v.verdict for v in report.claims] == [v.verdict for v in whole.claims]
    assert [v.exact for v in report.claims] == [v.exact for v in whole.claims]
    made = d.step("output").entries
    assert len(made._made) == made.cols  # row 10 only


def test_heatmap_ticks_thin_out_for_long_sequences() -> None:
    assert ticks(5) == [0, 1, 2, 3, 4]
    shown = ticks(128)
    assert shown[0] == 0 and shown[-1] == 127 and len(shown) <= 25


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_verdicts_and_decimals_from_balls_are_those_of_the_exact_values(
    data: st.DataObject,
) -> None:
    """Claims near the exact weights (right, rounded, off by a unit, a tie's neighbours):
    the report with enclosures equals the report that judges every entry from SymPy."""
    from mha_symbolic.check.step_values import Values

    d = derive(AttentionSpec.example("pytorch-style"))
    key = data.draw(st.sampled_from(["head1.weights", "head2.output", "output", "head1.q"]))
    value = d[key]
    i = data.draw(st.integers(1, value.rows))
    places = data.draw(st.integers(0, 5))
    shift = data.draw(st.sampled_from([0, 0, 1, -1]))
    numbers = []
    for j in range(value.cols):
        text = decimal_text(value[i - 1, j], places)
        assert text is not None
        unit = Fraction(1, 10**places)
        numbers.append(str(float(Fraction(text) + shift * unit)) if shift else text)
    claims = {f"{key}[{i}]": "[" + ", ".join(numbers) + "]"}
    quick = check(d, claims)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Values, "enclosure", lambda self, key: None)
        slow = check(d, claims)
    assert [c.verdict for c in quick.claims] == [c.verdict for c in slow.claims]
    assert [c.decimal for c in quick.claims] == [c.decimal for c in slow.claims]
    assert str(quick) == str(slow)


def test_a_report_does_not_print_an_exact_value_too_long_to_read(refused: None) -> None:
    d = derive(_spec(40, 4, 2))
    report = check(d, {"output[40,1]": "0.5"})
    text = str(report)
    assert "(too long to print; --format json has it)" in text
    assert max(len(line) for line in text.splitlines()) <= 100
    assert len(text) < 2_000
    assert "too long to print" in report.to_markdown()
