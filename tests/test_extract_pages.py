"""Pages of multi-head work by hand: entries in bold or colour, tables printed side by side in
one Markdown table, a name after a matrix on the same statement, a fused Q cut into heads, the
heads joined and projected by a symmetric W_O, and a page whose extra arrays (a LayerNorm, an
FFN) would spend the search's budget. Truths with numpy."""

from __future__ import annotations

import numpy as np
import pytest

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.items import entry
from mha_symbolic.extract.reading import read


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def bmatrix(a: np.ndarray, decimals: int = 4, bold: tuple[int, int] | None = None) -> str:
    def cell(i: int, j: int) -> str:
        x = f"{a[i, j]:.{decimals}f}" if decimals else f"{a[i, j]:g}"
        return f"\\mathbf{{{x}}}" if (i, j) == bold else x

    rows = [" & ".join(cell(i, j) for j in range(a.shape[1])) for i in range(a.shape[0])]
    return "\\begin{bmatrix} " + " \\\\ ".join(rows) + " \\end{bmatrix}"


def md_rows(*blocks: tuple[str, np.ndarray]) -> str:
    """Markdown tables side by side: each block a corner name, column heads and its rows."""
    rows = blocks[0][1].shape[0]
    head = " | | ".join(
        f"{name} | " + " | ".join(f"c{j + 1}" for j in range(a.shape[1])) for name, a in blocks
    )
    lines = [f"| {head} |", "|" + "---|" * (head.count("|") + 1)]
    for i in range(rows):
        cells = " | | ".join(
            f"**t{i + 1}** | " + " | ".join(f"{x:.4f}" for x in a[i]) for _, a in blocks
        )
        lines.append(f"| {cells} |")
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("\\mathbf{0.0060}", "0.0060"),
        ("\\textbf{-1.5}", "-1.5"),
        ("\\textcolor{red}{0.25}", "0.25"),
        ("\\color{blue} 0.75", "0.75"),
        ("\\boxed{\\mathbf{2}}", "2"),
        ("**0.8490**", "0.8490"),
        ("\\mathbf{x}", None),
        ("**word**", None),
    ],
)
def test_an_entry_in_bold_colour_or_a_box_is_its_number(text: str, number: str | None) -> None:
    assert entry(text) == number


def test_a_matrix_with_a_bold_entry_is_read() -> None:
    a = np.array([[0.006, 0.849, 0.145], [0.825, 0.034, 0.141]])
    page = f"attention\n\n$$A = {bmatrix(a, 3, bold=(0, 1))}$$\n"
    (seen,) = read(read_document(page, "md")).seen
    assert (seen.role, seen.item.rows) == (
        "weights",
        (("0.006", "0.849", "0.145"), ("0.825", "0.034", "0.141")),
    )


def test_tables_side_by_side_are_read_apart_each_named_by_its_corner() -> None:
    s = np.array([[0.4, 0.2], [0.1, 0.3]])
    page = "attention\n\n" + md_rows(("$S_1$", s), ("$A_1$", softmax(s))) + "\n"
    seen = read(read_document(page, "md")).seen
    assert [(x.role, x.head, x.name, x.item.shape) for x in seen] == [
        ("scores", 1, "S_1", (2, 2)),
        ("weights", 1, "A_1", (2, 2)),
    ]
    assert seen[0].item.start < seen[1].item.start  # the left block first


def test_a_name_after_a_matrix_in_one_statement_is_its_own() -> None:
    page = (
        "attention\n\n$$\nQ = XW^Q = \\begin{bmatrix} 1 & 2 \\end{bmatrix},\\quad\n"
        "K = XW^K = \\begin{bmatrix} 3 & 4 \\end{bmatrix}\n$$\n"
    )
    assert [(s.role, s.name) for s in read(read_document(page, "md")).seen] == [
        ("q", "Q"),
        ("k", "K"),
    ]


X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]])
WQ = np.array([[1, 1, -1, 1], [-1, 0, 0.5, -0.5], [1, 0, 0, 0.5], [0, -1, 1, 0]])
WK = np.array([[-0.5, -0.5, -1, 0.5], [1, 1, -0.5, -1], [-1, 0.5, 0, 1], [0, 1, 0.5, 0]])
WV = np.array([[-1, -1, -1, 0.5], [-0.5, 0.5, -0.5, -0.5], [1, -1, -1, 0.5], [0, 0, 0, 1]])
WO = np.array([[1, 0, 0.5, -0.5], [0, 1, -0.5, 0.5], [0.5, -0.5, 1, 0], [-0.5, 0.5, 0, 1]])


def _heads() -> tuple[list[dict[str, np.ndarray]], np.ndarray, np.ndarray]:
    q, k, v = X @ WQ, X @ WK, X @ WV
    heads = []
    for h in range(2):
        cut = slice(2 * h, 2 * h + 2)
        scores = q[:, cut] @ k[:, cut].T
        weights = softmax(scores / np.sqrt(2))
        heads.append({"q": q[:, cut], "k": k[:, cut], "v": v[:, cut], "s": scores, "a": weights})
        heads[-1]["o"] = weights @ v[:, cut]
    concat = np.hstack([h["o"] for h in heads])
    return heads, concat, concat @ WO


def _fused_page() -> str:
    heads, concat, out = _heads()
    parts = [
        "# Two heads by hand\n",
        f"$$X = {bmatrix(X, 0)}$$\n",
        f"$$W^Q = {bmatrix(WQ, 0)},\\quad\nW^K = {bmatrix(WK, 0)}$$\n",
        f"$$W^V = {bmatrix(WV, 0)},\\quad\nW^O = {bmatrix(WO, 0)}$$\n",
        f"$$Q = XW^Q = {bmatrix(X @ WQ, 0)},\\quad\nK = XW^K = {bmatrix(X @ WK, 0)}$$\n",
        f"$$V = XW^V = {bmatrix(X @ WV, 0)}$$\n",
    ]
    for n, h in enumerate(heads, start=1):
        parts += [
            f"## Head {n}\n",
            f"$$Q_{n} = {bmatrix(h['q'], 0)},\\quad K_{n} = {bmatrix(h['k'], 0)},\\quad "
            f"V_{n} = {bmatrix(h['v'], 0)}$$\n",
            f"$$Q_{n}K_{n}^\\top = {bmatrix(h['s'], 0)}$$\n",
            f"$$A_{n} = \\text{{softmax}}(\\cdot) = {bmatrix(h['a'], bold=(0, 0))}$$\n",
            f"$$\\text{{head}}_{n} = A_{n}V_{n} = {bmatrix(h['o'])}$$\n",
        ]
    parts += [
        f"$$[\\text{{head}}_1; \\text{{head}}_2] = {bmatrix(concat)}$$\n",
        f"$$\\boxed{{\\text{{MultiHead}}(X) = {bmatrix(out)}}}$$\n",
    ]
    return "\n".join(parts)


def test_a_fused_q_cut_into_two_heads_gives_each_head_its_own_arrays() -> None:
    """Q_1 and Q_2 are columns of the printed Q: the cut links neither head to the other, so
    two heads are found; W_O is symmetric, and the output is the concatenation times W_O as
    printed (not W_O times its transpose, printed transposed)."""
    (one,) = extract_all(_fused_page())
    assert one.spec.heads == 2
    assert sorted(one.spec.claims) == sorted(
        ["q", "k", "v", "concat", "output"]
        + [f"head{h}.{s}" for h in (1, 2) for s in ("q", "k", "v", "scores", "weights", "output")]
    )
    said = [str(line) for line in one.inferred]
    assert said[-2:] == [
        "line 36 (3x4) = [line 24 | line 34]: holds to 4 digits",
        "line 38 (3x4) = line 36 × line 9: holds to 4 digits",
    ]
    assert check(one.spec).ok


def _tables_page() -> str:
    heads, concat, out = _heads()
    weights = " ".join(
        f"$$W_{n}^{r} = {bmatrix(w[:, 2 * n - 2 : 2 * n], 1)}$$"
        for n in (1, 2)
        for r, w in (("Q", WQ), ("K", WK), ("V", WV))
    )
    h1, h2 = heads
    return "\n\n".join(
        [
            "# Two heads in tables: softmax and attention",
            f"$$X = {bmatrix(X, 0)}$$",
            weights,
            f"$$W^O = {bmatrix(WO, 1)}$$",
            "**Head 1**\n\n" + md_rows(("", h1["q"]), ("", h1["k"]), ("", h1["v"])),
            "Scores and weights\n\n" + md_rows(("$S_1$", h1["s"] / np.sqrt(2)), ("$A_1$", h1["a"])),
            "$\\text{head}_1 = A_1V_1$\n\n" + md_rows(("", h1["o"])),
            "**Head 2**\n\n" + md_rows(("$A_2$", h2["a"]), ("$\\text{head}_2$", h2["o"])),
            "**Joined, then through $W^O$ (concat)**\n\n"
            + md_rows(("concat", concat), ("$\\text{MultiHead}(X)$", out)),
            "",
        ]
    )


def test_heads_joined_side_by_side_and_projected_are_the_concat_and_the_output() -> None:
    """Heads in tables side by side, then "concat | MultiHead(X)": the left block is the two
    heads' outputs joined (their earlier prints side by side), the right one that times W_O:
    the output, although the caption and the name "MultiHead" both say concat."""
    (one,) = extract_all(_tables_page())
    assert one.spec.heads == 2
    assert sorted(one.spec.claims) == sorted(
        [
            *("concat", "output", "head1.q", "head1.k", "head1.v", "head1.scaled"),
            *("head1.weights", "head1.output", "head2.weights", "head2.output"),
        ]
    )
    said = [str(line) for line in one.inferred]
    assert said[-2:] == [
        "line 45, array 1 concat (3x4) = [line 29 | line 37, array 2]: holds to 4 digits",
        "line 45, array 2 (3x4) = line 45, array 1 × line 7: holds to 4 digits",
    ]
    assert check(one.spec).ok


def test_arrays_after_the_heads_leave_the_heads_found() -> None:
    """The same page, then a LayerNorm and an FFN printed as tables of the same rows (arrays
    no relation of attention explains): the search, bounded, still finds both heads, the
    concatenation and the output, since the likely scales and the earlier arrays go first and
    the scores' stage leaves budget for the weighted sums after it."""
    rng = np.random.default_rng(7)
    extra = "\n\n".join(
        f"### Step {n}\n\n" + md_rows(("", rng.normal(size=(3, width))))
        for n, width in enumerate((4, 6, 4, 8, 8, 4, 4, 4), start=1)
    )
    (one,) = extract_all(_tables_page() + "\n\n" + extra + "\n")
    assert one.spec.heads == 2
    assert {"concat", "output", "head2.output"} <= set(one.spec.claims)
    assert check(one.spec).ok


def test_a_mark_after_a_number_is_no_part_of_it() -> None:
    assert [entry(t) for t in ("**0.4184** ✗", "0.7503 ✓", "1.0000 \\checkmark")] == [
        "0.4184",
        "0.7503",
        "1.0000",
    ]


def test_a_last_column_of_row_totals_is_read_apart_from_the_weights() -> None:
    """A table of weights with a last column "sum" (each row's total, 1.0000): the weights are
    the 3x3 matrix the softmax gives, the totals a row of their own (the weights' row sums,
    checked as such), never a fourth column of weights."""
    s = np.array([[0.2, 0.1, 0.3], [0.0, 0.4, 0.2], [0.2, -0.1, 0.4]])
    a = softmax(s)
    lines = ["| | a | b | c | sum |", "|---|---|---|---|---|"]
    lines += [
        f"| **t{i}** | " + " | ".join(f"{x:.4f}" for x in row) + f" | {row.sum():.4f} |"
        for i, row in enumerate(a)
    ]
    page = "Attention scores\n\n" + md_rows(("$S$", s)) + "\n\nsoftmax\n\n" + "\n".join(lines)
    (one,) = extract_all(page + "\n")
    assert [str(line) for line in one.inferred] == [
        "line 5 (3x3): an input (no relation among the printed numbers gives it)",
        "line 13, array 1 (3x3) = softmax(line 5, by rows): holds to 4 digits",
        "line 13, array 2 (1x3) = the row sums of line 13, array 1: holds to 4 digits",
    ]
    assert sorted(one.spec.claims) == ["head1.weight_sums", "head1.weights"]
    assert check(one.spec).ok


def test_whole_numbers_that_add_up_stay_one_matrix() -> None:
    page = "attention\n\n| | a | b | n |\n|---|---|---|---|\n| x | 1 | 0 | 1 |\n| y | 1 | 1 | 2 |\n"
    (seen,) = read(read_document(page, "md")).seen
    assert seen.item.rows == (("1", "0", "1"), ("1", "1", "2"))


def test_a_notebooks_prompts_in_its_html_export_are_no_arrays() -> None:
    """nbsphinx prints each cell's execution count ("[7]:", "Out[7]:") on a line of its own:
    an execution count, never a 1x1 array named by the prose above it."""
    page = (
        "<html><body><p>Next come the weights of the attention, take these:</p>"
        "<div class='prompt'>[7]:</div><pre>WQ = torch.tensor([[0.5, 0.25], [1.0, 0.0]])</pre>"
        "<div class='prompt'>Out[8]:</div>"
        "<pre>tensor([[0.5000, 0.2500],\n        [1.0000, 0.0000]])</pre></body></html>"
    )
    seen = read(read_document(page, "html")).seen
    assert [s.item.shape for s in seen] == [(2, 2), (2, 2)]


def test_a_printed_mask_the_softmax_applies_is_given_never_a_claim() -> None:
    """A padding mask of 0 and -inf under words about the softmax: the numbers show it is the
    mask of softmax(S + M), so it is given, not claimed as weights (and called wrong)."""
    s = np.array(
        [[0.4, 0.2, 0.25, 0.02], [0.1, 0.3, -0.1, 0.5], [0.2, -0.2, 0.3, 0.1], [0, 0.6, 0.1, 0]]
    )
    allowed = np.array([True, True, True, False])
    a = softmax(np.where(allowed, s, -np.inf))
    mask = " \\\\ ".join(" & ".join(("0", "0", "0", "-\\infty")) for _ in range(4))
    page = "\n\n".join(
        [
            "The softmax must give no weight to the pad, so it is masked:",
            f"$$M = \\begin{{bmatrix}} {mask} \\end{{bmatrix}}$$",
            f"Scores\n\n$$S = {bmatrix(s)}$$",
            f"$$A = \\text{{softmax}}(S + M) = {bmatrix(a)}$$",
            "",
        ]
    )
    (one,) = extract_all(page)
    assert sorted(one.spec.claims) == ["head1.weights"]
    assert check(one.spec).ok
