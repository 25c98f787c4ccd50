"""The PDF as a teacher hands it out: steps kept on one page, no last page of a few lines, no
bare "= columns 1–3:" where maths is expected."""

from __future__ import annotations

import functools
import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.solution import wide
from mha_symbolic.solution.render import pdf_bytes, render, tex_escape
from mha_symbolic.solution.view import Options
from mha_symbolic.spec.attention import example_names

NO_PDF_TOOLS = shutil.which("pdflatex") is None or shutil.which("pdftotext") is None


def rope_of_four_tokens() -> AttentionSpec:
    """rope with a fourth token: its scores too wide for a page even in the text format, so
    that they go in column groups (three tokens' now fit whole)."""
    from mha_symbolic.spec.attention import example_text
    from mha_symbolic.spec.input_files import parse_toml

    raw = parse_toml(example_text("rope"), "rope")
    raw["tokens"], raw["x"] = ["a", "b", "c", "d"], [[1, 0], [0, 1], [1, 1], [1, -1]]
    return AttentionSpec.from_dict(raw)


def test_a_group_label_is_words_beside_the_matrix_name_as_maths() -> None:
    assert wide.label("columns {first}–{last} of {name}:", 1, 3, "S'_{2}") == (
        r"\text{columns 1–3 of}\ S'_{2}\text{:}"
    )
    assert wide.label("column {first} of {name}:", 4, 4, "O") == r"\text{column 4 of}\ O\text{:}"
    assert wide.label("{name}-এর কলাম {first}–{last}:", 1, 2, "C") == r"C\text{-এর কলাম 1–2:}"
    assert wide.label("{name} 50% #{first}", 1, 1, "C", tex_escape) == r"C\ \text{50\% \#1}"


def test_no_format_prints_a_bare_columns_label_after_an_equals_sign() -> None:
    d = derive(rope_of_four_tokens())
    for fmt in ("md", "tex", "html"):
        text = render(d, fmt, Options(), images={}).replace("&#x000A0;", " ")
        assert not re.search(r"(=|<mo>&#x0003D;</mo>)\s*(\\text\{|<mtext>)columns? \d", text), fmt
        assert "column 1 of" in text, fmt
    bengali = render(d, "md", Options(lang="bn"), images={})
    assert r"S_{2}\text{-এর কলাম 1:}\quad \begin{bmatrix}" in bengali


def test_each_step_and_the_summary_are_kept_on_one_page_in_the_tex() -> None:
    d = derive(AttentionSpec.example("two-tokens"))
    tex = render(d, "tex", Options(), images={})
    steps = tex.count(r"\label{")  # each step's heading
    kept = re.findall(r"\\begin\{keep\}(\[1\])?\n(.*?)\\end\{keep\}", tex, re.DOTALL)
    # given weights (each head's, then W_O with its note on its shape, which began the page
    # after its matrix)
    given = [body for _, body in kept if body.startswith(r"\textbf{")]
    assert [body.partition("}")[0] for body in given] == [
        r"\textbf{Weights of head 1",
        r"\textbf{Weights of head 2",
        r"\textbf{Given weights",
    ]
    assert r"\textit{Note:} The document prints $W_{O}$" in given[-1]
    kept = [(whole, body) for whole, body in kept if body not in given]
    # every step, the Input's token list apart from its matrix (a page may end between them),
    # the last step's caption and insights apart from its working (which goes with the summary),
    # and the summary
    assert len(kept) == steps + 3
    assert [body.count("Shape: $") for whole, body in kept[:3]] == [0, 1, 1]
    assert kept[0][1].rstrip().endswith(r"\end{itemize}")
    assert kept[-3][1].startswith(r"\stepwords{The output projection mixes what the heads found.")
    assert kept[-3][1].count("Shape: $") == 0 and r"\insight{" in kept[-3][1]
    assert all(body.count("Shape: $") == 1 for whole, body in kept[1:-3] + kept[-2:-1])
    # the space of a paragraph before the last step's working, which a kept box has not (its
    # first line touched the insight above it: pytorch-style's W_O^T the word "merges")
    assert re.search(
        r"\\end\{keep\}\n\\nopagebreak\\vspace\{\\parskip\}\n\\begin\{keep\}\[0\.95\]\n"
        r"\\begin\{keep\}\n\\chain",
        tex,
    )
    assert kept[-1][0] == "[1]" and kept[-1][1].startswith("\\tightsummary\n\\section*{Summary")
    assert "Every value above is exact" in kept[-1][1]
    for command in (r"\raggedbottom", r"\widowpenalty=10000", r"\clubpenalty=10000"):
        assert command in tex


def _pages(pdf: bytes, tmp_path: Path) -> list[list[str]]:
    """Each page's non-empty lines, as pdftotext reads them."""
    path = tmp_path / "solution.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    return [
        [line.strip() for line in page.splitlines() if line.strip()] for page in text.split("\f")
    ][:-1]


@functools.cache
def _example_pdf(name: str) -> bytes:
    return pdf_bytes(derive(AttentionSpec.example(name)), Options())


# A4 with 2 cm margins, in PDF points from the top: where the text area begins and ends (the
# page number sits below it).
TEXT_TOP, TEXT_BOTTOM = 56.7, 785.2


def _extents(pdf: bytes, tmp_path: Path) -> list[tuple[float, float]]:
    """Each page's text from its first line's top to its last line's foot, page number left out."""
    path = tmp_path / "solution.pdf"
    path.write_bytes(pdf)
    html = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    extents = []
    for page in html.split("<page ")[1:]:
        words = re.findall(r'yMin="([0-9.]+)" xMax="[0-9.]+" yMax="([0-9.]+)"', page)
        inside = [(float(top), float(foot)) for top, foot in words if float(foot) < TEXT_BOTTOM + 5]
        extents.append((min(top for top, _ in inside), max(foot for _, foot in inside)))
    return extents


@pytest.mark.parametrize("name", example_names())
def test_the_first_page_is_filled_and_the_summary_goes_over_only_when_it_does_not_fit(
    name: str, tmp_path: Path
) -> None:
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    pdf = _example_pdf(name)
    extents = _extents(pdf, tmp_path)
    height = TEXT_BOTTOM - TEXT_TOP
    # The Input step's token list may end the page: page 1 was left a third empty before.
    assert (extents[0][1] - TEXT_TOP) / height > 0.75, extents[0]
    if _pages(pdf, tmp_path)[-1][0].startswith("Summary: the complete pipeline"):
        summary = extents[-1][1] - extents[-1][0]
        room = TEXT_BOTTOM - extents[-2][1]
        # Its heading's space above (dropped atop a page) is about two lines more.
        assert room < summary + 28, (room, summary)


@pytest.mark.parametrize("name", example_names())
def test_no_page_starts_with_a_lone_shape_line_and_the_summary_ends_the_last_page_whole(
    name: str, tmp_path: Path
) -> None:
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    pages = _pages(_example_pdf(name), tmp_path)
    assert [n for n, lines in enumerate(pages, 1) if lines[0].startswith("Shape:")] == []
    last = pages[-1]
    assert any(line.startswith("Summary: the complete pipeline") for line in last), last[:3]
    assert last[-2].startswith("Every value above is exact")  # (then the page number)
    assert len(last) >= 10


@pytest.mark.parametrize("name", example_names())
def test_the_summary_never_stands_alone_on_the_last_page(name: str, tmp_path: Path) -> None:
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    last = _pages(_example_pdf(name), tmp_path)[-1]
    assert not last[0].startswith("Summary: the complete pipeline"), last[:3]


def test_token_detail_works_each_step_in_place_of_its_matrix_working(tmp_path: Path) -> None:
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    d = derive(AttentionSpec.example("two-tokens"))
    matrix = _pages(pdf_bytes(d, Options()), tmp_path)
    token = _pages(pdf_bytes(d, Options(detail="token")), tmp_path)
    assert (len(matrix), len(token)) == (6, 7)  # was 8: each query's working, then it again
    assert not token[-1][0].startswith("Summary: the complete pipeline")
    words = [line for page in token for line in page]
    assert sum(line.startswith("Each query’s dot products") for line in words) == 2  # a head
    assert not any(line.startswith("Query token") for line in words)


def _text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "solution.pdf"
    path.write_bytes(pdf)
    run = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True)
    return run.stdout


def test_a_matrix_tex_can_set_at_80_percent_stays_whole_a_wider_one_goes_in_groups(
    tmp_path: Path,
) -> None:
    """pytorch-style's output O (six columns of fractions) goes in two column groups in the
    text format, though the PDF can set it at nearly full size; TeX measures it and keeps it
    whole. Five long trigonometric columns are too wide for that, and go in column groups."""
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    d = derive(AttentionSpec.example("pytorch-style"))
    assert r"\text{columns 1–3 of}\ O" in render(d, "tex", Options(), images={})
    assert not re.search(
        r"columns? \d+(–\d+)? of O:", _text(_example_pdf("pytorch-style"), tmp_path)
    )
    preamble = render(d, "tex", Options(), images={}).partition(r"\begin{document}")[0]

    def chosen(columns: int) -> str:
        entry = r"\cos{\left(2 \right)} + \sin{\left(2 \right)} + \cos 2 \varphi"
        matrix = r"\begin{bmatrix}" + " & ".join([entry] * columns) + r"\end{bmatrix}"
        body = rf"\wholeorgroups{{= {matrix}}}{{\fitmath{{\text{{GROUPED}}}}}}"
        (tmp_path / "m.tex").write_text(
            preamble + "\\begin{document}\n" + body + "\n\\end{document}\n", encoding="utf-8"
        )
        subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "m.tex"], cwd=tmp_path, capture_output=True
        )
        return _text((tmp_path / "m.pdf").read_bytes(), tmp_path)

    assert "GROUPED" not in chosen(3) and "GROUPED" in chosen(5)


@pytest.mark.parametrize("name", ["temperature", "split-scaled"])
def test_a_matrix_of_several_rows_in_prose_is_set_as_display_maths(name: str) -> None:
    """In the line, temperature's limits and split-scaled's assumed Z_2 pushed the lines of
    their paragraphs apart; they are set apart as display maths, with the colon after them,
    and a row stays in the line."""
    from mha_symbolic.check.judge import check

    d = derive(AttentionSpec.example(name))
    tex = render(d, "tex", Options(marks=check(d).marks()), images={})  # as derive writes it
    inline = re.findall(r"(?<!\\)\$([^$]*)\$", tex)
    assert not [m for m in inline if re.search(r"\\begin\{bmatrix\}[^$]*\\\\", m)]
    displayed = re.findall(r"\\\[(.*?)\\\]", tex, re.DOTALL)
    assert any(r"\end{bmatrix}" in m for m in displayed)
    if name == "temperature":
        assert r"0 & 0 & 1 \end{bmatrix}}\text{:}\]each row puts all its weight" in tex
    else:  # the printed rows beside the assumed head outputs: one row each, in the line
        bengali = render(d, "tex", Options(lang="bn", marks=check(d).marks()), images={})
        assert r"0.33 & 0.67 \end{bmatrix}\text{।}\]" in bengali  # the danda with its display
        assert r"($\left[\frac{a}{a + 1},\; \frac{1}{a + 1}\right] \approx" in tex


@pytest.mark.parametrize("name", example_names())
def test_no_page_is_left_mostly_empty_before_the_last(name: str, tmp_path: Path) -> None:
    """Each page but the last is at least 75% filled. eight-tokens-split's page 13 was 59% empty:
    its last step was bound whole to the summary, where only the step's chosen numbers need to be. A
    last step without chosen numbers keeps its working with the summary, so that the summary never
    stands alone; its caption and insights may end the page before (rope's page before them was 41%
    empty; now they go with the start of its working), and a kept block that does not fit in more
    than a fifth of a page left breaks between its lines (eight-tokens-split's page 10 was 27%
    empty). causal-dropout's page 5 was 33% empty and rope's page 8 28%: their output steps wrote O
    = C with C's matrix again, and a key insight the summary's closed form repeated; with O = C
    alone both summaries fit below the concatenation. alibi's page 4 was 26% empty (its head output
    did not fit under the weights' heatmap); with its biased scores in fractions (7/16, not 0.4375)
    the softmax does not write them out again, and it fits. pytorch-style's page 4 was 28% empty:
    its attention weights, one display a quarter of a page tall kept with its caption, did not fit
    below the scaled scores; a step that does not fit may end a page after its words, its working
    beginning the next (18%; no longer, below), and one breaks when 15% of the page is left, not 20%
    (alibi's page 7 was 23% empty, rope's page 2 21%). split-scaled's page 3 was 21% empty and
    pytorch-style's page 9 22%: a heatmap that did not fit below its weights went atop the next
    page, and the head output after it went whole to that page too (the figure would have come
    between its words and its working); a heatmap that does not fit now follows the head output
    instead (9%, 9%; the fullest example's emptiest page 18%). A step's words no longer end a page
    apart from its maths (split-scaled's head output and, in Bengali, its attention weights did): a
    step whose words and first display do not fit goes whole to the next page, which may leave the
    page before emptier than 20%, but never by more than that step's height. Such a step, a quarter
    of a page or taller, left rope's page 3 29% empty, pytorch-style's page 4 28% and alibi's page
    7 32%: a long step now ends the page between its exact value and its decimals, and goes on
    under its title, continued (2%, 1%, 2%; the fullest example's emptiest page 22%)."""
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    _assert_pages_fill(_example_pdf(name), tmp_path)


def _assert_pages_fill(pdf: bytes, tmp_path: Path) -> None:
    """Every page but the last at most 20% empty, or less empty than the height of the step
    that begins the next page, from its heading to its shape line (a step kept whole) and the
    space above its heading (about two lines), or of what the last page keeps with the
    summary; and never a quarter (a longer step breaks)."""
    height = TEXT_BOTTOM - TEXT_TOP
    lines = _lines(pdf, tmp_path)
    for n, (page, after) in enumerate(itertools.pairwise(lines), 2):
        empty = (TEXT_BOTTOM - page[-1][3]) / height
        if empty <= 0.2:
            continue
        step = [foot for text, _, _, foot in after if text.startswith(("Shape:", "আকার:"))]
        if n == len(lines):  # the last step's end kept with the summary (pytorch-style's note)
            step = [after[-1][3]]
        kept = (step[0] - TEXT_TOP + 28) / height if step else 0
        assert empty < min(0.25, kept), (empty, after[0])


def _lines(pdf: bytes, tmp_path: Path) -> list[list[tuple[str, float, float, float]]]:
    """Each page's lines of text, top to bottom, page number left out: its text, the left
    edge of its first word, its top and its foot (in points, pdftotext's boxes)."""
    path = tmp_path / "solution.pdf"
    path.write_bytes(pdf)
    html = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    pages = []
    word = r'xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="[0-9.]+" yMax="([0-9.]+)">([^<]*)<'
    for page in html.split("<page ")[1:]:
        words = sorted(
            (float(top), float(left), float(foot), text)
            for left, top, foot, text in re.findall(word, page)
            if float(foot) < TEXT_BOTTOM + 5
        )
        lines: list[list[tuple[float, float, float, str]]] = []
        for top, left, foot, text in words:
            if lines and top < lines[-1][0][2] - 2:  # begins above the line's first word's foot
                lines[-1].append((top, left, foot, text))
            else:
                lines.append([(top, left, foot, text)])
        pages.append(
            [
                (
                    " ".join(w[3] for w in sorted(line, key=lambda w: w[1])),
                    min(w[1] for w in line),
                    min(w[0] for w in line),
                    max(w[2] for w in line),
                )
                for line in lines
            ]
        )
    return pages


# The left margin in points: words and notes begin there, an insight 1em in; a display is
# centred, well to the right of it.
LEFT = 56.7


def _words_end_pages(pdf: bytes, tmp_path: Path) -> list[int]:
    """The pages whose last line is words (it begins at the margin, or an insight's 1em in)
    and the next begins with a display at the top of its text (centred, not after a figure):
    a step's words apart from its maths."""
    lines = _lines(pdf, tmp_path)
    return [
        n
        for n, (page, after) in enumerate(itertools.pairwise(lines), 1)
        if page[-1][1] < LEFT + 15 and after[0][1] > LEFT + 60 and after[0][2] < TEXT_TOP + 30
    ]


def _decimals_apart_pages(pdf: bytes, tmp_path: Path) -> list[int]:
    """The pages that begin with a display of decimals (≈) with no = in it, before any words
    or a heading: a step's decimals whose exact value ended the page before."""
    found = []
    for n, page in enumerate(_lines(pdf, tmp_path)[1:], 2):
        display = ""
        for text, left, _, _ in page:
            if left < LEFT + 15:
                break
            display += " " + text
        if "≈" in display and "=" not in display:
            found.append(n)
    return found


@pytest.mark.parametrize(
    ("name", "continued"),
    [
        ("rope", ["Scaled scores, head 1", "Head output, head 1", "Scaled scores, head 2"]),
        (
            "pytorch-style",
            ["Attention weights, head 1", "Head output, head 1", "Head output, head 2", "Output"],
        ),
        (
            "eight-tokens-split",
            [
                "Scaled scores, head 1",
                "Head output, head 1",
                "Queries, head 2",
                "Attention scores, head 2",
                "Attention weights, head 2",
                "Output",  # its chosen numbers, kept with the summary, began the last page
            ],
        ),
        ("alibi", ["Concatenated heads"]),
        # its steps are short: each goes whole to the next page; the output's framed note
        # ("Given as a formula, without numbers") began the last page with no word of whose
        ("split-scaled", ["Output"]),
        ("two-tokens", []),
    ],
)
def test_a_long_step_goes_on_atop_the_next_page_under_its_title_continued(
    name: str, continued: list[str], tmp_path: Path
) -> None:
    """A step a quarter of a page or taller that does not fit ends the page after its exact
    value (rope's scaled scores, pytorch-style's attention weights: moved whole, they left the
    page before 29% and 28% empty), or before its general entry (rope's o_i began page 5 with no
    word of whose it was), or between the lines of its chain (pytorch-style's page 6 began
    "= [...]"); a step's notes and chosen numbers likewise (eight-tokens-split's page 5 began
    "Note: Again too long to print"). The next page begins with its title, continued, then the
    rest of the step. The label is never printed where no step broke."""
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    pages = _lines(_example_pdf(name), tmp_path)
    labelled = [n for n, page in enumerate(pages) if page[0][0].endswith("(continued)")]
    assert [pages[n][0][0] for n in labelled] == [f"{title} (continued)" for title in continued]
    words = [text for page in pages for text, *_ in page]
    assert sum("(continued)" in text for text in words) == len(continued)
    for n in labelled:
        rest = pages[n][1]  # its maths goes on below the title, or its notes or chosen numbers
        notes = ("Note:", "With the chosen numbers", "Given as a formula")
        assert rest[1] > LEFT + 15 or rest[0].startswith(notes)
    if name == "rope":  # the decimals of S'_1, whose exact value ended page 3
        assert "≈" in " ".join(text for text, *_ in pages[labelled[0]][1:4])
        assert pages[labelled[0] - 1][-1][0].startswith("cos 2 sin 2 + cos 2φ + sin 2φ")


@pytest.mark.parametrize("name", example_names())
def test_no_page_begins_with_maths_without_a_word_of_whose_it_is(name: str, tmp_path: Path) -> None:
    """pytorch-style's head outputs broke between their product and its value: pages 6 and 8
    began "= [...]". Each page begins with words (a heading, a title continued, a note)."""
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    pages = _lines(_example_pdf(name), tmp_path)
    assert [n for n, page in enumerate(pages[1:], 2) if page[0][1] > LEFT + 60] == []


@pytest.mark.parametrize("name", example_names())
def test_a_step_s_decimals_begin_no_page_apart_from_its_exact_value(
    name: str, tmp_path: Path
) -> None:
    """rope's rotated queries and alibi's head output ended a page with their exact value and
    began the next with its decimals: now beside it when both fit the page width (rope's
    cosines and sines ≈ their decimals, one line), else below it, on the same page."""
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    assert _decimals_apart_pages(_example_pdf(name), tmp_path) == []


@pytest.mark.parametrize("name", example_names())
def test_no_page_ends_with_a_step_s_words_and_the_next_begins_with_its_maths(
    name: str, tmp_path: Path
) -> None:
    """split-scaled's head output ended page 3 after its words (caption, insight, picture),
    its maths atop page 4: a step's words go with the start of its maths."""
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    assert _words_end_pages(_example_pdf(name), tmp_path) == []


def test_a_tall_matrix_of_numbers_is_set_at_its_rows_own_height() -> None:
    """Six rows or more of plain numbers at amsmath's own spacing (eight rows 1.3 apart took a
    fifth of a page each); a short one keeps the page's spacing, fractions theirs (2.1)."""
    from mha_symbolic.solution.render import full_size_fractions

    def matrix(rows: int, entry: str = "0.2") -> str:
        return r"\begin{bmatrix} " + r" \\ ".join([f"{entry} & 1"] * rows) + r" \end{bmatrix}"

    assert full_size_fractions(f"X = {matrix(6)}") == rf"X = {{\def\arraystretch{{1}}{matrix(6)}}}"
    assert full_size_fractions(f"X = {matrix(5)}") == f"X = {matrix(5)}"
    # Fractions of exponentials reach past rows 2.1 apart (alibi's 1/(1 + e^{1/16}) touched
    # the row below): a little space between the rows themselves.
    exponentials = full_size_fractions(matrix(2, r"\frac{1}{1 + e^{1/16}}"))
    assert r"\\ \noalign{\vskip 0.8ex} \dfrac{1}{1 + e^{1/16}}" in exponentials
    assert r"\noalign" not in full_size_fractions(matrix(2, r"\frac{a}{2}"))
    # A row of 0s under fractions stands closer to them (not a fraction's height apart)
    mixed = full_size_fractions(
        r"\begin{bmatrix} \frac{a}{2} & 1 \\ 0 & 0 \\ \frac{1}{3} & 0 \end{bmatrix}"
    )
    assert r"& 1 \\ \noalign{\vskip -1.8ex} 0 & 0 \\ \dfrac{1}{3} & 0" in mixed
    fractions = full_size_fractions(matrix(8, r"\frac{a}{2}"))
    assert fractions.startswith(r"{\def\arraystretch{2.1}\begin{bmatrix} \dfrac{a}{2} & 1")
    # One row has no rows to part: its brackets hug it (one-token's [34] stood in brackets
    # twice its height), its fractions full size all the same.
    assert full_size_fractions(matrix(1)) == rf"{{\def\arraystretch{{0.8}}{matrix(1)}}}"
    assert full_size_fractions(matrix(1, r"\frac{a}{2}")).startswith(
        r"{\def\arraystretch{0.8}\begin{bmatrix} \dfrac{a}{2} & 1"
    )


def test_split_scaled_in_bengali_fills_its_pages_and_no_line_begins_with_a_danda(
    tmp_path: Path,
) -> None:
    """The Bengali PDF (xelatex), read as the English one: no page but the last more than 20% empty
    (the English bound, or the height of the step that begins the next), and no line of text that
    begins with the danda of a sentence whose matrix was displayed (it stays with the display). Page
    3 was 21% empty: with 14.8% of the page left, below the 15% at which a step may end the page
    after its words, the attention weights went whole to page 4; a step now may when 12% is left
    (the emptiest page 16%, as the English one's 18%). But then its words ended page 3 and its maths
    began page 4 (and the output's words ended page 6): a step's words now stay with the start of
    its maths, and the page before is left as empty as that step is tall."""
    from mha_symbolic.check.judge import check
    from mha_symbolic.solution.pdf import bengali_font

    if NO_PDF_TOOLS or shutil.which("xelatex") is None or bengali_font() is None:
        pytest.skip("xelatex, a Bengali font or pdftotext is not installed")
    d = derive(AttentionSpec.example("split-scaled"))
    pdf = pdf_bytes(d, Options(lang="bn", marks=check(d).marks()))
    _assert_pages_fill(pdf, tmp_path)
    assert _words_end_pages(pdf, tmp_path) == []  # its attention weights' words ended page 3
    assert not re.search(r"(?m)^।[ \t]*\S", _text(pdf, tmp_path))


def test_the_closed_form_sets_the_heads_side_by_side_when_they_fit(tmp_path: Path) -> None:
    """The closed form ("the whole block in one line") was a line per head; side by side,
    alibi's output step and summary fit below its concatenation (its page 8 was 38% empty)."""
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    lines = [line for page in _pages(_example_pdf("alibi"), tmp_path) for line in page]
    heads = [line for line in lines if line.startswith("head1 = softmax")]
    assert heads and "head2 = softmax" in heads[0]
    assert len(_pages(_example_pdf("alibi"), tmp_path)) == 8


@pytest.mark.parametrize(
    ("name", "pages"), [("eight-tokens-split", 11), ("temperature", 5), ("pytorch-style", 10)]
)
def test_a_step_s_notes_come_before_its_chosen_numbers_and_the_pages_fill(
    name: str, pages: int, tmp_path: Path
) -> None:
    """A note on how a step's general value is written ("too long to print ... Here q_i is
    row i of Q_1") follows that value, before the numbers chosen to work it, where it read
    as a note on the matrix of numbers just printed; one head's concatenation is that head's
    output (C = head_1), not its matrix again. eight-tokens-split went from 12 pages (its
    page 11 a third empty) to 11, temperature from 6 (page 5 38% empty) to 5; pytorch-style
    from 11 (page 4 33% empty) to 10, its 1/sqrt(3) pulled out of the scores (not written
    into every entry as sqrt(3)/3) and its softmax not writing them out a third time.
    eight-tokens-split then went to 10 (its page 11 was 47% empty): each projection writes its
    general entry and first entry, not its 8 rows of symbolic sums, before its numbers; and to
    11 again when the five of its steps that go on over a page did so under their titles,
    continued (pages 5 and 9 began "Note: Again too long to print", with no word of whose)."""
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    md = derive(AttentionSpec.example(name)).to_markdown()
    both = [s for s in md.split('<a id="') if "*Note:*" in s and "With the chosen numbers" in s]
    assert both or "With the chosen numbers" not in md  # pytorch-style chooses none
    assert all(s.index("*Note:*") < s.index("With the chosen numbers") for s in both)
    extents = _extents(_example_pdf(name), tmp_path)
    height = TEXT_BOTTOM - TEXT_TOP
    assert len(extents) == pages
    assert max(1 - (foot - TEXT_TOP) / height for _, foot in extents[:-1]) < 0.3


def test_the_marks_that_carry_a_step_s_title_take_no_room(tmp_path: Path) -> None:
    """The marks around a step's notes (\\continuefrom, \\continueto) sit between paragraphs:
    one at the end of a note's last line left a space before it, and rope's summary, with
    --detail token, no longer fitted on its last page (9 pages, the eighth 45% empty). Without
    the marks, every line of that PDF (which breaks no step) stands where it stood."""
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    from mha_symbolic.language.locales import template_dir

    shipped = template_dir()
    plain = tmp_path / "templates"
    shutil.copytree(shipped, plain)
    tex = plain / "derivation.tex.j2"
    text = tex.read_text(encoding="utf-8")
    defined = re.findall(r"(?m)^\\newcommand\{\\continue(?:from|to)\}.*$", text)
    assert len(defined) == 2
    for line in defined:
        text = text.replace(line, line.partition("}")[0] + "}{}")
    tex.write_text(text, encoding="utf-8")
    d = derive(AttentionSpec.example("rope"))
    marked = _lines(pdf_bytes(d, Options(detail="token")), tmp_path)
    unmarked = _lines(pdf_bytes(d, Options(detail="token", templates=str(plain))), tmp_path)
    assert len(marked) == 8
    assert marked == unmarked


def test_a_step_s_words_never_part_across_a_page(tmp_path: Path) -> None:
    """rope with an introduction a line longer: its head 2 rotated queries, a step too tall to
    keep whole, ended page 5 in the middle of its caption ("... The token at position" / "p (0
    for the first) has pair j ..." atop page 6). A step's words now stay together, with the
    start of its maths; every page begins with a heading or a step's title (continued)."""
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    from mha_symbolic.spec.attention import example_text
    from mha_symbolic.spec.input_files import parse_toml

    raw = parse_toml(example_text("rope"), "rope")
    raw["description"] += " " + "It turns them in a sentence that runs a line on. " * 2
    d = derive(AttentionSpec.from_dict(raw))
    pages = _lines(pdf_bytes(d, Options()), tmp_path)
    titles = [s.title for s in d.steps] + ["Head 1", "Head 2"]
    firsts = [page[0][0].removesuffix(" (continued)") for page in pages[1:]]
    assert [first for first in firsts if first not in titles] == []


def test_rope_in_bengali_fills_its_pages_and_its_summary_keeps_the_output_company(
    tmp_path: Path,
) -> None:
    """The Bengali rope PDF (xelatex) had 9 pages, page 8 42% empty: its output step and the
    summary kept with it, some 35pt taller than what page 8 had left, went whole to page 9. The
    summary's heading and table now have less space around them than a step's; they fit, 8 pages."""
    from mha_symbolic.solution.pdf import bengali_font

    if NO_PDF_TOOLS or shutil.which("xelatex") is None or bengali_font() is None:
        pytest.skip("xelatex, a Bengali font or pdftotext is not installed")
    pdf = pdf_bytes(derive(AttentionSpec.example("rope")), Options(lang="bn"))
    _assert_pages_fill(pdf, tmp_path)
    pages = _lines(pdf, tmp_path)
    assert len(pages) == 8
    assert pages[-1][0][0] == "েহেডর আউটপুট , েহড 2"  # (as pdftotext reads the Bengali)
    assert _words_end_pages(pdf, tmp_path) == []


def test_the_gradients_pdf_fills_its_pages(tmp_path: Path) -> None:
    """pytorch-style with --gradients: page 19 was 29% empty, its gradient of W_V (a column group
    of fractions, half its rows 0, a fifth of a page) moved whole to page 20; pages 16 and 17,
    21% and 18%, likewise. A row of 0s under fractions now stands closer to the row above it, and
    a long step's short first line ("W̄_V = V̄ᵀX") may end a page, the step going on under its
    title, continued. Every page but the last two is filled as the examples' are. The page before
    the last is 27% empty: the last page holds the summary (a third of a page, never alone) with
    the last step's note, taller than any room a page before it could leave."""
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    pdf = pdf_bytes(derive(AttentionSpec.example("pytorch-style"), gradients=True), Options())
    lines = _lines(pdf, tmp_path)
    height = TEXT_BOTTOM - TEXT_TOP
    empty = [(TEXT_BOTTOM - page[-1][3]) / height for page in lines]
    assert len(lines) == 21
    assert max(empty[:-2]) < 0.2, empty
    assert empty[-2] < 0.28, empty
    summary = [text for text, *_ in lines[-1]]
    assert summary[0] == "Gradient of the input (continued)"
    assert summary[1].startswith("Note:") and "Summary: the complete pipeline" in summary[3:4]
