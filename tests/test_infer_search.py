"""The relation search on whole small documents: the scores of printed Q and K scaled without
being printed, a forgotten transpose (Q K) located as a relation, A Vᵀ read as a head's output,
and a page of many square arrays searched to the end within the bound. Truths with numpy."""

from __future__ import annotations

import numpy as np
import sympy as sp

from mha_symbolic import check
from mha_symbolic.extract import extract_all
from mha_symbolic.extract.finder import find_items
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.infer import inferred, where_of
from mha_symbolic.extract.infer.mapping import capped, said_lines


def text(a: np.ndarray, decimals: int = 4) -> str:
    return (
        "[" + ", ".join("[" + ", ".join(f"{x:.{decimals}f}" for x in row) + "]" for row in a) + "]"
    )


def softmax(s: np.ndarray, axis: int = 1) -> np.ndarray:
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


Q = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
K = np.array([[0.0, 1.0, 1.0], [2.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
V = np.array([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0], [2.0, 0.0, 1.0]])
WRONG_SCALED = Q @ K / np.sqrt(3)  # the transpose forgotten
BY_COLUMNS = softmax(WRONG_SCALED, axis=0)
MISTAKES = f"""# Three mistakes

Q = {text(Q)}

K = {text(K)}

V = {text(V)}

scaled = {text(WRONG_SCALED)}

weights = {text(BY_COLUMNS)}

output = {text(BY_COLUMNS @ V.T)}
"""


def _said(document_text: str) -> tuple[list[str], dict[int, str | None]]:
    document = read_document(document_text)
    _, items = find_items(document)
    inference = inferred(items, {})
    (members,) = inference.components
    said = said_lines(inference, members, {}, where_of(document, items))
    return [str(line) for line in said], {i: inference.roles.get(i) for i in members}


def test_the_mistakes_are_relations_of_one_example() -> None:
    """Q K / √3 (no transpose), a softmax down the columns and A Vᵀ: each found, so that the
    whole page is one example starting at Q, K and V (V named by the product A Vᵀ)."""
    said, roles = _said(MISTAKES)
    assert said[3:] == [
        "line 9 (3x3) = (line 3 × line 5) / √3: holds to 4 digits",
        "line 11 (3x3) = softmax(line 9, by columns): holds to 4 digits",
        "line 13 (3x3) = line 11 × line 7ᵀ: holds to 4 digits",
    ]
    assert list(roles.values()) == ["q", "k", "v", "scaled", "weights", "head.output"]


SCORES = Q @ K.T
PRINTED_QK = f"""# Scores never printed

Q = {text(Q)}

K = {text(K)}

V = {text(V)}

A = {text(softmax(SCORES / np.sqrt(3)))}
"""


def test_weights_of_printed_q_and_k_whose_scores_are_not_printed() -> None:
    said, roles = _said(PRINTED_QK)
    assert said[-1] == "line 9 (3x3) = softmax((line 3 × line 5ᵀ) / √3, by rows): holds to 4 digits"
    assert roles == {0: "q", 1: "k", 3: "weights"}


def hostile_notebook(arrays: int, size: int = 3, seed: int = 0) -> str:
    """A notebook printing ``arrays`` random (size x size) arrays, one per output, with the
    words of attention around them (a hostile page: every pair is worth a try)."""
    import json

    rng = np.random.default_rng(seed)
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# Attention, softmax\n"]}]
    for n in range(arrays):
        block = np.array2string(rng.normal(size=(size, size)), precision=4, separator=", ")
        cells.append(
            {
                "cell_type": "code",
                "execution_count": n + 1,
                "metadata": {},
                "source": [f"scores_{n} = attention_scores(Q, K)\n", f"scores_{n}"],
                "outputs": [
                    {
                        "output_type": "execute_result",
                        "execution_count": n + 1,
                        "metadata": {},
                        "data": {"text/plain": [f"array({block})"]},
                    }
                ],
            }
        )
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(notebook, indent=1)


def test_a_page_of_hundreds_of_arrays_says_the_search_stopped_at_its_bound() -> None:
    document = read_document(hostile_notebook(260), kind="ipynb")
    _, items = find_items(document)
    inference = inferred(items, {})
    assert inference.search.capped
    assert [p.index for p in inference.search.arrays][-1] == 199
    assert str(capped(inference)) == (
        "the relation search stopped at its bound (200 arrays, 60000 relations): "
        "later arrays are not explained"
    )


RAW = np.array(
    [
        [1.27232943, -1.92447047, -8.25559166, -10.2962948, 6.887794, 5.53096911],
        [-0.69004407, -1.15176353, -2.35481306, -8.2524235, 5.06738728, 5.58817185],
        [-6.83277738, -3.60222434, 0.96346666, -32.5417745, 18.8925147, 24.8136767],
        [-6.38568534, -5.35246058, -5.27967452, -42.9283892, 25.6190627, 30.9582266],
        [4.81260402, -1.17481934, -12.2301061, -0.47359126, 1.57676188, -2.95740792],
        [2.99170296, 0.3170792, -4.34330692, 6.30654508, -3.21940552, -5.93541324],
    ]
)


def test_a_result_of_rounded_printed_scores_holds_where_their_rounding_explains_it() -> None:
    """Scores printed to 2 decimals, then divided by √2 and printed to 2 decimals (a numpy
    notebook's): taken as exact, 8 of 36 entries miss by more than half a digit, too many
    for slips; the rounding of the printed scores explains every one."""
    raw, scaled = np.round(RAW, 2), np.round(RAW / np.sqrt(2), 2)
    assert (np.abs(raw / np.sqrt(2) - scaled) > 0.005).sum() == 8
    page = f"# Scaling\n\nraw = {text(raw, 2)}\n\nscaled = {text(scaled, 2)}\n"
    said, _ = _said(page)
    assert said == [
        "line 3 (6x6): an input (no relation among the printed numbers gives it)",
        "line 5 (6x6) = line 3 / √2: holds to 2 digits",
    ]


def test_scores_of_a_batch_element_checked_at_the_scale_their_numbers_follow() -> None:
    """A numpy notebook's batch (2, 3, 2) named X, and one element's scores printed to 2
    decimals, scaled by 1/√2 (a head's width), softmaxed: the batch is no sequence of 6
    tokens; the example starts at the printed scores, at the scale the numbers follow, its
    inputs known to their printed digits (so that their rounding is not called a mistake)."""
    raw = np.round(RAW, 2)
    scaled = np.round(RAW / np.sqrt(2), 2)
    weights = np.round(softmax(RAW / np.sqrt(2)), 2)
    batch = np.array2string(np.arange(12.0).reshape(2, 3, 2) / 4, separator=" ")
    page = "\n".join(
        [
            "# Attention on a batch",
            "",
            "```",
            f"X = {batch}",
            "```",
            "",
            f"Raw scores = {text(raw, 2)}",
            "",
            f"Scaled scores = {text(scaled, 2)}",
            "",
            f"Attention weights = {text(weights, 2)}",
            "",
        ]
    )
    (one,) = extract_all(page)
    assert (one.spec.scale, one.spec.inputs, one.spec.stage) == (
        sp.Integer(1) / sp.sqrt(2),
        "printed",
        "scores",
    )
    assert sorted(one.spec.claims) == ["head1.scaled", "head1.weights"]
    assert check(one.spec).ok


def test_numbers_overrule_a_name_when_the_relation_uses_only_printed_arrays() -> None:
    """A table headed "k:..." holds Q Kᵀ / √3 of the printed Q and K, one headed "v:..." its
    softmax: their names say K and V, their numbers say scaled scores and weights."""
    q, k = Q[:, :2], K[:, :2]
    scaled = q @ k.T / np.sqrt(3)
    page = (
        f"# Scores\n\nQ = {text(q)}\n\nK = {text(k)}\n\nk = {text(scaled)}\n\n"
        f"v = {text(softmax(scaled))}\n"
    )
    document = read_document(page)
    _, items = find_items(document)
    inference = inferred(items, {0: "q", 1: "k", 2: "k", 3: "v"})
    assert inference.components == [[0, 1, 2, 3]]
    assert inference.roles == {0: "q", 1: "k", 2: "scaled", 3: "weights"}


def _rounded_operands_page() -> tuple[str, np.ndarray]:
    """Q and K a program printed to 4 decimals (their weights never shown), and the scores it
    printed from the unrounded Q and K: most entries miss the product of the printed digits
    in the fourth decimal, every one lies within their rounding."""
    rng = np.random.default_rng(5)
    q, k = rng.normal(scale=2.0, size=(3, 4)), rng.normal(scale=2.0, size=(3, 4))
    scores = q @ k.T
    page = (
        "# Keys and queries\n\n```\nprint(K)\n```\n\n"
        f"K = {text(k)}\n\n```\nprint(Q)\n```\n\nQ = {text(q)}\n\n"
        f"```\nS = Q @ K.T\n```\n\nS = {text(scores)}\n"
    )
    return page, scores


def test_a_product_of_operands_printed_rounded_holds_within_their_rounding() -> None:
    """S = Q Kᵀ holds at the printed digits only with Q and K taken as their roundings: tried
    again so even when fewer than half of its entries hold with the digits as exact."""
    page, scores = _rounded_operands_page()
    _, items = find_items(read_document(page))
    q, k = (np.array(items[n].rows, dtype=float) for n in (1, 0))
    from_digits = np.round(q @ k.T, 4)
    assert (from_digits != np.round(scores, 4)).sum() * 2 > scores.size  # most miss
    said, roles = _said(page)
    assert any("× line" in line and "holds to 4 digits" in line for line in said), said
    assert roles[2] == "scores", roles


def test_a_scale_no_width_gives_is_read_from_the_ratio_of_two_prints() -> None:
    """res / np.sqrt(K.shape[0] + K.shape[1]): the scaled scores are the scores times 1/√6 at
    every entry, a scale no width of the page (3) gives; read from the two prints, then
    checked as any scale is (the page was left with no result: nothing related the two)."""
    scores = np.array(
        [[0.6309, 0.5805, 0.9265], [0.5875, 0.5434, 0.8618], [0.9268, 0.8652, 1.3736]]
    )
    scaled = scores / np.sqrt(6)
    page = (
        "# Scores\n\n```\nres = np.dot(Q, K.T)\n```\n\n"
        f"res = {text(scores)}\n\n```\nres = res / np.sqrt(K.shape[0] + K.shape[1])\n```\n\n"
        f"res = {text(scaled)}\n\n```\nres = softmax(res, axis=1)\n```\n\n"
        f"res = {text(softmax(scaled))}\n"
    )
    said, roles = _said(page)
    assert any("/ √6: holds" in line for line in said), said
    assert roles[1] == "scaled" and roles[2] == "weights", roles
    slipped = page.replace(f"{scaled[1, 1]:.4f}", f"{scaled[1, 1] + 0.01:.4f}")
    said, _ = _said(slipped)
    assert any("/ √6: holds except at [2,2]" in line for line in said), said
