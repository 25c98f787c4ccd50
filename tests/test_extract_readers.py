"""What the readers collect from the layouts users bring: a notebook cell's bare last name naming
its output, subscripts in code that are no arrays, tables whose columns are lists named by their
header, and a notebook that prints an unscaled softmax before the scaled one."""

from __future__ import annotations

import json
from pathlib import Path

from mha_symbolic.extract import extract_all
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.reading import read


def _notebook(*cells: tuple[str, str]) -> str:
    """A notebook of code cells (source, printed output)."""
    out = [{"cell_type": "markdown", "source": ["# Attention by hand\n"]}]
    for source, printed in cells:
        output = {"output_type": "execute_result", "data": {"text/plain": printed}}
        out.append({"cell_type": "code", "source": source, "outputs": [output]})
    return json.dumps({"cells": out}, indent=1)


def _named(text: str, kind: str) -> list[tuple[str, str, tuple[tuple[str, ...], ...]]]:
    reading = read(read_document(text, kind))
    return [(s.role, s.name, s.item.rows) for s in reading.seen if s.role != "unnamed"]


def test_a_cells_last_bare_name_names_what_it_prints() -> None:
    page = _notebook(
        ("keys = x @ W_key\nkeys", "array([[1.25, 0.5 ],\n       [0.75, 2.  ]])"),
        ("attn_scores = queries @ keys.T\nattn_scores", "array([[0.1, 0.2],\n       [0.3, 0.4]])"),
    )
    assert _named(page, "ipynb") == [
        ("k", "keys", (("1.25", "0.5"), ("0.75", "2."))),
        ("scores", "attn_scores", (("0.1", "0.2"), ("0.3", "0.4"))),
    ]


def test_a_subscript_in_code_is_no_array() -> None:
    page = (
        "attention\n```python\nfor i in range(scores.shape[0]):\n    row = all_x[2]\n"
        "print(x_prime[1].transpose(), W[0][1], f(x)[3])\n```\n"
        "weights = [0.25, 0.75] and \\left[0.5, 0.5\\right]\n"
    )
    rows = [s.item.rows for s in read(read_document(page, "md")).seen]
    assert rows == [(("0.25", "0.75"),), (("0.5", "0.5"),)]


def test_a_table_column_of_lists_is_named_by_the_symbol_of_its_header() -> None:
    page = (
        "<html><body><p>attention</p><table>"
        "<tr><th>トークン</th><th>クエリ (\\( Q \\))</th><th>キー (\\( K \\))</th>"
        "<th>Raw weights</th></tr>"
        "<tr><td>私</td><td>\\([1, 0]\\)</td><td>\\([0, 1]\\)</td><td>[0.5, 0.5]</td></tr>"
        "<tr><td>は</td><td>\\([0, 2]\\)</td><td>\\([1, 1]\\)</td><td>[0.2, 0.8]</td></tr>"
        "</table></body></html>"
    )
    assert _named(page, "html") == [
        ("q", "Q", (("1", "0"), ("0", "2"))),
        ("k", "K", (("0", "1"), ("1", "1"))),
    ]


def test_an_unscaled_softmax_printed_first_and_the_scaled_one_are_two_examples(
    tmp_path: Path,
) -> None:
    """Random weights never printed: each example starts at the printed scores, X is left
    alone; the softmax as the scores are and the one divided by √2 are two settings, each
    checked with its own scale."""
    page = tmp_path / "page.ipynb"
    page.write_text(
        _notebook(
            ("x = np.random.rand(2, 3)\nx", "array([[0.5, 0.25, 1.0],\n       [0.75, 0.5, 0.0]])"),
            (
                "attn_scores = queries @ keys.T\nattn_scores",
                "array([[1.0, 0.0],\n       [0.0, 2.0]])",
            ),
            ("softmax(attn_scores)", "array([[0.7311, 0.2689],\n       [0.1192, 0.8808]])"),
            (
                "attn_weights = softmax(attn_scores / 2**0.5)\nattn_weights",
                "array([[0.6698, 0.3302],\n       [0.1956, 0.8044]])",
            ),
        ),
        encoding="utf-8",
    )
    unscaled, found = extract_all(page)  # the first softmax is an example of its own
    assert (unscaled.spec.scale, unscaled.spec.stage) == ("none", "scores")
    assert dict(unscaled.spec.claims) == {"head1.weights": "[[0.7311, 0.2689], [0.1192, 0.8808]]"}
    assert str(found.spec.scale) == "sqrt(2)/2"
    assert found.spec.stage == "scores"
    assert dict(found.spec.claims) == {"head1.weights": "[[0.6698, 0.3302], [0.1956, 0.8044]]"}


def _found(text: str, kind: str) -> list[tuple[str, tuple[tuple[str, ...], ...]]]:
    _, items = find_items(read_document(text, kind))
    return [(item.kind, item.rows) for item in items]


def test_fractions_in_a_matrix_of_lecture_notes_are_read() -> None:
    notes = (
        "\\begin{align}\nA &= \\begin{pmatrix} \\frac{1}{2} & \\frac{1}{2} \\\\ "
        "0.25 & {0.75} \\end{pmatrix}\n\\end{align}\n"
    )
    assert _found(notes, "tex") == [("latex", (("\\frac{1}{2}", "\\frac{1}{2}"), ("0.25", "0.75")))]


def test_julia_blocks_are_read_once_and_an_adjoint_too() -> None:
    repl = (
        "attention\njulia> A\n2×3 Matrix{Float64}:\n 0.1  0.2  0.7\n 0.3  0.3  0.4\n\n"
        "julia> K'\n2×2 adjoint(::Matrix{Float64}) with eltype Float64:\n 1.0  0.0\n 0.5  0.5\n"
    )
    assert _found(repl, "md") == [
        ("julia", (("0.1", "0.2", "0.7"), ("0.3", "0.3", "0.4"))),
        ("julia", (("1.0", "0.0"), ("0.5", "0.5"))),
    ]


def test_a_pandas_print_is_named_by_the_array_it_shows() -> None:
    page = _notebook(
        (
            "C_concat = np.hstack([C1, C2])\npd.DataFrame(C_concat, columns=['h1', 'h2']).round(3)",
            "      h1_c1  h2_c1\nParis  1.708  0.337\nist    0.728  1.469",
        ),
        ("pd.DataFrame(X, columns=['x1', 'x2'])", "       x1   x2\nParis 2.0  0.0\nist   0.0  1.5"),
    )
    assert _named(page, "ipynb") == [
        ("concat", "C_concat", (("1.708", "0.337"), ("0.728", "1.469"))),
        ("x", "X", (("2.0", "0.0"), ("0.0", "1.5"))),
    ]


def test_a_tabular_of_numbers_in_lecture_notes_is_a_matrix() -> None:
    notes = (
        "\\begin{tabular}{c|ccc}\n\\hline\n & I & love & it \\\\\n\\hline\n"
        "I & 0.1 & 0.2 & 0.7 \\\\\nlove & 0.3 & \\frac{1}{3} & 0.4 \\\\\n"
        "\\hline\n\\end{tabular}\n\n"
        "\\begin{tabular}{ll}\nModel & GPT-2 \\\\\nParameters & 117M \\\\\n\\end{tabular}\n"
    )
    assert _found(notes, "tex") == [
        ("latex", (("0.1", "0.2", "0.7"), ("0.3", "\\frac{1}{3}", "0.4")))
    ]


def test_a_value_in_markdown_bold_is_no_operand() -> None:
    page = "# Attention\n\nWeights: **[[0.73, 0.27], [0.27, 0.73]]**\n\nZ = A * [[1, 2], [3, 4]]\n"
    assert _named(page, "md") == [("weights", "Weights", (("0.73", "0.27"), ("0.27", "0.73")))]
