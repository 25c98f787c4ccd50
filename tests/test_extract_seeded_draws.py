"""A page that seeds numpy's global generator and never prints its weights
(``np.random.seed(7)``, then ``W_q = np.random.randn(3, 3) * 0.5``, ...) is checked against
the numbers numpy's own ``RandomState`` draws, in the order the page's code runs them, each kept
as the exact float64 drawn; a draw not followed exactly stops the reproduction there."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_symbolic.cli import main
from mha_symbolic.extract.code_arrays import code_arrays
from mha_symbolic.extract.formats import read_document
from mha_symbolic.extract.items import joined

X = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
_X_SOURCE = "X = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])"


def _notebook(*cells: tuple[str, str]) -> str:
    """A notebook of code cells, each (source, printed output)."""
    out = [
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "source": source,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": printed}]
            if printed
            else [],
        }
        for source, printed in cells
    ]
    return json.dumps({"cells": out, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def _built(*cells: tuple[str, str]) -> dict[str, list[list[Fraction]]]:
    document = read_document(_notebook(*cells), "ipynb")
    return {
        item.statement.split("=")[0].strip(): [[Fraction(e) for e in row] for row in item.rows]
        for item in code_arrays(joined(document), document.lines)
    }


def _exact(array: np.ndarray) -> list[list[Fraction]]:
    return [[Fraction(float(x)) for x in row] for row in np.atleast_2d(array)]


def _softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _weights_page(wrong: tuple[int, int] | None = None) -> str:
    """Seed 7, three 3x3 weights drawn and scaled by 0.5, never printed; Q, the weights and
    the output printed as numpy prints them (8 decimals)."""
    draw = np.random.RandomState(7).randn
    w_q, w_k, w_v = draw(3, 3) * 0.5, draw(3, 3) * 0.5, draw(3, 3) * 0.5
    q, k, v = X @ w_q, X @ w_k, X @ w_v
    a = _softmax(q @ k.T / np.sqrt(3))
    printed_q = q.copy()
    if wrong is not None:
        printed_q[wrong] += 0.01
    weights = "\n".join(f"{name} = np.random.randn(3, 3) * 0.5" for name in ("W_q", "W_k", "W_v"))
    return _notebook(
        ("import numpy as np\nnp.random.seed(7)", ""),
        (f"{_X_SOURCE}\n{weights}", ""),
        ("Q = X @ W_q\nK = X @ W_k\nV = X @ W_v\nprint(Q)", f"{printed_q}\n"),
        ("A = softmax(Q @ K.T / np.sqrt(3))\nprint(A)\nprint(A @ V)", f"{a}\n{a @ v}\n"),
    )


def _check(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    path = tmp_path / "page.ipynb"
    path.write_text(text, encoding="utf-8")
    code = main(["check", str(path), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_seeded_weights_never_printed_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(tmp_path, _weights_page(), capsys)
    assert code == 0
    verdicts = [e["verdict"] for c in report["claims"] for e in c["entries"]]
    assert len(verdicts) == 6 + 4 + 6  # Q, the 2x2 weights, the output
    assert set(verdicts) <= {"rounded", "exact", "within"}


def test_a_wrong_entry_computed_from_seeded_weights_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = _check(tmp_path, _weights_page(wrong=(1, 2)), capsys)
    assert code == 1
    wrong = [e["index"] for c in report["claims"] for e in c["entries"] if e["verdict"] == "wrong"]
    assert wrong == [[2, 3]]


def test_draws_follow_the_page_order_and_every_draw_advances_the_stream() -> None:
    """W_k is drawn before W_q here; a 3-d draw no one reads and a scalar draw still take
    their numbers from the stream; numpy's keyword arguments are read."""
    built = _built(
        ("import numpy as np\nd = 2\nnp.random.seed(3)", ""),
        ("W_k = np.random.normal(0, 0.5, size=(d, 3))\nnoise = np.random.rand(2, 2, 2)", ""),
        ("t = np.random.randn()\nW_q = np.random.uniform(-1, 1, (3, d)) * 2", ""),
        ("ids = np.random.randint(0, 10, size=(2, 4))", ""),
    )
    rs = np.random.RandomState(3)
    w_k = rs.normal(0, 0.5, size=(2, 3))
    rs.rand(2, 2, 2)
    rs.randn()
    w_q = rs.uniform(-1, 1, (3, 2)) * 2
    ids = rs.randint(0, 10, size=(2, 4))
    assert set(built) == {"W_k", "W_q", "ids"}
    assert built["W_k"] == _exact(w_k)
    assert built["W_q"] == _exact(w_q)
    assert built["ids"] == _exact(ids)


@pytest.mark.parametrize(
    "between",
    [
        "for _ in range(2):\n    np.random.randn(3)",
        "rng = np.random.default_rng(0)",
        "torch.manual_seed(0)",
        "np.random.shuffle(order)",
        "W_o = np.random.randn(3, n_unknown)",
        "W_o = np.random.randn(3, 3).astype(np.float32)",
        "def init(n):\n    return np.random.randn(n, n)",
        "np.random.seed()",
    ],
)
def test_nothing_is_reproduced_after_a_draw_not_followed(between: str) -> None:
    built = _built(
        ("import numpy as np\nnp.random.seed(0)\nW_q = np.random.randn(3, 3)", ""),
        (between, ""),
        ("W_k = np.random.randn(3, 3)\nW_v = np.random.randn(3, 3)", ""),
    )
    assert built == {"W_q": _exact(np.random.RandomState(0).randn(3, 3))}


def test_a_call_of_a_page_function_that_draws_stops_the_reproduction() -> None:
    built = _built(
        ("def init(n):\n    return np.random.randn(n, n)", ""),
        ("np.random.seed(0)\nW_q = np.random.randn(3, 3)\nW_o = init(3)", ""),
        ("W_k = np.random.randn(3, 3)", ""),
    )
    assert set(built) == {"W_q"}


def test_a_later_seed_sets_the_whole_state_again() -> None:
    """A literal seed replaces the generator's state, so the draws after it are known again,
    even after a loop of draws (the udl book's notebooks seed inputs and weights apart)."""
    built = _built(
        ("np.random.seed(3)\nfor n in range(3):\n  xs.append(np.random.normal(size=(4, 1)))", ""),
        ("SEED = 0\nnp.random.seed(SEED)\nomega = np.random.normal(size=(4, 4))", ""),
    )
    assert built == {"omega": _exact(np.random.RandomState(0).normal(size=(4, 4)))}


def test_a_draw_before_the_seed_is_never_read() -> None:
    built = _built(
        ("import numpy as np\nW_a = np.random.randn(3, 3)", ""),
        ("np.random.seed(1)  # for reproducibility\nW_q = np.random.randn(3, 3)", ""),
    )
    assert built == {"W_q": _exact(np.random.RandomState(1).randn(3, 3))}


_DRAWS = st.one_of(
    st.tuples(st.just("randn"), st.tuples(st.integers(1, 4), st.integers(1, 4))).map(
        lambda t: f"np.random.randn({t[1][0]}, {t[1][1]})"
    ),
    st.tuples(st.integers(1, 4), st.integers(1, 4)).map(
        lambda t: f"np.random.rand({t[0]}, {t[1]})"
    ),
    st.tuples(st.sampled_from(["0", "1.5", "-2"]), st.sampled_from(["1", "0.1", "3"])).map(
        lambda t: f"np.random.normal({t[0]}, {t[1]}, size=(2, 3))"
    ),
    st.sampled_from(["-1", "0", "0.25"]).map(lambda low: f"np.random.uniform({low}, 2, (3, 2))"),
    st.integers(1, 9).map(lambda high: f"np.random.randint(-3, {high}, size=(2, 2))"),
)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    draws=st.lists(_DRAWS, min_size=1, max_size=5),
    factor=st.sampled_from(["", " * 2", " * 0.5", " * -0.25"]),
)
def test_the_reproduced_draws_are_numpys_own(seed: int, draws: list[str], factor: str) -> None:
    """Against np.random.RandomState drawing the same statements in the same order: the same
    float64s, exactly (a power-of-two factor keeps the products exact)."""
    names = [f"A{i}" for i in range(len(draws))]
    source = "\n".join(f"{n} = {d}{factor}" for n, d in zip(names, draws))
    built = _built((f"import numpy as np\nnp.random.seed({seed})\n{source}", ""))
    rs = np.random.RandomState(seed)
    for name, draw in zip(names, draws):
        expected = eval(draw.replace("np.random.", "rs.") + factor, {"rs": rs})
        if np.all(expected == expected.flat[0]):
            assert name not in built  # a constant array is left unread, as code_arrays does
            continue
        assert built[name] == _exact(expected)


def _labelled_page(sums: bool = False) -> str:
    """Inputs and weights drawn, the inputs printed again at 3 decimals, the weights never; Q
    printed, K never; then the scaled scores, the weights and the output each printed under
    the same bare label "Values:"."""
    draw = np.random.RandomState(5).randn
    x, w_q, w_k, w_v = draw(4, 8), draw(8, 4), draw(8, 4), draw(8, 4)
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    s = q @ k.T / np.sqrt(4)
    a = _softmax(s)
    with np.printoptions(precision=3, suppress=True):
        printed = f"Inputs\nValues:\n{x}\nQ:\n{q}\nScores\nValues:\n{s}\nWeights\nValues:\n{a}\n"
        printed += f"Row sums: {a.sum(axis=1)}\n" if sums else ""
        printed += f"Output\nValues:\n{a @ v}\n"
    weights = "\n".join(f"{n} = np.random.randn(8, 4)" for n in ("W_q", "W_k", "W_v"))
    return _notebook(
        ("import numpy as np\nnp.random.seed(5)\nX = np.random.randn(4, 8)\n" + weights, ""),
        ("Q = X @ W_q\nK = X @ W_k\nV = X @ W_v\nS = Q @ K.T / np.sqrt(4)", ""),
        ("A = softmax(S)\nprint(Q, S, A, A @ V)", printed),
    )


@pytest.mark.parametrize("sums", [False, True])
def test_scores_of_a_printed_q_and_a_key_never_printed_under_a_bare_label(
    sums: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The scores are Q (printed) times K = X W_K (built, never printed), scaled; "Values:"
    over the scores, their softmax and the output names none of them V."""
    code, report = _check(tmp_path, _labelled_page(sums), capsys)
    assert code == 0
    roles = [c["key"] for c in report["claims"]]
    assert {"head1.q", "head1.scaled", "head1.weights", "head1.output"} <= set(roles)
    verdicts = [e["verdict"] for c in report["claims"] for e in c["entries"]]
    assert set(verdicts) <= {"rounded", "exact", "within"}


_DEV = Path(__file__).parent / "data" / "corpus" / "dev"


def test_a_seeded_notebook_printing_q_scores_weights_and_output_under_bare_labels(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The development notebook that seeds 0, draws its embeddings and weights (8 features,
    head width 4) and prints them only at 3 decimals, K never: its scores are the printed Q
    times X W_K scaled by √4 (many other products of the same shapes are tried first), and
    its bare "Values:" labels name none of scores, weights and output V."""
    path = _DEV / "notebook-numpy-seeded-single-head-precision3.ipynb"
    code = main(["check", str(path), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    keys = {c["key"]: c["verdict"] for c in report["claims"]}
    assert keys == {
        "head1.q": "rounded",
        "head1.scaled": "rounded",
        "head1.weights": "rounded",
        "head1.output": "rounded",
        "head1.weight_sums": "exact",
    }


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_the_interval_softmax_warns_of_nothing_on_a_saturated_page(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Scores so far apart that an interval end divides 0 by 0: mended in place, never a
    numpy RuntimeWarning on the user's terminal (it printed the program's path)."""
    test_a_seeded_notebook_printing_q_scores_weights_and_output_under_bare_labels(capsys)
