"""The finder and the alias table as tables: each way a document prints a matrix, and each
name it gives one, read to the exact entries and role."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mha_symbolic.extract import extract
from mha_symbolic.extract.aliases import resolve
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.reading import read

FOUND = [
    ("X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}", "x", (("1", "0"), ("0", "1"))),
    ("$$A_1 = \\begin{pmatrix} 0.67 & 0.33 \\end{pmatrix}$$", "weights", (("0.67", "0.33"),)),
    ("W_Q1 = [[1, 0], [0, 1]]", "w_q", (("1", "0"), ("0", "1"))),
    ("Wq = np.array([[1.5, -2], [0, 1]])", "w_q", (("1.5", "-2"), ("0", "1"))),
    # "1." is kept as printed (it reads 1; a claim shows the document's own digits)
    ("K = torch.tensor([[1., 0.], [0., 1.]])", "k", (("1.", "0."), ("0.", "1."))),
    ("concat = [0.5, 1.2, −0.4, 2.3]", "concat", (("0.5", "1.2", "−0.4", "2.3"),)),
    ("scores = [[0.1 0.2]\n [0.3 0.4]]", "scores", (("0.1", "0.2"), ("0.3", "0.4"))),
    (
        "print(weights)\ntensor([[0.5000, 0.5000],\n        [0.2689, 0.7311]])",
        "weights",
        (("0.5000", "0.5000"), ("0.2689", "0.7311")),
    ),
    ("print(attn)\narray([[1.25e-01, 8.75e-01]])", "weights", (("1.25e-01", "8.75e-01"),)),
    ("Z_2 = [[0.60, 0.40], [0.40, 0.60]]", "head.output", (("0.60", "0.40"), ("0.40", "0.60"))),
    ("S' = [[0.707, 0], [0, 0.707]]", "scaled", (("0.707", "0"), ("0", "0.707"))),
]


@pytest.mark.parametrize(("text", "role", "rows"), FOUND)
def test_a_printed_matrix_is_found_with_its_role(text: str, role: str, rows: tuple) -> None:
    reading = read(read_document("attention\n" + text + "\n"))
    named = [s for s in reading.seen if s.role not in ("operand", "unnamed")]
    assert [(s.role, s.item.rows) for s in named] == [(role, rows)]


NAMES = [
    ("X", "x", None),
    ("Input", "x", None),
    ("embeddings", "x", None),
    ("W_Q", "w_q", None),
    ("WQ1", "w_q", 1),
    ("W_Q^1", "w_q", 1),
    ("W_{Q1}", "w_q", 1),
    ("Wq", "w_q", None),
    ("Q_1", "q", 1),
    ("scores", "scores", None),
    ("QK^T", "scores", None),
    ("S'", "scaled", None),
    ("A_2", "weights", 2),
    ("softmax", "weights", None),
    ("Z_1", "head.output", 1),
    ("head1_output", "head.output", 1),
    ("\\text{Head2 Output}", "head.output", 2),
    ("Combined", "concat", None),
    ("W^O", "w_o", None),
    ("W_O", "w_o", None),
    ("Wo", "w_o", None),
    ("\\text{Final Output}", "output", None),
    ("MHA_output", "output", None),
    ("X_{\\text{head1}}", "head.x", 1),
]


@pytest.mark.parametrize(("name", "role", "head"), NAMES)
def test_the_alias_table(name: str, role: str, head: int | None) -> None:
    found = resolve(name)
    assert found is not None and (found.role, found.head) == (role, head)


def test_a_notebook_reads_markdown_code_and_printed_outputs(tmp_path: Path) -> None:
    cells = [
        {"cell_type": "markdown", "source": ["# Attention, no scaling\n"]},
        {"cell_type": "code", "source": ["X = np.array([[1, 0], [0, 1]])\n"], "outputs": []},
        {
            "cell_type": "code",
            "source": ["print(weights)"],
            "outputs": [{"output_type": "stream", "text": ["[[0.73 0.27]\n", " [0.27 0.73]]\n"]}],
        },
    ]
    path = tmp_path / "page.ipynb"
    path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    spec, notes = extract(path)
    assert spec.scale == "none"
    assert dict(spec.claims) == {"head1.weights": "[[0.73, 0.27], [0.27, 0.73]]"}
    assert notes[-1] == "weights (cell 3, output line 1) -> claim head1.weights"


def test_latex_and_html_documents(tmp_path: Path) -> None:
    tex = tmp_path / "page.tex"
    tex.write_text(
        "\\section{Attention}\n% a comment [[9, 9]]\n"
        "$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$, no scaling.\n"
        "$A = \\begin{bmatrix} 0.73 & 0.27 \\\\ 0.27 & 0.73 \\end{bmatrix}$\n",
        encoding="utf-8",
    )
    spec, _ = extract(tex)
    assert dict(spec.claims) == {"head1.weights": "[[0.73, 0.27], [0.27, 0.73]]"}
    html = tmp_path / "page.html"
    html.write_text(
        "<html><head><script>var X = [[5, 5]];</script></head><body><h1>Attention</h1>"
        "<p>X = [[1, 0], [0, 1]] and no scaling.</p><p>weights = [[0.73, 0.27], "
        "[0.27, 0.73]]</p></body></html>",
        encoding="utf-8",
    )
    spec, _ = extract(html)
    assert spec.query.tolist() == [[1, 0], [0, 1]]
    assert dict(spec.claims) == {"head1.weights": "[[0.73, 0.27], [0.27, 0.73]]"}
