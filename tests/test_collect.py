"""Collecting every array a document prints, as tables of (document text, expected rows), and
hostile pages that must stay bounded (each run under an alarm, so a regression fails)."""

from __future__ import annotations

import json
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mha_symbolic.extract import extract_all
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.markup import page_text


def _found(text: str, kind: str = "md") -> list[tuple[Any, ...]]:
    """The items and the prose's scalars, in order."""
    found, items = find_items(read_document(text + "\n", kind))
    every = sorted([*items, *found.scalars], key=lambda item: item.start)
    return [(item.rows, item.batch_shape) for item in every]


def _unread(text: str) -> list[str]:
    document = read_document(text + "\n", "md")
    found, _ = find_items(document)
    return [u.note(document.lines[u.line].where) for u in found.unread]


@contextmanager
def _bounded(seconds: int) -> Iterator[None]:
    """Fail instead of hanging: raises after ``seconds`` of this process's processor time (the
    old code took minutes), not of the clock, which a loaded machine stretches."""

    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"still running after {seconds} s of processor time")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


LISTS = [
    # a batch (3-d): one item, its batch shape, every matrix's rows in order
    (
        "x = tensor([[[1., 0.]], [[0., 1.]]])",
        [((("1.", "0."), ("0.", "1.")), (2,))],  # numpy's "1." kept as printed
    ),
    (
        "a = [[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]]",
        [((("1", "2"), ("3", "4"), ("5", "6"), ("7", "8")), (2,))],
    ),
    (
        "w = np.zeros((2, 2, 1, 2))\n[[[[0.1 0.9]]\n\n  [[0.5 0.5]]]\n\n\n"
        " [[[0.2 0.8]]\n\n  [[1. 0.]]]]",
        [
            ((("2", "2", "1", "2"),), ()),
            ((("0.1", "0.9"), ("0.5", "0.5"), ("0.2", "0.8"), ("1.", "0.")), (2, 2)),
        ],
    ),
    # a batch of one is its one matrix
    ("A = [[[0.5, 0.5], [0.2, 0.8]]]", [((("0.5", "0.5"), ("0.2", "0.8")), ())]),
    # torch's masked prints and scientific notation
    (
        "s = tensor([[ 1.2000e+00, -1.0000e+09],\n        [ 3.5000e-01, -inf]])",
        [((("1.2000e+00", "-1.0000e+09"), ("3.5000e-01", "-inf")), ())],
    ),
    # a list of sums is the working of the list printed after it
    (
        "out = [0.0779 + 0.2156 + 0.1057, 0.1 + 0.2] = [0.3992, 0.3]",
        [((("0.3992", "0.3"),), ())],
    ),
    (
        "z = [0.7311*1 + 0.2689*0, 0.7311*0 + 0.2689*1] = [0.7311, 0.2689]",
        [((("0.7311", "0.2689"),), ())],
    ),
    # an en dash glued to a number is a minus
    ("X = [[1, 0], [–1.0, 1]]", [((("1", "0"), ("−1.0", "1")), ())]),
    # ragged lists are no array; their rows are not read alone
    ("r = [[1, 2], [3]]", []),
    # a Unicode name before a list
    ("α = [0.15, 0.59, 0.27]", [((("0.15", "0.59", "0.27"),), ())]),
    # Rust: a multi-line array! (a trailing comma) and ndarray's print with its shape
    (
        "let x = array![\n    [1., 2.],\n    [3., 4.],\n    [5., 6.],\n];",
        [((("1.", "2."), ("3.", "4."), ("5.", "6.")), ())],
    ),
    (
        "[[1.0, 2.0],\n [3.0, 4.0]], shape=[2, 2], strides=[2, 1], layout=Cc (0x5), const ndim=2",
        [
            ((("1.0", "2.0"), ("3.0", "4.0")), ()),
            ((("2", "2"),), ()),
            ((("2", "1"),), ()),
            ((("2",),), ()),  # ndim=2: a scalar
        ],
    ),
    # numpy's print of a list of arrays: a batch (here of two 2x1 columns)
    (
        "[array([[ 1.78862847],\n       [ 0.43650985]]), array([[-0.2773882 ],\n"
        "       [-0.35475898]])]",
        [((("1.78862847",), ("0.43650985",), ("-0.2773882",), ("-0.35475898",)), (2,))],
    ),
    # JavaScript and JSON nested arrays
    ("const X = [[1, 0], [0, 1]];", [((("1", "0"), ("0", "1")), ())]),
    ('{"w": [[0.5, -1e-3]], "b": [2]}', [((("0.5", "-1e-3"),), ()), ((("2",),), ())]),
    # a chain's final value in prose is a scalar; the working before it is not
    ("d_k = 2, so √d_k = √2 ≈ 1.414", [((("2",),), ()), ((("1.414",),), ())]),
    ("Q1·K1 = 1*1 + 0*0 = 1 and 1.78 / 4.56 = 0.39.", [((("1",),), ()), ((("0.39",),), ())]),
    # keyword arguments after the data are not entries
    ("x = torch.tensor([[1.0, 2.0]], dtype=torch.float64)", [((("1.0", "2.0"),), ())]),
]


@pytest.mark.parametrize(("text", "expected"), LISTS)
def test_bracketed_lists(text: str, expected: list[tuple[Any, ...]]) -> None:
    assert _found(text) == expected


TABLES = [
    # Markdown: header of tokens and a first column of labels left out, kept as labels
    (
        "Weights:\n\n| | I | am |\n|---|---|---|\n| I | 0.2 | **0.8** |\n| am | 0.5 | 0.5 |",
        "md",
        [((("0.2", "0.8"), ("0.5", "0.5")), ("I", "am"), ("I", "am"))],
    ),
    ("| 0.2 | 0.8 |\n| 0.5 | 0.5 |", "md", [((("0.2", "0.8"), ("0.5", "0.5")), (), ())]),
    ("| Name | Role |\n|--|--|\n| X | input 2 |", "md", []),  # a table of words
    (
        "| Vocabulary | 10,000 |\n| d_k | 4 |",
        "md",
        [((("10000",), ("4",)), (), ("Vocabulary", "d_k"))],
    ),
    # HTML: a row per <tr>, cells as in Markdown
    (
        "<table><tr><th></th><th>d1</th><th>d2</th></tr><tr><td>t1</td><td>1</td><td>0</td>"
        "</tr><tr><td>t2</td><td>0</td><td>1</td></tr></table>",
        "html",
        [((("1", "0"), ("0", "1")), ("d1", "d2"), ("t1", "t2"))],
    ),
    # a table whose cells are lists: a matrix per column, a list per row
    (
        "| Position | Raw | After softmax |\n|---|---|---|\n| row 0 | [0, -inf] | [1.0, 0] |\n"
        "| row 1 | [0, 0] | [0.5, 0.5] |",
        "md",
        [
            ((("0", "-inf"), ("0", "0")), ("Raw",), ("row 0", "row 1")),
            ((("1.0", "0"), ("0.5", "0.5")), ("After softmax",), ("row 0", "row 1")),
        ],
    ),
    # pandas: column names over rows of a label and numbers
    (
        "            Head1_alpha  Head2_alpha\nToken\nParis   0.067   0.184\nist   0.180   0.129",
        "md",
        [
            (
                (("0.067", "0.184"), ("0.180", "0.129")),
                ("Head1_alpha", "Head2_alpha"),
                ("Paris", "ist"),
            )
        ],
    ),
    (
        "     0    1\n0  0.1  0.2\n1  0.3  0.4",
        "md",
        [((("0.1", "0.2"), ("0.3", "0.4")), ("0", "1"), ("0", "1"))],
    ),
    # Julia: a matrix block and a vector (one row)
    (
        "julia> W\n3×2 Matrix{Float64}:\n 0.1  -0.2\n 1.0   2.5e-3\n 0.0   1.0\n\n"
        "3-element Vector{Float64}:\n 0.15\n 0.59\n 0.27",
        "md",
        [
            ((("0.1", "-0.2"), ("1.0", "2.5e-3"), ("0.0", "1.0")), (), ()),
            ((("0.15", "0.59", "0.27"),), (), ()),
        ],
    ),
    # a page's own LaTeX macros: MathJax's configuration, \newcommand and \def
    (
        '<html><head><script>MathJax = {tex: {macros: {bpmat: "\\\\begin{pmatrix}", '
        "epmat: '\\\\end{pmatrix}'}}};</script></head><body><p>$$X = \\bpmat 1 & 0 \\\\ "
        "0 & 1 \\epmat$$</p></body></html>",
        "html",
        [((("1", "0"), ("0", "1")), (), ())],
    ),
    (
        "\\newcommand{\\bm}{\\begin{bmatrix}}\n\\def\\em{\\end{bmatrix}}\n"
        "$$A = \\bm 0.5 & 0.5 \\em$$",
        "md",
        [((("0.5", "0.5"),), (), ())],
    ),
]


def test_a_table_keeps_the_line_that_names_it() -> None:
    page = "### Scores\n\n| 1 | 2 |\n\nAttention weights:\n\n| 0.5 | 0.5 |\n\nplain\n\n| 3 | 4 |"
    _, items = find_items(read_document(page + "\n", "md"))
    assert [item.statement for item in items] == ["### Scores", "Attention weights:", ""]


@pytest.mark.parametrize(("text", "kind", "expected"), TABLES)
def test_tables_and_blocks(text: str, kind: str, expected: list[tuple[Any, ...]]) -> None:
    _, items = find_items(read_document(text + "\n", kind))
    assert [(item.rows, item.columns, item.labels) for item in items] == expected


UNREAD = [
    (
        "| a | ⁻1.0 |\n| b | 0.3 |",
        ["line 1: row 1 of a printed matrix cannot be read ('⁻1.0'): the matrix is left out"],
    ),
    (
        "X = [[1, 0], [⁻1.0, 1]]",
        ["line 1: row 2 of \"X\" cannot be read ('⁻1.0'): the matrix is left out"],
    ),
    (
        "x = tensor([[1, 2], [nan, -inf]])",
        ["line 1: row 2 of \"x\" cannot be read ('nan'): the matrix is left out"],
    ),
    (
        "X = np.array([[1, 2], [3, …]])",
        ["line 1: row 2 of \"X\" cannot be read ('…'): the matrix is left out"],
    ),
    ("v = [0.5, 50%, 0.2]", ["line 1: \"v\" cannot be read ('50%'): the vector is left out"]),
    (
        "$X = \\begin{bmatrix} 1 & 0 \\\\ ⁻1.0 & 1 \\end{bmatrix}$",
        ["line 1: row 2 of \"X\" cannot be read ('⁻1.0'): the matrix is left out"],
    ),
    ("$X = \\begin{bmatrix} a & b \\\\ c & d \\end{bmatrix}$", []),  # text, not numbers
    ("see [the, 1, 2] and [3, 4]", []),
    ("np.hstack([Q, K, V]) and softmax([x1, x2]) (1/0.5 = 2)", []),  # names and prose
]


@pytest.mark.parametrize(("text", "notes"), UNREAD)
def test_a_row_that_cannot_be_read_leaves_the_whole_matrix_out(text: str, notes: list[str]) -> None:
    assert _unread(text) == notes
    if notes:
        assert _found(text) == []


def test_an_unread_matrix_is_said_in_the_notes_not_checked_smaller() -> None:
    page = (
        "attention, no scaling\n\nX = [[1, 0], [0, 1]]\n\nweights = [[0.73, 0.27], [NaN, 0.73]]\n"
    )
    (found,) = extract_all(page)
    assert (
        "line 5: row 2 of \"weights\" cannot be read ('NaN'): the matrix is left out" in found.notes
    )
    assert dict(found.spec.claims) == {}


def _letters_after_a_matrix() -> Any:
    return extract_all("attention\nX = [[1, 0], [0, 1]]\nA = [[1, 0],\n" + "a" * 100_000 + "\n")


def _macro_bomb() -> int:
    page = "\\def\\a{" + "x" * 400 + "}\n" + "\\a" * 1_000_000 + "\n"
    return len(read_document(page, "md").lines[1].text)


HOSTILE: list[tuple[str, Callable[[], Any], Any]] = [
    # macros expand within a budget of a million characters
    ("macros", _macro_bomb, 2_000_000 + 1_000_000 - 1_000_000 % 398),
    # a line of letters after an opened matrix: the side-by-side pattern was quadratic
    ("letters", lambda: _letters_after_a_matrix()[0].spec.query.tolist(), [[1, 0], [0, 1]]),
    # html.parser rescans its buffer at every unfinished "</"
    ("end tags", lambda: page_text("<p>" + "</" * 1_000_000).count("</"), 1_000_000),
    ("open tags", lambda: page_text("<a" * 500_000 + "<p>x</p>").strip()[-1], "x"),
    # a 4 MB line of "[" and runs of unfinished openers
    ("brackets", lambda: _found("[" * 4_000_000), []),
    ("parentheses", lambda: _found("(" * 200_000 + " [1, 2]"), [((("1", "2"),), ())]),
    ("numbers", lambda: _found("[1 2 3 4 " * 20_000), []),
    ("arrays", lambda: _found("[array(" * 300_000), []),
    ("table rows", lambda: len(_found("| 1 | 2 |\n" * 50_000)), 50),  # 1,000 rows a table
]


@pytest.mark.parametrize(("name", "run", "expected"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_pages_are_read_in_bounded_time(
    name: str, run: Callable[[], Any], expected: Any
) -> None:
    with _bounded(20):
        assert run() == expected


def test_a_2_mb_notebook_with_hundreds_of_arrays() -> None:
    rows = "\n".join(f" [{i % 7}.{i:04d} 0.{i:04d} 1.5e-0{i % 9}]" for i in range(12))
    cells = [
        {
            "cell_type": "code",
            "source": [f"print(weights_{n})\n"],
            "outputs": [{"output_type": "stream", "text": ["[" + rows[1:] + "]\n" + "#" * 5_000]}],
        }
        for n in range(400)
    ]
    page = json.dumps({"cells": cells}, indent=1)
    assert len(page) > 2_000_000
    with _bounded(20):
        _, items = find_items(read_document(page, "ipynb"))
    assert len(items) == 400
    assert items[-1].shape == (12, 3) and items[-1].rows[11] == ("4.0011", "0.0011", "1.5e-02")


ONE_EXAMPLE = (
    "Attention in two lines\n\nX = [[1, 0], [0, 1]]\n\nweights = [[0.5, 0.5], [0.5, 0.5]]\n"
)
FOLDERS = [
    # (what -o names, made first: "" nothing, "dir" a folder, "file" a file) -> written, exit
    ("specs/", "", ["specs/one.toml"], 0),
    ("specs", "dir", ["specs/one.toml"], 0),
    ("spec.toml", "", ["spec.toml"], 0),
    ("afile/", "file", [], 2),
]


@pytest.mark.parametrize(("output", "made", "written", "code"), FOLDERS)
def test_extract_writes_into_a_folder_when_asked(
    tmp_path: Path, output: str, made: str, written: list[str], code: int
) -> None:
    from mha_symbolic.cli import main

    document = tmp_path / "one.md"
    document.write_text(ONE_EXAMPLE + "\n", encoding="utf-8")
    if made == "dir":
        (tmp_path / output).mkdir()
    elif made == "file":
        (tmp_path / output.rstrip("/")).write_text("kept", encoding="utf-8")
    assert main(["extract", str(document), "-o", f"{tmp_path}/{output}"]) == code
    files = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert files == sorted(["one.md", *written, *(["afile"] if made == "file" else [])])
    if made == "file":
        assert (tmp_path / "afile").read_text(encoding="utf-8") == "kept"


TITLES = [
    ("# Attention, by hand\n\nX = [[1, 0]]\n", "Attention, by hand"),
    ("Multi-Head Attention\nWalk through it.\nX = [[1, 0]]\n", "Multi-Head Attention"),
    (
        "```python\nimport numpy\n```\nA first look at attention. More.\n",
        "A first look at attention",
    ),
    ("X = [[1, 0]]\n\n[1, 2]\n", "From <text>"),
]


@pytest.mark.parametrize(("text", "title"), TITLES)
def test_the_title_is_the_first_heading_or_line_of_prose(text: str, title: str) -> None:
    from mha_symbolic.extract.run import _title

    assert _title(read_document(text, "md"), 1, 1) == title


BATCH_OF_ONE = [
    "[[[0.7311, 0.2689], [0.2689, 0.7311]]]",
    '"[[[0.7311, 0.2689], [0.2689, 0.7311]]]"',
    '"tensor([[[0.7311, 0.2689], [0.2689, 0.7311]]])"',
    "[[[[0.7311, 0.2689], [0.2689, 0.7311]]]]",
]


@pytest.mark.parametrize("claimed", BATCH_OF_ONE)
def test_a_batch_of_one_is_claimed_as_its_one_matrix(
    tmp_path: Path, claimed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from mha_symbolic.cli import main

    spec = tmp_path / "spec.toml"
    spec.write_text(
        f'x = [[1, 0], [0, 1]]\nscale = "none"\n[claims]\n"head1.weights" = {claimed}\n',
        encoding="utf-8",
    )
    assert main(["check", str(spec)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{spec}: 1 claim: 1 holds (0 exact, 1 rounded)"
    )


TRANSPOSED = [
    ("Kᵀ = [[1, 0], [0, 1]]", True),
    ("W_o^T = [[1, 2]]", True),
    ("$K^{\\top} = \\begin{bmatrix} 1 & 0 \\end{bmatrix}$", True),
    ("print(K.T)\n[[1 0]\n [0 1]]", True),
    ("print(K)\n[[1 0]\n [0 1]]", False),
    ("Tokens = [1, 2]", False),
]

KINDS = [
    ("torch.Size([2, 3])", ["shape"]),
    ("[[1.0, 2.0]], shape=[1, 2], strides=[2, 1]", ["list", "shape", "shape"]),
    ("x.shape = (2, 3)", ["tuple"]),
    ("| 0.2 | 0.8 |", ["table"]),
]


@pytest.mark.parametrize(("text", "kinds"), KINDS)
def test_the_kind_of_each_print(text: str, kinds: list[str]) -> None:
    _, items = find_items(read_document(text + "\n", "md"))
    assert [item.kind for item in items] == kinds


@pytest.mark.parametrize(("text", "flag"), TRANSPOSED)
def test_a_transposed_print_is_noticed(text: str, flag: bool) -> None:
    _, items = find_items(read_document(text + "\n", "md"))
    assert [item.transposed for item in items] == [flag]
