"""No step without numbers: symbolic steps shown at chosen values, long entries with decimals."""

from __future__ import annotations

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.solution.blocks import build
from mha_symbolic.solution.view import Options


def _steps(spec: AttentionSpec) -> dict:
    return build(derive(spec), Options()).steps()


def test_symbolic_weights_are_worked_with_the_identity_the_setup_says_it_chose() -> None:
    spec = AttentionSpec.example("eight-tokens-split")
    solution = build(derive(spec), Options())
    said = [line for line in solution.setup if "chooses each to be the identity" in line]
    assert said == [
        "The document gives no numbers for $W_{Q}^{1}$, $W_{K}^{1}$, $W_{V}^{1}$, $W_{Q}^{2}$, "
        "$W_{K}^{2}$, $W_{V}^{2}$, $W_{O}$, so to work every step with numbers this solution "
        "chooses each to be the identity (1 on the diagonal, 0 elsewhere); the general "
        "symbolic form stays beside the numbers."
    ]
    # The same example with the identities written in: its exact steps are the chosen lines.
    identity = [[1, 0], [0, 1]]
    weights = {"w_q": [identity] * 2, "w_k": [identity] * 2, "w_v": [identity] * 2}
    weights["w_o"] = [[int(i == j) for j in range(4)] for i in range(4)]
    x = derive(spec)["x"].tolist()
    concrete = _steps(AttentionSpec(x=x, heads=2, layout="split", weights=weights))
    steps = solution.steps()
    for key in ("head1.q", "head1.scores", "head1.weights", "head2.output", "output"):
        value = concrete[key].approx or concrete[key].exact
        assert steps[key].chosen is not None
        assert steps[key].chosen.split(" ", 2)[2] == value, key
    assert steps["head1.weights"].chosen.startswith(
        r"A_{1} \approx \begin{bmatrix} 0.12 & 0.13 & 0.11 & 0.14"
    )


def test_a_parameter_is_worked_at_one_and_a_numeric_example_has_no_chosen_line() -> None:
    temperature = AttentionSpec.example("temperature")
    solution = build(derive(temperature), Options())
    assert solution.setup[-1] == (
        r"To work every step with numbers this solution takes $\tau = 1$; the symbolic form "
        "stays beside the numbers."
    )
    assert solution.steps()["head1.weights"].chosen == (
        r"A_{1} \approx \begin{bmatrix} 0.42 & 0.16 & 0.42 \\ 0.16 & 0.42 & 0.42 \\ "
        r"0.21 & 0.21 & 0.58 \end{bmatrix}"
    )
    at_one = AttentionSpec(x=[[1, 0], [0, 1], [1, 1]], heads=1, scale="none")
    assert _steps(at_one)["head1.weights"].approx == (
        r"\begin{bmatrix} 0.42 & 0.16 & 0.42 \\ 0.16 & 0.42 & 0.42 \\ "
        r"0.21 & 0.21 & 0.58 \end{bmatrix}"
    )
    assert all(step.chosen is None for step in _steps(AttentionSpec.example("rope")).values())


def test_entries_too_long_to_print_still_show_their_decimals() -> None:
    output = _steps(AttentionSpec.example("rope"))["head1.output"]
    assert output.notes[0].startswith("The entries of this $3 \\times 2$ matrix are too long")
    assert output.approx == (
        r"\begin{bmatrix} 0.73 & 0.48 \\ 0.73 & 0.72 \\ 0.72 & 0.93 \end{bmatrix}"
    )
