"""A softmax worked by hand prints its pieces: e^s of each score, their sum, each division;
a weighted sum worked by hand prints each a_ij v_j. Each is claimed on a step of its own and
judged there (a slip with the right value); numbers in the same lines that are none of these
are never claimed. Q, K and V projected by hand from a given query, key and value are
results too. Exact values by hand: e^√2 = 4.11325, e^(√2/2) = 2.02811."""

from __future__ import annotations

from mha_symbolic import check
from mha_symbolic.extract import extract_all

PAGE = r"""# Attention by hand

$$
Q = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}, \quad
K = \begin{bmatrix} 2 & 0 \\ 0 & 1 \end{bmatrix}, \quad
V = \begin{bmatrix} 1 & 2 \\ 3 & 1 \end{bmatrix}
$$

$$
QK^T = \begin{bmatrix} 2 & 0 \\ 0 & 1 \end{bmatrix}, \quad
\frac{QK^T}{\sqrt{2}} = \begin{bmatrix} 1.414 & 0 \\ 0 & 0.707 \end{bmatrix}
$$

Each row, by hand:

- Row 1: $[1.414, 0]$: $e^{1.414} \approx 4.113$ and $e^{0} = 1$; sum $4.113 + 1 \approx 5.113$;
  $\frac{4.113}{5.113} \approx 0.804$ and $\frac{1}{5.113} \approx 0.196$.
- Row 2: $[0, 0.707]$: $e^{0} = 1$ and $e^{0.707} \approx 2.208$.

Aside: a step of $1.5 + 2.5 = 4.0$, and $e^{3} \approx 20.09$.

$$
0.804 \times [1,2] + 0.196 \times [3,1] = [0.80,\;1.61] + [0.59,\;0.20] = [1.39,\;1.80].
$$
"""

PIECES = {
    "head1.exp[1,1]": "4.113",
    "head1.exp[1,2]": "1",
    "head1.sums[1]": "5.113",
    "head1.weights[1,1]": "0.804",
    "head1.weights[1,2]": "0.196",
    "head1.exp[2,1]": "1",
    "head1.exp[2,2]": "2.208",
    "head1.weighted[1,1]": "[0.80, 1.61]",
    "head1.weighted[1,2]": "[0.59, 0.20]",
}


def test_the_pieces_of_a_softmax_worked_by_hand_are_claimed_where_they_belong() -> None:
    """e^{1.414} is column 1 of row 1 (the score row printed before it), the sum that of the
    row's e^s, each division the weight of the column whose e^s it divides; a_ij v_j of
    query 1 by the output row printed after them."""
    (one,) = extract_all(PAGE)
    claims = {key: str(value) for key, value in one.spec.claims.items()}
    assert {key: claims[key] for key in PIECES if key in claims} == PIECES


def test_a_slip_in_an_exponential_is_reported_with_the_right_value() -> None:
    (one,) = extract_all(PAGE)
    report = check(one.spec)
    verdicts = {c.key: c.verdict for c in report.claims}
    assert {key: verdicts[key] for key in PIECES} == {
        "head1.exp[1,1]": "rounded",
        "head1.exp[1,2]": "exact",
        "head1.sums[1]": "rounded",
        "head1.weights[1,1]": "rounded",
        "head1.weights[1,2]": "rounded",
        "head1.exp[2,1]": "exact",
        "head1.exp[2,2]": "wrong",
        "head1.weighted[1,1]": "rounded",
        "head1.weighted[1,2]": "rounded",
    }
    assert "claimed 2.208, exact e^(sqrt(2)/2) = 2.02811: wrong" in report.to_text()


def test_sums_and_exponentials_of_no_score_row_are_never_claimed() -> None:
    """1.5 + 2.5 = 4.0 adds no row's e^s, e^3 exponentiates no printed score, [1.39, 1.80]
    is the output row, not a term: none of them is claimed as a piece."""
    (one,) = extract_all(PAGE)
    pieces = [
        (key, str(value))
        for key, value in one.spec.claims.items()
        if ".exp" in key or ".sums" in key or ".weighted" in key
    ]
    assert sorted(pieces) == sorted(
        (key, value) for key, value in PIECES.items() if "weights[" not in key
    )
    assert "20.09" not in str(one.spec.claims) and "4.0" not in str(one.spec.claims)


def test_no_score_row_claimed_before_the_exponentials_claims_none() -> None:
    """Without a printed score row to stand on, e^{1.414} ≈ 4.113 could be any entry's."""
    page = PAGE.replace(r"- Row 1: $[1.414, 0]$:", "- First:").replace(
        r"- Row 2: $[0, 0.707]$:", "- Then:"
    )
    (one,) = extract_all(page)
    assert not [key for key in one.spec.claims if ".exp" in key or ".sums" in key]


TERMS = r"""# Weighting the values

$$
Q = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}, \quad
K = \begin{bmatrix} 2 & 0 \\ 0 & 1 \end{bmatrix}, \quad
V = \begin{bmatrix} 1 & 2 \\ 3 & 1 \end{bmatrix}
$$

$$
\frac{QK^T}{\sqrt{2}} = \begin{bmatrix} 1.414 & 0 \\ 0 & 0.707 \end{bmatrix}, \quad
A = \begin{bmatrix} 0.804 & 0.196 \\ 0.330 & 0.670 \end{bmatrix}
$$

Each weight, rounded, times its value row:

```
1: 0.8 * [1, 2] = [0.8, 1.6]
2: 0.2 * [3, 1] = [0.6, 0.2]
```

A wrong product and a weight of no query:

```
1: 0.8 * [1, 2] = [0.9, 1.6]
2: 0.5 * [3, 1] = [1.5, 0.5]
```
"""


def test_a_weight_times_a_value_row_written_out_is_that_term_of_its_query() -> None:
    """0.8 × v_1 and 0.2 × v_2: the weights of query 1 (0.804, 0.196) round to them, those
    of query 2 (0.330, 0.670) do not: a_11 v_1 and a_12 v_2, judged against the exact ones."""
    (one,) = extract_all(TERMS)
    terms = {k: str(v) for k, v in one.spec.claims.items() if ".weighted" in k}
    assert terms == {"head1.weighted[1,1]": "[0.8, 1.6]", "head1.weighted[1,2]": "[0.6, 0.2]"}
    verdicts = {c.key: c.verdict for c in check(one.spec).claims}
    assert verdicts == {"head1.weighted[1,1]": "rounded", "head1.weighted[1,2]": "rounded"}


def test_a_product_its_factors_do_not_make_or_a_weight_of_no_query_is_never_claimed() -> None:
    """0.8 × [1, 2] is not [0.9, 1.6]; 0.5 is no query's weight of key 2 (0.196, 0.670)."""
    (one,) = extract_all(TERMS)
    assert "[0.9, 1.6]" not in map(str, one.spec.claims.values())
    assert "[1.5, 0.5]" not in map(str, one.spec.claims.values())


AGAIN = r"""# Weights of each token

$$
X = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}
$$

Scores $S = X X^T$:

$$
S = \begin{bmatrix} 1 & 0 & 1 \\ 0 & 1 & 1 \\ 1 & 1 & 2 \end{bmatrix}
$$

Softmax of each row:

$$
A = \begin{bmatrix} 0.422 & 0.155 & 0.422 \\ 0.155 & 0.422 & 0.422 \\
0.212 & 0.212 & 0.600 \end{bmatrix}
$$

The third token attends with $[0.212, 0.212, 0.600]$; another row: $[0.212, 0.212, 0.500]$.
"""


def test_a_row_of_a_claimed_matrix_printed_again_is_that_row_slip_and_all() -> None:
    """softmax([1, 1, 2]) = [0.21194, 0.21194, 0.57612]: the page's 0.600 is a slip, and the
    vector printed again without its token is row 3 of A, digit for digit: judged there."""
    (one,) = extract_all(AGAIN)
    rows = {k: str(v) for k, v in one.spec.claims.items() if k.startswith("head1.weights[")}
    assert rows == {"head1.weights[3]": "[0.212, 0.212, 0.600]"}
    report = check(one.spec)
    assert {c.key: c.verdict for c in report.claims}["head1.weights[3]"] == "wrong"
    assert "claimed 0.600, exact e/(2 + e) = 0.57612: wrong" in report.to_text()


def test_a_vector_that_is_no_printed_row_is_not_claimed_as_one() -> None:
    """[0.212, 0.212, 0.500] is neither a row of A nor of the exact weights: left alone."""
    (one,) = extract_all(AGAIN)
    assert "[0.212, 0.212, 0.500]" not in map(str, one.spec.claims.values())


PROJECTED = r"""# One attention head, projected by hand

$$
Q = \begin{bmatrix} 1 & 2 \\ 0 & 1 \end{bmatrix},\quad
K = \begin{bmatrix} 1 & 0 \\ 1 & 1 \end{bmatrix},\quad
V = \begin{bmatrix} 2 & 0 \\ 0 & 2 \end{bmatrix}
$$

$$
W^Q_1 = \begin{bmatrix} 1 & 0 \\ 1 & 1 \end{bmatrix},\quad
W^K_1 = \begin{bmatrix} 0 & 1 \\ 1 & 0 \end{bmatrix},\quad
W^V_1 = \begin{bmatrix} 1 & 1 \\ 0 & 1 \end{bmatrix}
$$

Projections (then softmax of the scaled scores):

$$
Q_1 = \begin{bmatrix} 3 & 2 \\ 1 & 1 \end{bmatrix},\;
K_1 = \begin{bmatrix} 0 & 1 \\ 1 & 1 \end{bmatrix},\;
V_1 = \begin{bmatrix} 2 & 2 \\ 0 & 3 \end{bmatrix}
$$

$$
Q_1 K_1^T = \begin{bmatrix} 2 & 5 \\ 1 & 2 \end{bmatrix},\quad
\text{head}_1 = \alpha_1 V_1 = \begin{bmatrix} 0.21 & 2.00 \\ 0.66 & 2.00 \end{bmatrix}
$$
"""


def test_q_k_v_projected_by_hand_from_given_query_key_value_are_claimed() -> None:
    """Q, K and V printed with the weights that project them are the inputs; the printed
    Q_1 = Q W^Q_1, K_1 and V_1 are results, claimed and checked (V_1's 3 is 0·1 + 2·1 = 2)."""
    (one,) = extract_all(PROJECTED)
    claims = {k: str(v) for k, v in one.spec.claims.items()}
    assert claims["head1.q"] == "[[3, 2], [1, 1]]"
    assert claims["head1.v"] == "[[2, 2], [0, 3]]"
    verdicts = {c.key: c.verdict for c in check(one.spec).claims}
    assert (verdicts["head1.q"], verdicts["head1.k"], verdicts["head1.v"]) == (
        "exact",
        "exact",
        "wrong",
    )


def test_a_factor_named_in_a_product_is_not_a_second_name_of_its_result() -> None:
    """head_1 = α_1 V_1 = [...]: V_1 is a factor, so the output's numbers are no claim on V_1,
    and the given Q, K, V are claimed as nothing."""
    (one,) = extract_all(PROJECTED)
    claims = {k: str(v) for k, v in one.spec.claims.items()}
    assert sorted(claims) == [
        "head1.k",
        "head1.output",
        "head1.q",
        "head1.scores",
        "head1.v",
    ]
