"""Pages that mask the weights after the softmax (A ∘ M, then each row over its sum) and apply
dropout to them (the printed zeros dropped, the rest times 1/(1-p)): the relations are found
from the numbers alone, the spec says weights_mask and dropout, and every printed entry is
judged, a slipped digit reported wrong with the right value. Truths with numpy; dropout's
draw from torch where it is installed."""

from __future__ import annotations

import numpy as np
import pytest

from mha_symbolic import check
from mha_symbolic.extract import extract_all

RNG = np.random.default_rng(7)
SCORES = RNG.normal(size=(4, 4))
TRIL = np.tril(np.ones((4, 4)))
KEEP = np.array([[1, 1, 0, 1], [0, 1, 1, 0], [1, 0, 1, 1], [1, 1, 0, 1]])
VALUES = np.array([[1.0, 0.5], [0.0, 2.0], [1.5, -1.0], [0.5, 0.5]])


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def text(a: np.ndarray, digits: int = 4) -> str:
    return "[" + ", ".join("[" + ", ".join(f"{x:.{digits}f}" for x in r) + "]" for r in a) + "]"


WEIGHTS = np.round(softmax(SCORES), 4)  # the page's weights, as it prints them
KEPT = WEIGHTS * TRIL
NORMED = KEPT / KEPT.sum(axis=1, keepdims=True)
DROPPED = NORMED * KEEP * 2
OUTPUT = DROPPED @ VALUES


def page(
    dropped: str = text(DROPPED), normed: str = text(NORMED), output: str = text(OUTPUT)
) -> str:
    return f"""# Masking after the softmax, then dropout

The attention weights of four tokens:

A = {text(WEIGHTS)}

The lower triangle of ones:

M = {text(TRIL, 0)}

masked = {text(KEPT)}

Each row over its sum:

normed = {normed}

Dropout during training, half the weights dropped:

dropped = {dropped}

The values:

V = {text(VALUES, 1)}

out = {output}
"""


def test_the_numbers_say_mask_after_the_softmax_renormalise_and_dropout() -> None:
    (one,) = extract_all(page())
    mask = "line 5 times the 0/1 mask (line 9) after the softmax"
    also = "line 5 times the 0/1 mask (causal) after the softmax"
    assert [str(line) for line in one.inferred] == [
        "line 5 A (4x4): an input (no relation among the printed numbers gives it)",
        "line 9 (4x4): an input (no relation among the printed numbers gives it)",
        f"line 11 (4x4) = {mask}: holds to 4 digits; as well: {also}",
        f"line 15 (4x4) = {mask}, each row divided by its sum: holds to 4 digits; as well: "
        f"{also}, each row divided by its sum",
        "line 19 (4x4) = dropout of line 15 at p = 1/2 (the printed zeros dropped, the rest "
        "times 1/(1-p)): holds to 4 digits",
        "line 23 V (4x2): an input (no relation among the printed numbers gives it)",
        "line 25 out (4x2) = line 19 × line 23: holds to 4 digits",
    ]
    spec = one.spec
    assert spec.operations["weights_mask"].tolist() == TRIL.astype(int).tolist()
    setting = spec.operations["dropout"]
    assert str(setting.p) == "1/2"
    kept_where = np.array(setting.keep[0].tolist(), dtype=int)
    np.testing.assert_array_equal(kept_where, KEEP * TRIL)  # where the mask made 0s too
    report = check(spec)
    assert [(v.claim.key, v.verdict) for v in report.claims] == [
        ("head1.kept", "exact"),
        ("head1.renormalised", "rounded"),
        ("head1.dropped", "rounded"),
        ("output", "rounded"),
    ]


def _judged(spec: object, step: str) -> list[tuple[str, str]]:
    (claim,) = [v for v in check(spec).claims if v.claim.key == step]
    return [(e.verdict, f"{float(e.exact):.4f}") for e in claim.entries]


def test_a_slipped_digit_in_the_dropped_weights_is_wrong_with_the_right_value() -> None:
    right = f"{DROPPED[2, 2]:.4f}"
    slipped = text(DROPPED).replace(right, right[:-2] + str((int(right[-2]) + 3) % 10) + right[-1])
    (one,) = extract_all(page(dropped=slipped))
    judged = _judged(one.spec, "head1.dropped")
    wrong = [(i, value) for i, (verdict, value) in enumerate(judged) if verdict == "wrong"]
    assert wrong == [(10, right)]


def test_a_slipped_digit_in_the_renormalised_weights_is_wrong_with_the_right_value() -> None:
    right = f"{NORMED[3, 1]:.4f}"
    slipped = text(NORMED).replace(right, right[:-2] + str((int(right[-2]) + 5) % 10) + right[-1])
    (one,) = extract_all(page(normed=slipped))
    judged = _judged(one.spec, "head1.renormalised")
    wrong = [(i, value) for i, (verdict, value) in enumerate(judged) if verdict == "wrong"]
    assert wrong == [(13, right)]


def test_zeros_that_are_no_dropout_make_none() -> None:
    """The causal weights printed after the weights: zeros where the weights are not 0, but
    the other entries are no one multiple of them (each row is divided by its own sum)."""
    causal = f"""# The attention weights, then the causal ones

A = {text(WEIGHTS)}

B = {text(NORMED)}
"""
    (one,) = extract_all(causal)
    assert one.spec.operations["dropout"] is None
    assert [str(line) for line in one.inferred][1] == (
        "line 5 (4x4) = line 3 times the 0/1 mask (causal) after the softmax, each row "
        "divided by its sum: holds to 4 digits"
    )


def test_scaled_scores_with_zeros_are_the_scale_not_a_dropout_of_the_softmax() -> None:
    """QK^T with zero entries divided by √2, printed to 2 digits: a dropout of the softmax of
    QK^T at some rate also holds within the printed digits (the zeros where it drops, the
    rest near 1/(1-p) times a weight); the scale, the simpler account, is the one chosen."""
    scaled = r"""# Scores, then scaled

$$Q = \begin{bmatrix} 1 & 0 \\ 1 & 0 \\ 0 & 1 \end{bmatrix}, \quad
K = \begin{bmatrix} 1 & 0 \\ 0 & 0 \\ 1 & 0 \end{bmatrix}$$

$$QK^T = \begin{bmatrix} 1.0 & 0.0 & 1.0 \\ 1.0 & 0.0 & 1.0 \\ 0.0 & 0.0 & 0.0 \end{bmatrix}$$

$$\frac{QK^T}{\sqrt{2}} = \begin{bmatrix} 0.71 & 0.00 & 0.71 \\ 0.71 & 0.00 & 0.71 \\
0.00 & 0.00 & 0.00 \end{bmatrix}$$
"""
    (one,) = extract_all(scaled)
    assert one.spec.operations["dropout"] is None
    assert [str(line) for line in one.inferred][
        -1
    ] == "line 8 (3x3) = line 6 / √2: holds to 2 digits"


def test_torchs_own_draw_is_read_back_from_the_printed_zeros() -> None:
    torch = pytest.importorskip("torch", reason="torch is optional")
    torch.manual_seed(123)
    weights = torch.tensor(NORMED, dtype=torch.float64)
    dropped = torch.nn.functional.dropout(weights, p=0.5, training=True).numpy()
    (one,) = extract_all(page(dropped=text(dropped), output=text(dropped @ VALUES)))
    setting = one.spec.operations["dropout"]
    assert str(setting.p) == "1/2"
    drawn = (dropped != 0).astype(int)
    np.testing.assert_array_equal(np.array(setting.keep[0].tolist(), dtype=int), drawn)
    assert check(one.spec).ok


def test_the_masked_weights_row_sums_are_claimed_on_their_own_step() -> None:
    """The row sums a page prints to show that masked rows no longer add up to 1: judged as
    ``head1.kept_sums`` (no step of the model: the kept weights' sums), a wrong one found."""
    sums = KEPT.sum(axis=1)
    row = "[" + ", ".join(f"{x:.4f}" for x in sums) + "]"
    wrong = row.replace(f"{sums[2]:.4f}", f"{sums[2] + 0.01:.4f}")
    for printed, verdicts in ((row, ["exact"] * 4), (wrong, ["exact", "exact", "wrong", "exact"])):
        (one,) = extract_all(page().replace("Each row over its sum:", f"sums = {printed}\n"))
        assert one.spec.claims["head1.kept_sums"] == printed
        (claim,) = [v for v in check(one.spec).claims if v.claim.key == "head1.kept_sums"]
        assert [e.verdict for e in claim.entries] == verdicts


def test_dropout_of_weights_the_page_never_prints() -> None:
    """Scores printed, their softmax not: the dropped-out weights are still found from them."""
    scores = np.round(SCORES, 4)
    dropped = softmax(scores) * KEEP * 2
    only = f"""# Attention with dropout

The attention scores:

S = {text(scores)}

The attention weights after dropout (p = 0.5), from the softmax of S:

D = {text(dropped)}
"""
    (one,) = extract_all(only)
    assert [str(line) for line in one.inferred][1] == (
        "line 9 (4x4) = dropout of softmax(line 5, by rows) at p = 1/2 (the printed zeros "
        "dropped, the rest times 1/(1-p)): holds to 4 digits"
    )
    assert [(v.claim.key, v.verdict) for v in check(one.spec).claims] == [
        ("head1.dropped", "rounded")
    ]


def test_whole_numbers_and_small_arrays_are_no_dropout() -> None:
    """A 0/1 (or 0/2) matrix after two-token weights fits some rate by chance: no dropout; nor
    a 2 x 2 print, too few entries to tell one."""
    from mha_symbolic.extract.finder import find_items
    from mha_symbolic.extract.formats import read_document
    from mha_symbolic.extract.infer.after_softmax import dropout_for
    from mha_symbolic.extract.infer.intervals import printed_arrays
    from mha_symbolic.extract.infer.relations import printed_node

    def arrays(page: str) -> list:
        return printed_arrays(find_items(read_document(page))[1], 10)

    two, doubled = "[[0.7311, 0.2689], [0.2689, 0.7311]]", "[[1.4622, 0], [0, 1.4622]]"
    a, b = arrays(f"a = {two}\n\nb = {doubled}\n")
    assert dropout_for(printed_node(a), b) is None  # two kept: too few
    c, d = arrays(f"c = {text(NORMED)}\n\nd = {text(KEEP * TRIL * 2, 0)}\n")
    assert dropout_for(printed_node(c), d) is None  # whole numbers
    c, d = arrays(f"c = {text(NORMED)}\n\nd = {text(DROPPED)}\n")
    made = dropout_for(printed_node(c), d)
    assert made is not None and (made.detail, made.factor) == ("1/2", 2.0)


def test_a_bare_row_of_the_masked_weights_is_that_row() -> None:
    """A row printed in the prose with no name ("the first row keeps only its own weight"):
    the one row of a step its numbers give, here the masked weights' first."""
    first = f"[{KEPT[0, 0]:.2f}, 0.0, 0.0, 0.0]"
    said = f"The first row keeps only its own weight, {first}.\n\nEach row over its sum:"
    (one,) = extract_all(page().replace("Each row over its sum:", said))
    assert one.spec.claims["head1.kept[1]"] == first
    (claim,) = [v for v in check(one.spec).claims if v.claim.key == "head1.kept[1]"]
    assert claim.verdict == "rounded"
