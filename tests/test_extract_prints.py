"""Results printed by libraries in forms of their own: summarised wide prints (numpy and torch
leave out the middle columns as ``...``), Rust prints (ndarray's shape and strides, candle's
``Tensor[[2, 2], f32]``, nalgebra's boxes) and libtorch's ``[ CPUFloatType{2,3} ]`` blocks.
A summarised print is read with its columns' positions and checked on those columns only."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.infer.intervals import printed_array
from mha_symbolic.extract.infer.relations import Node, printed_node, product
from mha_symbolic.extract.lists import Parsed, Unreadable, parse
from mha_symbolic.extract.reading import read

TORCH_WIDE = """tensor([[ 0.6108,  0.2811, -1.4551,  ...,  0.1938, -0.6196,  0.8603],
        [ 0.0072,  0.5656,  0.4806,  ..., -0.2665,  0.0092, -0.2328]],
       grad_fn=<MmBackward0>)"""


def _seen(text: str) -> list[tuple[str, str, tuple, tuple[int, ...]]]:
    reading = read(read_document("attention\n" + text + "\n"))
    return [(s.role, s.item.kind, s.item.rows, s.item.columns_at) for s in reading.seen]


def test_a_summarised_torch_print_is_read_with_its_columns() -> None:
    assert _seen("v = " + TORCH_WIDE) == [
        (
            "v",
            "list",
            (
                ("0.6108", "0.2811", "-1.4551", "0.1938", "-0.6196", "0.8603"),
                ("0.0072", "0.5656", "0.4806", "-0.2665", "0.0092", "-0.2328"),
            ),
            (0, 1, 2, -3, -2, -1),
        )
    ]


def test_a_summarised_numpy_print_is_read_with_its_columns() -> None:
    parsed = parse("[[ 0.1  0.2 ...  0.8  0.9]\n [ 1.1  1.2 ...  1.8  1.9]]", 0)
    assert parsed == Parsed(
        [["0.1", "0.2", "0.8", "0.9"], ["1.1", "1.2", "1.8", "1.9"]], 54, False, (0, 1, -2, -1)
    )


@pytest.mark.parametrize(
    "text",
    [
        "[1, 2, 3, ...]",  # a sequence that goes on: no columns after the ellipsis
        "[[1, 2, ..., 5, 6], [1, ..., 6]]",  # the ellipsis elsewhere in another row
        "[[1, ..., 5, 6]]",  # more columns after it than before
    ],
)
def test_an_ellipsis_where_no_summarised_print_puts_it_leaves_the_list_unread(text: str) -> None:
    parsed = parse(text, 0)
    assert isinstance(parsed, Unreadable)
    assert parsed.token == "..."


def test_a_product_over_a_summarised_print_s_columns_is_never_computed() -> None:
    """Q Kᵀ of summarised Q and K would sum only the printed columns: no relation at all;
    A V of a printed A keeps V's columns, at their positions."""
    (item,) = read(read_document("attention\nv = " + TORCH_WIDE + "\n")).seen
    wide = printed_array(0, item.item)
    assert wide is not None
    v = printed_node(wide)
    assert product(v, v, transposed=True) is None
    weights = Node(np.array([[0.5, 0.5], [1.0, 0.0]]), np.zeros((2, 2)), "printed")
    av = product(weights, v)
    assert av is not None and av.columns_at == (0, 1, 2, -3, -2, -1)
    assert av.mid[1].tolist() == [0.6108, 0.2811, -1.4551, 0.1938, -0.6196, 0.8603]


def test_rust_ndarray_and_candle_prints_give_their_shapes_as_shapes() -> None:
    """Shapes and strides are no values, nor is the index of ndarray's ``s![1, 1]``."""
    text = (
        "weights =\n[[0.1000, 0.2000],\n [0.3000, 0.4000]]\nTensor[[2, 2], f32]\n\n"
        "v = [[1.0, 2.0],\n [3.0, 4.0]], shape=[2, 2], strides=[2, 1], layout=Cc (0x5), "
        "const ndim=2\n\nv.slice(s![1, 1])\n"
    )
    assert [(role, kind, rows) for role, kind, rows, _ in _seen(text)] == [
        ("weights", "list", (("0.1000", "0.2000"), ("0.3000", "0.4000"))),
        ("unnamed", "shape", (("2", "2"),)),
        ("v", "list", (("1.0", "2.0"), ("3.0", "4.0"))),
        ("v", "shape", (("2", "2"),)),
        ("v", "shape", (("2", "1"),)),
    ]


def test_nalgebra_boxes_and_libtorch_blocks_are_matrices() -> None:
    text = (
        "W_q =\n  ┌     ┐\n  │ 1 0 │\n  │ 0 1 │\n  └     ┘\n\n"
        "scores:\n 0.1000  0.2000  0.3000\n 0.4000  0.5000  0.6000\n[ CPUFloatType{2,3} ]\n\n"
        "k:\n 1\n 2\n[ CPULongType{2} ]\n"
    )
    assert [(role, kind, rows) for role, kind, rows, _ in _seen(text)] == [
        ("w_q", "boxed", (("1", "0"), ("0", "1"))),
        ("scores", "boxed", (("0.1000", "0.2000", "0.3000"), ("0.4000", "0.5000", "0.6000"))),
        ("k", "boxed", (("1", "2"),)),
    ]


def test_a_box_with_a_word_inside_is_no_matrix() -> None:
    assert _seen("  ┌       ┐\n  │ 1  a  │\n  └       ┘\n") == []


def _wide_page(out_last: str | None) -> str:
    """Scores, weights, and V and A V summarised (V's columns 0, 1 and -2, -1 printed)."""
    v = np.array([[1.0, -2.0, 0.5, 3.0], [0.25, 4.0, -1.0, 2.0]])
    scores = np.array([[1.0, 0.0], [2.0, 3.0]])
    a = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    out = a @ v

    def wide(m: np.ndarray, last: str | None = None) -> str:
        rows = [[f"{x:.4f}" for x in row] for row in m]
        if last is not None:
            rows[1][3] = last
        body = ",\n        ".join(
            "[" + ", ".join(r[:2]) + ", ..., " + ", ".join(r[2:]) + "]" for r in rows
        )
        return f"tensor([{body}])"

    weights = ", ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in a)
    return (
        "# A context bank\n\nv:\n\n```\n" + wide(v) + "\n```\n\n"
        "scores = [[1, 0], [2, 3]]\n\n"
        f"weights = softmax(scores)\n\n```\ntensor([{weights}])\n```\n\n"
        "out = weights @ v\n\n```\n" + wide(out, out_last) + "\n```\n"
    )


def test_a_summarised_output_is_checked_on_its_printed_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "wide.md"
    path.write_text(_wide_page(None), encoding="utf-8")
    claims = extract_all(path)[0].spec.claims
    assert claims["head1.output"] == (
        "[[0.7983, -0.3864, 0.0966, 2.7311], [0.4517, 2.3864, -0.5966, 2.2689]]"
    )
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == f"{path}: 2 claims: 2 hold (0 exact, 2 rounded)"
    assert "line 21 (2x4 printed: columns 1-2 and the last 2, the rest summarised as ...) =" in out


def test_a_slip_in_a_summarised_output_is_found_at_its_own_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The last printed entry of row 2 is wrong: that entry, never a shifted one."""
    path = tmp_path / "wide.md"
    path.write_text(_wide_page("2.3689"), encoding="utf-8")
    assert main(["check", str(path), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    wrong = [
        (claim["key"], entry["index"], entry["claimed"])
        for claim in report["claims"]
        for entry in claim["entries"]
        if entry["verdict"] == "wrong"
    ]
    assert wrong == [("head1.output", [2, 4], "2.3689")]


def _attention(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    s = q @ k.T / np.sqrt(k.shape[1])
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ v


def _printed(m: np.ndarray) -> str:
    return "[" + ", ".join("[" + ", ".join(f"{x:.4f}" for x in r) + "]" for r in m) + "]"


def _test_cases_page() -> str:
    """An exercise's test cases: a table of Q, K, V and the expected output, then numbered
    cases, one passing its arrays to the function unnamed, one repeating the table's numbers."""
    q1, k1, v1 = np.eye(2), np.array([[1.0, 1.0], [0.0, 1.0]]), np.array([[1.0, 2.0], [3.0, 4.0]])
    q2, k2, v2 = np.array([[1.0, 1.0], [1.0, 0.0]]), np.array([[0.0, 1.0], [1.0, 1.0]]), 2 * q1
    one, two = _printed(_attention(q1, k1, v1)), _printed(_attention(q2, k2, v2))
    return (
        "<html><body><h1>Scaled dot-product attention</h1>"
        "<p>Return softmax(Q K^T / sqrt(d_k)) V.</p><table><tr><th>Input</th>"
        "<th>Expected Output</th></tr>"
        "<tr><td><code>Q = [[1, 0], [0, 1]], K = [[1, 1], [0, 1]], V = [[1, 2], [3, 4]]</code>"
        f"</td><td><code>{one}</code></td></tr>"
        "<tr><td><code>Q = [[1, 1], [1, 0]], K = [[0, 1], [1, 1]], V = [[2, 0], [0, 2]]</code>"
        f"</td><td><code>{two}</code></td></tr></table>"
        "<div><div>Test Case 3</div><div>Input:</div><code>attention(np.array([[1, 0], [0, 1]]), "
        "np.array([[1, 1], [0, 1]]), np.array([[1, 2], [3, 4]]))</code>"
        f"<div>Expected Output:</div><code>{one}</code></div>"
        "<div><div>Test Case 4</div><div>Input:</div><code>Q = [[1, 1], [1, 0]], "
        "K = [[0, 1], [1, 1]], V = [[2, 0], [0, 2]]</code>"
        f"<div>Expected Output:</div><code>{two}</code></div></body></html>"
    )


def test_each_test_case_of_an_exercise_is_an_example_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table cell's expected output is not the V before it; "Input:" above "Q = ..." is a
    label, not X; arrays passed to a function are what their numbers say (Q, K, V)."""
    path = tmp_path / "cases.html"
    path.write_text(_test_cases_page(), encoding="utf-8")
    assert main(["check", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if line.startswith(str(path))] == [
        f"{path}: 1 claim: 1 holds (0 exact, 1 rounded)"
    ] * 4
    assert "line 13, array 1 (2x2): an input (no relation among the printed numbers gives it)" in (
        lines
    )


@pytest.mark.parametrize(
    ("call", "role", "name"),
    [
        ('println!("{:.4}", weights);', "weights", "weights"),
        ('println!("{out}");', "output", "out"),
        ("console.log(scores);", "scores", "scores"),
        ("scores.print();\nTensor", "scores", "scores"),
    ],
)
def test_a_rust_or_javascript_print_names_the_array_printed_below_it(
    call: str, role: str, name: str
) -> None:
    reading = read(read_document(f"attention\n{call}\n[[0.25, 0.75],\n [0.5, 0.5]]\n"))
    assert [(s.role, s.name) for s in reading.seen] == [(role, name)]


def test_rows_a_program_prints_by_hand_under_a_label_are_a_matrix() -> None:
    """``print!("{:8.4}", x)`` rows under "output:"; a Julia block's rows stay the Julia
    block's, and one row under a label is no matrix."""
    text = (
        "output:\n  1.8639   6.3194\n  1.9991   7.8141\n\n"
        "julia> W\n2×2 Matrix{Float64}:\n 0.5  0.5\n 0.25  0.75\n\nStep 1:\n1 2\n"
    )
    assert [(role, kind, rows) for role, kind, rows, _ in _seen(text)] == [
        ("output", "boxed", (("1.8639", "6.3194"), ("1.9991", "7.8141"))),
        ("unnamed", "julia", (("0.5", "0.5"), ("0.25", "0.75"))),
    ]


def test_a_call_s_arguments_are_read_one_by_one_not_as_a_batch() -> None:
    text = "Input: attention([[1,0],[0,1]],[[1,1],[0,1]],[[1,2],[3,4]])\n"
    assert [(role, rows) for role, _, rows, _ in _seen(text)] == [
        ("unnamed", (("1", "0"), ("0", "1"))),
        ("unnamed", (("1", "1"), ("0", "1"))),
        ("unnamed", (("1", "2"), ("3", "4"))),
    ]


def test_a_test_case_nothing_explains_is_left_alone_not_the_page_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The example's output is off at the fourth decimal (1.66082 for 1.660477): wrong; the
    test case repeats it with its arrays unnamed, so no relation and no name places it."""
    path = tmp_path / "lab.md"
    path.write_text(
        "# Scaled dot-product attention\n\n"
        "Q = K = [[1,0],[0,1]] V = [[1,2],[3,4]] → Output ≈ [[1.66082, 2.66082], "
        "[2.33918, 3.33918]]\n\nCase 1: identity Q, K\n\n"
        "Input: attention([[1,0],[0,1]],[[1,0],[0,1]],[[1,2],[3,4]])\n\n"
        "Expected: [[1.66082, 2.66082], [2.33918, 3.33918]]\n",
        encoding="utf-8",
    )
    assert main(["check", str(path)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 1 claim: 0 hold (0 exact, 0 rounded), 1 wrong"
    )
