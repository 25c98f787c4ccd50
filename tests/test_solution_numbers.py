"""No step without numbers: symbolic steps shown at chosen values, long entries with decimals."""

from __future__ import annotations

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.check.judge import check
from mha_symbolic.solution.blocks import build
from mha_symbolic.solution.view import Options


def _steps(spec: AttentionSpec) -> dict:
    return build(derive(spec), Options()).steps()


def test_symbolic_weights_are_worked_with_the_numbers_the_setup_says_it_chose_and_why() -> None:
    spec = AttentionSpec.example("eight-tokens-split")
    solution = build(derive(spec), Options())
    said = [line for line in solution.setup if "chooses them" in line]
    assert said == [
        "The document gives no numbers for $W_{Q}^{1}$, $W_{K}^{1}$, $W_{V}^{1}$, $W_{Q}^{2}$, "
        "$W_{K}^{2}$, $W_{V}^{2}$, $W_{O}$, so to work every step with numbers this solution "
        "chooses them: $W_{Q}^{1}$, $W_{K}^{1}$, $W_{Q}^{2}$, $W_{K}^{2}$ 3 times the identity "
        "(3 on the diagonal, 0 elsewhere), the others the identity (1 on the diagonal). Why 3: "
        "with the identity everywhere each score would be a small dot product of two input "
        "rows, and every attention weight would be close to uniform, a heatmap with nothing to "
        "see; 3 times the identity makes every score 9 times larger, so each token's weights "
        "show which tokens it matches. The general symbolic form stays beside the numbers."
    ]
    # The same example with those numbers written in: its exact steps are the chosen lines.
    identity, three = [[1, 0], [0, 1]], [[3, 0], [0, 3]]
    weights = {"w_q": [three] * 2, "w_k": [three] * 2, "w_v": [identity] * 2}
    weights["w_o"] = [[int(i == j) for j in range(4)] for i in range(4)]
    x = derive(spec)["x"].tolist()
    concrete = _steps(AttentionSpec(x=x, heads=2, layout="split", weights=weights))
    steps = solution.steps()
    for key in ("head1.q", "head1.scores", "head1.weights", "head2.output", "concat"):
        value = concrete[key].approx or concrete[key].exact
        assert steps[key].chosen is not None
        name = steps[key].symbol
        assert steps[key].chosen.removeprefix(name).split(" ", 2)[2] == value, key
    # A chosen value that an earlier step printed is named, not printed twice: W_K chosen as
    # W_Q makes K_1 the queries. The last step is the answer: O is the concatenation exactly
    # (W_O chosen the identity), and it says so in one sentence and keeps its numbers.
    assert concrete["output"].approx == concrete["concat"].approx
    assert steps["output"].chosen == r"O = \mathrm{MultiHead} \approx " + concrete["concat"].approx
    assert steps["output"].chosen_said == (
        r"With the chosen numbers $W_{O}$ is the identity, so $O$ equals $\mathrm{MultiHead}$ "
        "(the step “Concatenated heads” above):"
    )
    assert steps["head1.q"].chosen_said is None
    assert steps["head1.k"].chosen == "K_{1} = Q_{1}"
    assert steps["head1.v"].chosen == "V_{1} = X_{1}"  # the given slice, at W_V = I
    # the weights now differ (0.01 to 0.56), where the identity gave 0.10 to 0.15 everywhere
    assert steps["head1.weights"].chosen.startswith(
        r"\mathrm{Attention}_{1} \approx \begin{bmatrix} 0.07 & 0.15 & 0.03 & 0.24"
    )


def test_a_step_is_named_equal_to_an_earlier_one_only_when_it_is_exactly() -> None:
    """O = MultiHead W_O at W_O = I is MultiHead; at a W_O whose decimals are the identity's
    (an entry 10^-9 off the diagonal) it is not, though it prints the same decimals."""
    import sympy as sp

    from mha_symbolic.solution.chosen import chosen_values, is_earlier_step

    d = derive(AttentionSpec.example("eight-tokens-split"))
    values = chosen_values(d)
    output, multihead = d.step("output"), d.step("concat").symbol.name
    assert multihead == r"\mathrm{MultiHead}"
    assert is_earlier_step(d, values, output, multihead)
    nearly = {**values, sp.Symbol("W_{O,12}"): sp.Rational(1, 10**9)}
    assert nearly.keys() == values.keys()
    assert not is_earlier_step(d, nearly, output, multihead)
    assert not is_earlier_step(d, values, d.step("head1.q"), multihead)


def test_a_parameter_is_worked_at_one_and_a_numeric_example_has_no_chosen_line() -> None:
    temperature = AttentionSpec.example("temperature")
    solution = build(derive(temperature), Options())
    assert solution.setup[-1] == (
        r"To work every step with numbers this solution takes $\tau = 1$; the symbolic form "
        "stays beside the numbers."
    )
    assert solution.steps()["head1.output"].chosen == (
        r"\mathrm{head}_{1} \approx \begin{bmatrix} 0.84 & 0.58 \\ 0.58 & 0.84 \\ "
        r"0.79 & 0.79 \end{bmatrix}"
    )
    table = solution.steps()["head1.weights"].chosen  # the softmax: cold, chosen and hot
    assert table == (
        r"\begin{aligned} \tau = 0.1: &\quad A_{1} \approx \begin{bmatrix} 0.50 & 0.00 & 0.50 "
        r"\\ 0.00 & 0.50 & 0.50 \\ 0.00 & 0.00 & 1.00 \end{bmatrix} \\ \tau = 1: &\quad "
        r"A_{1} \approx \begin{bmatrix} 0.42 & 0.16 & 0.42 \\ 0.16 & 0.42 & 0.42 \\ "
        r"0.21 & 0.21 & 0.58 \end{bmatrix} \\ \tau = 10: &\quad A_{1} \approx "
        r"\begin{bmatrix} 0.34 & 0.31 & 0.34 \\ 0.31 & 0.34 & 0.34 \\ 0.32 & 0.32 & 0.36 "
        r"\end{bmatrix} \end{aligned}"
    )
    assert solution.steps()["head1.weights"].notes[-1] == (
        r"A row's weights are $e^{s_j/\tau} / \sum_k e^{s_k/\tau}$. As $\tau \to 0^+$ a smaller "
        r"score's exponential falls behind the largest one's by the factor "
        r"$e^{(s_j - s_{max})/\tau} \to 0$, so the weights tend to $\begin{bmatrix} \frac{1}{2} "
        r"& 0 & \frac{1}{2} \\ 0 & \frac{1}{2} & \frac{1}{2} \\ 0 & 0 & 1 \end{bmatrix}$: each "
        r"row puts all its weight on its largest score, and a tie shares it equally. As $\tau "
        r"\to \infty$ every $s_j/\tau \to 0$ and every exponential tends to $e^0 = 1$, so they "
        r"tend to $\begin{bmatrix} \frac{1}{3} & \frac{1}{3} & \frac{1}{3} \\ \frac{1}{3} & "
        r"\frac{1}{3} & \frac{1}{3} \\ \frac{1}{3} & \frac{1}{3} & \frac{1}{3} \end{bmatrix}$: "
        "every key weighs the same."
    )
    # Other inputs, other limits: "sat" alone is largest in every row once it is (2, 2).
    hotter = AttentionSpec(
        x=[[1, 0], [0, 1], [2, 2]], heads=1, scale="1/tau", parameters={"tau": "positive"}
    )
    cold = build(derive(hotter), Options()).steps()["head1.weights"].notes[-1]
    assert cold.split("so the weights ")[1].startswith(
        r"tend to $\begin{bmatrix} 0 & 0 & 1 \\ 0 & 0 & 1 \\ "
    )
    at_one = AttentionSpec(x=[[1, 0], [0, 1], [1, 1]], heads=1, scale="none")
    assert _steps(at_one)["head1.weights"].approx == (
        r"\begin{bmatrix} 0.42 & 0.16 & 0.42 \\ 0.16 & 0.42 & 0.42 \\ "
        r"0.21 & 0.21 & 0.58 \end{bmatrix}"
    )
    assert all(step.chosen is None for step in _steps(AttentionSpec.example("rope")).values())


def test_entries_too_long_to_print_still_show_their_decimals() -> None:
    output = _steps(AttentionSpec.example("rope"))["head1.output"]
    # the scores before it said why in full
    assert output.notes[0].startswith("Again too long to print, so written by its general row")
    assert output.approx == (
        r"\begin{bmatrix} 0.73 & 0.48 \\ 0.73 & 0.72 \\ 0.72 & 0.93 \end{bmatrix}"
    )


def test_a_symbolic_entry_is_written_in_the_documents_decimals_and_a_score_as_a_dot_product():
    steps = _steps(AttentionSpec.example("eight-tokens-split"))
    assert steps["head1.q"].entry.endswith(r"= 0.2 W_{Q1,11} + 0.5 W_{Q1,21}")
    assert steps["head1.scores"].entry == (
        r"\begin{aligned} \left(Q_{1} K_{1}^{\top}\right)_{ij} &= q_{i} \cdot k_{j} \\ "
        r"q_{1} \cdot k_{1} "
        r"&= \left(0.2 W_{Q1,11} + 0.5 W_{Q1,21}\right) \left(0.2 W_{K1,11} + 0.5 W_{K1,21}\right)"
        r" \\ &\quad + \left(0.2 W_{Q1,12} + 0.5 W_{Q1,22}\right) "
        r"\left(0.2 W_{K1,12} + 0.5 W_{K1,22}\right) \end{aligned}"
    )
    assert steps["head1.scaled"].entry == (  # its first entry worked at the chosen numbers
        r"\begin{aligned} s_{ij} &= \frac{q_{i} \cdot k_{j}}{\sqrt{d_{k}}} \\ s_{11} &= "
        r"\frac{q_{1} \cdot k_{1}}{\sqrt{2}} = \frac{2.61}{\sqrt{2}} \approx 1.85 \end{aligned}"
    )


def test_decimal_coefficients_are_only_for_short_decimals_times_symbols():
    from sympy import Symbol, sqrt

    from mha_symbolic.solution import latex

    w, a = Symbol("W_{Q1,11}"), Symbol("a")
    assert latex.exact(w / 5 - 7 * a / 10) == r"0.2 W_{Q1,11} - 0.7 a"
    assert latex.exact(w / 3) == r"\frac{W_{Q1,11}}{3}"  # 1/3 has no short decimal
    assert latex.exact(a / (2 * a + 1)) == r"\frac{a}{2 a + 1}"
    assert latex.exact(sqrt(2) / 2) == r"\frac{\sqrt{2}}{2}"


# ------------------------------------------------------------------ remarks at their step
TWO = {"x": [[1, 0], [0, 1]], "heads": 2, "scale": "none"}
SWAP = [[0, 1], [1, 0]]
IDENTITY = [[1, 0], [0, 1]]
HALVES = [["1/2", 0], [0, "1/2"], ["1/2", 0], [0, "1/2"]]


def _two(**changes: object) -> dict:
    weights = {"w_q": [IDENTITY, SWAP], "w_k": [IDENTITY, SWAP], "w_v": [IDENTITY, SWAP]}
    return _steps(AttentionSpec(**{**TWO, "weights": {**weights, "w_o": HALVES}, **changes}))


def test_two_tokens_same_output_and_why_exactly_a_half_are_said_at_the_output() -> None:
    notes = _steps(AttentionSpec.example("two-tokens"))["output"].notes
    assert notes == (
        r"Every token ends with the same output $\left[\frac{1}{2},\; \frac{1}{2}\right]$: "
        "after $W_O$ nothing tells the tokens apart, so what each head found about them is "
        "averaged away, not combined.",
        # in the form W_O and O print it (1/2, as the spec writes it), not 0.5 beside them
        r"Why exactly: $O_{11} = \frac{1}{2} \cdot \left(\frac{e}{1 + e} + \frac{1}{1 + e}\right)"
        r" = \frac{1}{2} \cdot 1 = \frac{1}{2}$, because the numbers in the bracket add up to "
        "exactly $1$.",
    )
    assert _two()["output"].notes == notes  # the same spec written out: the same remarks
    decimal = [[0.5, 0], [0, 0.5], [0.5, 0], [0, 0.5]]  # W_O written 0.5: 0.5 throughout
    weights = {"w_q": [IDENTITY, SWAP], "w_k": [IDENTITY, SWAP], "w_v": [IDENTITY, SWAP]}
    halves = _two(weights={**weights, "w_o": decimal})["output"].notes
    assert r"$O_{11} = 0.5 \cdot \left(" in halves[1] and r"= 0.5 \cdot 1 = 0.5$" in halves[1]
    # W_O that keeps head 1 only: the tokens differ, and no sum of weights makes a whole.
    keep = [[1, 0], [0, 1], [0, 0], [0, 0]]
    assert _two(weights={"w_v": [IDENTITY, SWAP], "w_o": keep})["output"].notes == ()


def test_the_what_if_of_the_standard_scaling_is_computed_and_gone_once_scaled() -> None:
    weights = _steps(AttentionSpec.example("two-tokens"))["head1.weights"]
    assert weights.notes == (
        r"What if the scores were scaled by the standard $1/\sqrt{d_k} = 1/\sqrt{2}$? Token 1's "
        r"weights would be $\left[0.67,\; 0.33\right]$ instead of $\left[0.73,\; 0.27\right]$: "
        "a softer blend.",
    )
    doubled = _two(x=[[2, 0], [0, 2]])["head1.weights"].notes  # scores 4 and 0
    assert r"$\left[0.94,\; 0.06\right]$ instead of $\left[0.98,\; 0.02\right]$" in doubled[0]
    assert _two(scale="sqrt_dk")["head1.weights"].notes == ()


def test_one_key_gives_weights_of_one_and_the_solution_says_so_once() -> None:
    steps = _steps(AttentionSpec.example("one-token"))
    assert steps["head1.weights"].notes == (
        "With a single key, softmax of one score is $e^{s} / e^{s} = 1$: the weights are $[1]$ "
        "whatever the scores are and however they are scaled, so the scores do not matter here "
        "and each head's output is its value row.",
    )
    assert steps["head2.weights"].notes == ()  # said once
    two_keys = [note for s in _two().values() if s.kind == "softmax" for note in s.notes]
    assert two_keys and not any("single key" in note for note in two_keys)


def test_split_heads_say_that_cutting_x_is_not_standard_attention() -> None:
    split = _steps(AttentionSpec.example("split-scaled"))["head1.x"].insight
    assert split == (
        "Splitting $X$ itself before projecting is not standard multi-head attention: there "
        "every head projects all the features of $X$, here each head sees only its own 2 columns."
    )
    fused = AttentionSpec.example("pytorch-style")
    assert all("capacity" not in (s.insight or "") for s in _steps(fused).values())


def test_a_named_output_projection_without_numbers_is_a_definition_and_o_is_not_c() -> None:
    output = _steps(AttentionSpec.example("split-scaled"))["output"]
    assert output.lines == ("C W_{O}",) and output.approx is None
    (definition,) = output.assumptions
    assert definition.defined and definition.assumed.endswith("W_O")
    assert definition.lines[0].startswith(r"So $W_O$ stays an unknown $4 \times 4$ matrix")
    md = derive(AttentionSpec.example("split-scaled")).to_markdown()
    assert "> **Given as a formula, without numbers.** The document defines $O" in md
    assert "Assumed, not computed.** The document takes $O" not in md
    # A given W_O: the output is computed, and nothing is called a definition.
    assert not any(a.defined for s in _two().values() for a in s.assumptions)
    assert _two()["output"].exact == (
        r"\begin{bmatrix} \frac{1}{2} & \frac{1}{2} \\ \frac{1}{2} & \frac{1}{2} \end{bmatrix}"
    )


def test_a_printed_list_of_numbers_in_a_mark_is_typeset_as_maths_as_printed() -> None:
    from mha_symbolic import check

    d = derive(AttentionSpec.example("one-token"))
    (mark,) = build(d, Options(marks=check(d).marks())).steps()["concat"].marks
    assert mark.claimed == "[0.5, 1.2, -0.4, 2.3]"
    assert mark.claimed_math == r"\left[0.5,\; 1.2,\; -0.4,\; 2.3\right]"
    from mha_symbolic.solution.claim_marks import _printed_numbers

    assert _printed_numbers("[[0.60, 0.40], [0.40, 0.60]]") == (
        r"\begin{bmatrix} 0.60 & 0.40 \\ 0.40 & 0.60 \end{bmatrix}"
    )
    assert _printed_numbers(r"\mathrm{softmax}(0.707,0) \approx (0.67,\;0.33)") is None
    assert _printed_numbers("[[1, 2], [3]]") is None  # ragged: left as printed


def test_a_concat_row_that_holds_only_as_assumed_is_said_in_one_sentence() -> None:
    """Both rows in one sentence: they were two boxes of the same words, one a token."""
    d = derive(AttentionSpec.example("split-scaled"))
    marks = build(d, Options(marks=check(d).marks())).steps()["concat"].marks
    assert [m.sentence for m in marks] == [
        r"The document prints the rows $\left[0.67,\; 0.33,\; 0.60,\; 0.40\right]$ and "
        r"$\left[0.33,\; 0.67,\; 0.40,\; 0.60\right]$ here: the "
        "concatenation is right given the assumed head output, which the given weights do not "
        r"produce ($\left[\frac{a}{a + 1},\; \frac{1}{a + 1}\right] \approx "
        r"\left[0.67,\; 0.33\right]$ and $\left[\frac{1}{a + 1},\; \frac{a}{a + 1}\right] "
        r"\approx \left[0.33,\; 0.67\right]$).",
    ]
    assert all(m.diagnosis is None for m in marks)  # nothing said twice
    bengali = build(d, Options(lang="bn", marks=check(d).marks())).steps()["concat"].marks
    assert len(bengali) == 1 and "সারিগুলো ঠিক" in str(bengali[0].sentence)


def test_one_token_names_w_o_as_its_document_does() -> None:
    # The document names W_O (MHAoutput = concat W_O), so the output is not the concatenation.
    md = derive(AttentionSpec.example("one-token")).to_markdown()
    assert "Without an output projection" not in md
    assert "The document multiplies the concatenation by an output projection $W_O$" in md


def _pytorch_output_notes(w_o: list[list[int]] | None = None) -> tuple[str, ...]:
    from importlib import resources

    from mha_symbolic.spec.input_files import parse_toml

    text = resources.files("mha_symbolic").joinpath("examples", "pytorch-style.toml")
    data = parse_toml(text.read_text(encoding="utf-8"), "pytorch-style")
    if w_o is not None:
        data["weights"]["w_o"] = w_o
    return _steps(AttentionSpec.from_dict(data))["output"].notes


def test_pytorch_style_says_what_its_w_o_does_read_from_its_entries() -> None:
    said = (
        r"What $W_O$ does here, read from its entries: columns 1–3 of $O$ are "
        r"$\mathrm{head}_{1} + \mathrm{head}_{2}$; columns 4–6 of $O$ are "
        r"$\mathrm{head}_{1} - \mathrm{head}_{2}$."
    )
    assert said in _pytorch_output_notes()
    # Stored (out x in): row 1 of W_O makes output column 1. Swap the halves' signs: it follows.
    eye = [[int(i == j) for j in range(3)] for i in range(3)]
    neg = [[-v for v in row] for row in eye]
    flipped = [a + b for a, b in zip(eye, neg, strict=True)] + [a + a for a in eye]
    notes = _pytorch_output_notes(flipped)
    assert (
        r"columns 1–3 of $O$ are $\mathrm{head}_{1} - \mathrm{head}_{2}$; columns 4–6 of $O$ "
        r"are $\mathrm{head}_{1} + \mathrm{head}_{2}$." in " ".join(notes)
    )
    # An identity W_O keeps the heads apart, and one entry off the pattern says nothing.
    identity = [[int(i == j) for j in range(6)] for i in range(6)]
    assert not any("What $W_O$ does" in n for n in _pytorch_output_notes(identity))
    identity[0][5] = 2
    assert not any("What $W_O$ does" in n for n in _pytorch_output_notes(identity))


def test_pytorch_style_says_once_at_the_output_that_w_o_is_stored_transposed() -> None:
    """Seed 004 writes Merged x Wo^T at its step 6 and Concat(...) . Wo in its summary: the
    output says which is meant, and whether the two readings differ for this W_O."""
    start = (
        r"PyTorch stores $W_O$ as (out $\times$ in), so the output is $C\, W_O^\top$; the "
        r"paper's $\operatorname{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)\, W_O$ means "
        r"the (in $\times$ out) matrix, $W_O^\top$ here, so the two notations must not be mixed. "
    )
    symmetric = "This $W_O$ is symmetric, so mixing them would not show here: "
    notes = [n for n in _pytorch_output_notes() if n.startswith("PyTorch stores")]
    assert notes == [start + symmetric + r"$C\, W_O = C\, W_O^\top$."]
    eye = [[int(i == j) for j in range(3)] for i in range(3)]
    zero = [[0] * 3 for _ in range(3)]
    upper = [a + b for a, b in zip(eye, eye, strict=True)] + [a + b for a, b in zip(zero, eye)]
    notes = [n for n in _pytorch_output_notes(upper) if n.startswith("PyTorch stores")]
    assert notes == [start + r"This $W_O$ is not symmetric: $C\, W_O$ would be another output."]
    split = _steps(AttentionSpec.example("split-scaled"))["output"].notes  # not stored (out x in)
    assert not any("PyTorch stores" in n for n in split)


def test_a_number_whose_terms_share_a_fraction_has_it_pulled_out() -> None:
    from sympy import Rational, cos, exp, sin, sqrt

    from mha_symbolic.solution import latex

    half = Rational(1, 2)
    assert latex.exact(-sin(2) * half + cos(2) * half) == (r"\frac{\cos 2 - \sin 2}{2}")
    assert latex.exact(Rational(-3, 4) * sin(1) + Rational(3, 4) * cos(1)) == (
        r"\frac{3}{4} \left(\cos 1 - \sin 1\right)"
    )
    # in an exponent, on the line
    assert latex.exact(exp(half - cos(1) * half)) == (r"e^{\left(1 - \cos 1\right)/2}")
    # terms of different sizes, and whole numbers, as SymPy writes them
    assert latex.exact(sin(1) / 2 + cos(1) / 3) == (r"\frac{\cos 1}{3} + \frac{\sin 1}{2}")
    assert latex.exact(2 * sqrt(2) + 2 * sqrt(3)) == r"2 \sqrt{2} + 2 \sqrt{3}"


def test_the_temperature_introduction_points_to_its_softmax_step_not_to_command_lines() -> None:
    spec = AttentionSpec.example("temperature")
    said = [spec.description, *(t.get("description", "") for t in spec.translations.values())]
    assert not any("mha-symbolic" in text or "--limit" in text for text in said)
    assert spec.description.endswith(
        "The softmax step below derives both limits and shows the\n"
        "weights at τ = 0.1, 1 and 10 between them."
    )


def test_a_tall_symbolic_projection_is_its_general_entry_then_its_chosen_numbers() -> None:
    """eight-tokens-split's Q_1 = X_1 W_Q^1 wrote 8 rows of symbolic sums beside the product
    of X_1 (just shown) and W_Q^1, then the same 8 rows again in numbers, in each of its six
    projections: the PDF took 11 pages, its last half empty. The general entry, the first
    entry beside it, then the numbers: said once why, 10 pages."""
    steps = _steps(AttentionSpec.example("eight-tokens-split"))
    q, k = steps["head1.q"], steps["head1.k"]
    assert (q.substituted, q.exact, k.substituted, k.exact) == (None,) * 4
    assert q.lines == (r"X_{1} W_{Q}^{1}",)
    assert q.entry == (
        r"\left(Q_{1}\right)_{ij} = \sum_{k=1}^{2} \left(X_{1}\right)_{ik} "
        r"\left(W_{Q}^{1}\right)_{kj}, \qquad \left(Q_{1}\right)_{11} = "
        r"0.2 W_{Q1,11} + 0.5 W_{Q1,21}"
    )
    assert q.notes[0].startswith(r"This $8 \times 2$ matrix is written by its general entry")
    assert k.notes == ()  # said once
    assert q.chosen is not None and q.chosen.startswith(r"Q_{1} = \begin{bmatrix} 0.6 & 1.5")
    # a short one keeps its symbolic matrix in full: two-tokens with a symbolic W_K
    from mha_symbolic.spec.attention import example_text
    from mha_symbolic.spec.input_files import parse_toml

    raw = parse_toml(example_text("two-tokens"), "two-tokens")
    raw["weights"]["w_k"] = "symbolic"
    short = _steps(AttentionSpec.from_dict(raw))["head1.k"]
    assert short.exact is not None and short.exact.startswith(r"\begin{bmatrix}")
    assert short.entry is None and short.chosen is not None  # numbers chosen all the same


def test_a_spec_written_in_fractions_is_worked_in_fractions_as_its_document_writes_them() -> None:
    """Seed 000 writes its W_O as ½ [[1, 0, 1, 0], [0, 1, 0, 1]]; the spec gives it as "1/2"
    strings, and the solution printed 0.5: it now writes W_O as the document does, its output
    and why exactly in fractions. The same W_O written 0.5 keeps its decimals."""
    from fractions import Fraction

    from mha_symbolic.spec.attention import example_text
    from mha_symbolic.spec.input_files import parse_toml

    spec = AttentionSpec.example("two-tokens")
    assert spec.written == {"fraction"}
    solution = build(derive(spec), Options())
    weights = [b for b in solution.blocks if getattr(b, "title", "") == "Given weights"]
    assert weights[0].lines == (
        r"W_{O} = \frac{1}{2} \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 0 \\ 0 & 1 \end{bmatrix}",
    )
    output = solution.steps()["output"]
    assert output.exact == (
        r"\begin{bmatrix} \frac{1}{2} & \frac{1}{2} \\ \frac{1}{2} & \frac{1}{2} \end{bmatrix}"
    )
    assert r"\frac{1}{2} \begin{bmatrix} 1 & 0" in (output.substituted or "")
    assert any(r"= \frac{1}{2} \cdot 1 = \frac{1}{2}$" in note for note in output.notes)
    raw = parse_toml(example_text("two-tokens"), "two-tokens")
    raw["weights"]["w_o"] = [[0.5, 0], [0, 0.5], [0.5, 0], [0, 0.5]]
    decimals = AttentionSpec.from_dict(raw)
    assert decimals.written == {"decimal"}
    steps = _steps(decimals)
    assert steps["output"].exact == r"\begin{bmatrix} 0.5 & 0.5 \\ 0.5 & 0.5 \end{bmatrix}"
    raw["weights"]["w_o"] = [[Fraction(1, 2), 0], [0, "0.5"], ["1/2", 0], [0, "\\frac{1}{2}"]]
    assert AttentionSpec.from_dict(raw).written == {"decimal", "fraction"}
