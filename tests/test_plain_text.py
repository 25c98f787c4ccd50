"""The text format's maths: fractions drawn in two dimensions in display maths (numerator,
bar, denominator), on one line in exponents, roots and running text."""

from __future__ import annotations

from mha_symbolic.solution import plain


def test_a_display_fraction_is_drawn_over_its_bar() -> None:
    assert plain.display(r"A = \frac{e}{1 + e}").splitlines() == [
        "      e",
        "A = ─────",
        "    1 + e",
    ]


def test_exponents_and_roots_keep_their_fractions_on_one_line() -> None:
    assert plain.display(r"a = e^{\frac{\sqrt{3}}{3}}") == "a = e^(√3/3)"
    assert plain.display(r"\sqrt{\frac{1}{2}}") == "√(1/2)"


def test_running_text_keeps_fractions_on_one_line() -> None:
    assert plain.inline(r"\frac{a}{3 a + 1}") == "a/(3a + 1)"


def test_a_matrix_of_fractions_has_a_row_per_baseline_and_tall_brackets() -> None:
    lines = plain.display(
        r"\operatorname{softmax}\left(S\right) = \begin{bmatrix} \frac{e}{1 + e} & \frac{1}{1 + e}"
        r" \\ \frac{1}{1 + e} & \frac{e}{1 + e} \end{bmatrix}"
    ).splitlines()
    assert len(lines) == 7
    assert lines[3].startswith("softmax(S) = ⎢")  # the bar of the matrix's middle, on the line
    assert lines[0].strip().startswith("⎡") and lines[-1].strip().startswith("⎣")
    assert [line.count("─────") for line in lines] == [0, 2, 0, 0, 0, 2, 0]


def test_brackets_grow_with_what_they_hold() -> None:
    lines = plain.display(r"f\left(\begin{bmatrix} 1 \\ 2 \\ 3 \end{bmatrix}\right)").splitlines()
    assert [line[1] for line in lines] == ["⎛", "⎜", "⎝"]
    assert [line[-1] for line in lines] == ["⎞", "⎟", "⎠"]
    assert plain.display(r"f\left(x\right)") == "f(x)"


def test_too_wide_display_falls_back_to_one_line_entries() -> None:
    wide = r"M = \begin{bmatrix} " + " & ".join([r"\frac{1}{1 + 3 e}"] * 12) + r" \end{bmatrix}"
    shown = plain.display(wide, width=60)
    assert max(len(line) for line in shown.splitlines()) <= 60
    assert "1/(1 + 3e)" in shown and "─" not in shown


def test_brackets_enclose_a_matrix_cut_into_column_groups() -> None:
    """Too wide for the page, a matrix inside softmax(...) is cut into column groups; the
    brackets still hold all of it (they used to sit on its first line only)."""
    cells = " & ".join([r"\sin{\left(1 \right)} + \cos{\left(1 \right)}"] * 4)
    matrix = rf"\begin{{bmatrix}} {cells} \\ {cells} \end{{bmatrix}}"
    lines = plain.display(
        rf"A = \operatorname{{softmax}}\left({matrix}\right)", width=70
    ).splitlines()
    assert max(len(line) for line in lines) <= 70
    assert lines[0].rstrip().endswith("⎞") and lines[-1].rstrip().endswith("⎠")
    assert "columns 1–" in lines[0]


def test_a_factor_before_a_matrix_in_column_groups_stands_by_its_brackets() -> None:
    """rope's scaled scores read ``= 1/2 columns 1–2:``, the factor beside the group's label as
    if it were words; the label now goes above the first group, the factor by its brackets."""
    cells = " & ".join([r"\cos 2 - \sin 2 + \cos 2 \varphi - \sin 2 \varphi"] * 3)
    matrix = rf"\begin{{bmatrix}} {cells} \\ {cells} \\ {cells} \end{{bmatrix}}"
    lines = plain.display(rf"= \frac{{1}}{{2}} {matrix}", width=90).splitlines()
    assert lines[0].strip() == "columns 1–2:"
    assert lines[2].startswith("= 1/2 ⎢") and lines[1].strip().startswith("⎡")
    assert [line.strip() for line in lines].index("column 3:") == 4


def test_a_product_s_other_factor_follows_the_last_column_group_after_a_times_sign() -> None:
    """alibi's head output ``A_1 V_1``: A_1 in column groups, V_1 stood beside its columns 1–2
    only, as if it multiplied them alone; it now follows the last group, marked ×. A relation
    after the groups (their decimals) goes below them without one."""
    cells = " & ".join([r"\frac{e^{1/16}}{1 + e^{1/16} + e^{9/8}}"] * 3)
    wide = rf"\begin{{bmatrix}} {cells} \\ {cells} \end{{bmatrix}}"
    other = r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}"
    lines = plain.display(rf"= {wide} {other}", width=90).splitlines()
    assert lines[0].strip() == "columns 1–2:" and lines[3].strip() == "column 3:"
    assert not any(line.rstrip().endswith("⎤ ⎡ 1  0 ⎤") for line in lines)  # not by columns 1–2
    times = [line for line in lines if line.lstrip().startswith("×")]
    assert times == ["× ⎢ 0  1 ⎥"] and lines[-1].strip() == "⎣ 1  1 ⎦"
    assert lines.index(times[0]) == 7  # below the last group (column 3's two rows)
    assert lines[1].startswith("= ⎡")  # the equals sign by the first group, as before
    approx = plain.display(rf"= {wide} \approx {other}", width=90).splitlines()
    assert not any("×" in line for line in approx)
    assert approx[-2].startswith("≈ ⎢ 0  1 ⎥")


def test_greek_letters_are_drawn_as_letters_not_spelled() -> None:
    """rope's text solution printed ``cos 2varphi - sin varphi``."""
    assert plain.inline(r"\cos 2 \varphi - \sin \varphi") == "cos 2φ - sin φ"
    assert plain.inline(r"\pi + \sigma \lambda") == "π + σ λ"


def test_prose_is_not_broken_inside_a_row_of_a_matrix() -> None:
    """temperature's limit as uniform weights broke "[[1/3, 1/3," from "1/3], ..." at 80
    columns; a row too long for half a line still breaks where it must."""
    from mha_symbolic.solution.terminal import wrap

    row = "[1/3, 1/3, 1/3]"
    text = "and every exponential tends to 1, so they tend to " + f"[{row}, {row}, {row}]: same."
    lines = wrap(text, width=60).splitlines()
    assert all(line.count("[") == line.count("]") or "[[" in line for line in lines)
    assert not any(line.rstrip().endswith(("1/3,", "[1/3,")) for line in lines)
    long_row = "[" + ", ".join(["0.25"] * 12) + "]"
    assert max(len(line) for line in wrap(f"so {long_row} here", width=40).splitlines()) <= 40


def test_a_row_in_the_line_is_written_as_the_text_writes_rows() -> None:
    """one-token's assumed head output read ``[0.5 1.2]`` beside the given ``[4, 11]``."""
    assert plain.inline(r"\begin{bmatrix} 0.5 & 1.2 \end{bmatrix}") == "[0.5, 1.2]"
    assert plain.inline(r"x = \begin{bmatrix} 4 & 11 \end{bmatrix}") == "x = [4, 11]"
    two = r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}"
    assert plain.inline(two) == "[[1, 0], [0, 1]]"


def test_a_matrix_written_into_a_product_is_named_in_its_column_groups_labels() -> None:
    """alibi's text solution wrote ``head_1 = A_1 V_1`` with A_1 in groups labelled "columns
    1–2:", which matrix unsaid (HTML and PDF never print a bare label): each group now says
    whose columns they are, as a whole line of the chain does."""
    cells = " & ".join([r"\frac{e^{1/16}}{1 + e^{1/16} + e^{9/8}}"] * 3)
    wide = rf"\begin{{bmatrix}} {cells} \\ {cells} \end{{bmatrix}}"
    other = r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}"
    labels = {wide: ("columns {first}–{last} of A₁:", "column {first} of A₁:")}
    lines = plain.display(rf"= {wide} {other}", width=90, operands=labels).splitlines()
    assert lines[0].strip() == "columns 1–2 of A₁:" and lines[3].strip() == "column 3 of A₁:"


def test_no_text_solution_labels_a_column_group_without_its_matrix() -> None:
    import re

    from mha_symbolic import AttentionSpec, derive
    from mha_symbolic.solution.render import render
    from mha_symbolic.solution.view import Options

    d = derive(AttentionSpec.example("alibi"))
    text = render(d, "text", Options(), images={})
    assert not re.search(r"(?m)^\s*columns? \d+(–\d+)?:$", text)
    assert "columns 1–2 of A₁:" in text and "column 3 of A₂:" in text
    bengali = render(d, "text", Options(lang="bn"), images={})
    assert "A₁-এর কলাম 1–2:" in bengali
