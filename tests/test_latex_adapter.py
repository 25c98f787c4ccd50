"""The gate's canonical text through latex2sympy2_extended: exact values built node by node,
symbols given back for their placeholders, bounds held, and a one-line refusal (never a
traceback) for text the library cannot read."""

from __future__ import annotations

import pytest
import sympy as sp

from mha_symbolic.spec import grammar, latex_adapter
from mha_symbolic.spec.lexer import Refusal

TAU = sp.Symbol("tau", positive=True)


@pytest.mark.parametrize(
    ("text", "canonical", "value"),
    [
        ("\\frac{e}{1+e}", "((e) \\cdot (((1) + (e))^{-1}))", sp.E / (1 + sp.E)),
        ("2 \\sqrt{2}", "((2) \\cdot (\\sqrt{(2)}))", 2 * sp.sqrt(2)),
        ("e^{-\\tau}", "((e)^{(-(s_{0}))})", sp.exp(-TAU)),
        ("x_{1} + \\tau", "((s_{0}) + (s_{1}))", sp.Symbol("x_1") + TAU),
        ("\\log_{2}(8)", "(\\log_{(2)}(8))", sp.Integer(3)),
        ("\\sqrt[3]{0.008}", "(\\sqrt[3]{(\\frac{1}{125})})", sp.Rational(1, 5)),
    ],
)
def test_the_gate_writes_canonical_text_and_the_library_reads_it_exactly(text, canonical, value):
    reader = grammar._Reader(grammar.tokens(text), {"tau": TAU})
    piece = reader.value()
    assert (piece.text, piece.value) == (canonical, None)
    assert latex_adapter.convert(piece.text, reader.symbols) == value
    assert grammar.read(text, {"tau": TAU}) == value


@pytest.mark.parametrize(
    ("text", "value"), [("0.73", sp.Rational(73, 100)), ("-1/2 + 3", sp.Rational(5, 2))]
)
def test_plain_numbers_never_reach_the_library(monkeypatch, text, value):
    monkeypatch.setattr(latex_adapter, "convert", None)  # a call would fail
    assert grammar.read(text, {}) == value


def test_text_the_library_cannot_read_is_one_refusal():
    with pytest.raises(Refusal) as refused:
        latex_adapter.convert("(\\frac{", [])
    assert (
        refused.value.reason == "the LaTeX reader cannot read it (I expected something else here)"
    )


@pytest.mark.parametrize("name", ["tau", "x_1", "d_{k}", "v_{12}", "V"])
@pytest.mark.parametrize("before", [0, 1, 11])
def test_a_value_that_is_one_name_is_its_symbol_as_the_library_reads_it(name, before):
    """The shortcut for one name (no parse) gives what the library's tree gives."""
    symbols = [sp.Symbol(f"other{k}") for k in range(before)] + [TAU]
    text = f"(s_{{{before}}})"
    assert latex_adapter._LONE_NAME.fullmatch(text)
    through_library = latex_adapter._build(latex_adapter._tree(text), symbols)
    assert latex_adapter.convert(text, symbols) == through_library == TAU
    reader = grammar._Reader(grammar.tokens(name), {name: TAU})
    piece = reader.value()
    assert piece.text == "(s_{0})"
    assert grammar.read(name, {name: TAU}) == latex_adapter._build(
        latex_adapter._tree(piece.text), reader.symbols
    )
