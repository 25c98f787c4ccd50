"""Worked solutions: exact LaTeX, formats, round trips, escaping, elision, languages, files."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess

import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, SpecError, derive
from mha_symbolic.cli import main
from mha_symbolic.solution.latex import exact
from mha_symbolic.solution.render import heatmaps, pdf_bytes, render, tex_escape
from mha_symbolic.solution.view import Options
from mha_symbolic.spec.attention import example_names
from mha_symbolic.spec.latex_adapter import parse_latex

# With pytest -n: every example is derived once (the session's `derivations`), on one worker.
pytestmark = pytest.mark.xdist_group("test_render")

HAS_PDFLATEX = shutil.which("pdflatex") is not None
needs_pdflatex = pytest.mark.skipif(
    not HAS_PDFLATEX,
    reason="pdflatex is absent (apt-get install texlive-latex-base texlive-latex-recommended)",
)

WEIGHTS_1 = (
    r"\begin{bmatrix} \frac{e}{1 + e} & \frac{1}{1 + e} \\ "
    r"\frac{1}{1 + e} & \frac{e}{1 + e} \end{bmatrix}"
)
HOSTILE = [r"\input{/etc/hostname}", "<script>alert(1)</script>"]


@pytest.fixture(scope="session")
def derivations():
    return {name: derive(AttentionSpec.example(name)) for name in example_names()}


@pytest.fixture(scope="module")
def two(derivations):
    return derivations["two-tokens"]


def hostile_spec(**extra):
    return AttentionSpec(
        title="Title with % & $ # _ ^ ~ { } \\ and <b>",
        tokens=HOSTILE,
        x=[[1, 0], [0, 1]],
        heads=1,
        scale="none",
        **extra,
    )


# ------------------------------------------------------------------ exact LaTeX
def test_two_tokens_weights_are_e_over_one_plus_e(two):
    assert two.latex("head1.weights") == WEIGHTS_1
    md = two.to_markdown()
    assert (
        r"A_{1} &= \operatorname{softmax}\left(S'_{1}\right) \\" + "\n"
        r" &= \operatorname{softmax}\left(\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}\right) \\"
        + "\n"
        + f" &= {WEIGHTS_1} \\\\\n"
        r"&\approx \begin{bmatrix} 0.73 & 0.27 \\ 0.27 & 0.73 \end{bmatrix}"
    ) in md


def test_two_tokens_output_is_exactly_one_half(two):
    assert two.latex("output") == r"\begin{bmatrix} 0.5 & 0.5 \\ 0.5 & 0.5 \end{bmatrix}"
    md = two.to_markdown()
    output = md[md.index('<a id="output"></a>') :]
    assert r"O &= C W_{O}" in output
    assert r"\approx" not in output.split("## ")[0]  # 0.5 is exact: no rounding shown


def test_scaled_scores_in_paper_notation_then_substituted(derivations):
    md = derivations["split-scaled"].to_markdown(decimals=3)
    assert r"S'_{1} &= \frac{Q_{1} K_{1}^{\top}}{\sqrt{d_{k}}} \\" in md
    # 1/sqrt(2) stays pulled out of the scores (not written into each entry as sqrt(2)/2:
    # pytorch-style's 4 x 4 of sqrt(3)/3 took a third of a page); the softmax writes S' out.
    assert (
        r" &= \frac{1}{\sqrt{2}} \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix} \\" + "\n"
        r"&\approx \begin{bmatrix} 0.707 & 0 \\ 0 & 0.707 \end{bmatrix}"
    ) in md
    assert (
        r"\operatorname{softmax}\left(\begin{bmatrix} \frac{\sqrt{2}}{2} & 0 \\ 0 & "
        r"\frac{\sqrt{2}}{2} \end{bmatrix}\right)"
    ) in md
    pytorch = derivations["pytorch-style"].to_markdown()
    assert r"\frac{\sqrt{3}}{3} & \frac{\sqrt{3}}{3}" not in pytorch
    # e^{sqrt(2)/2} is named once, then the weights are written with it.
    assert r"Let $a = e^{\sqrt{2}/2} \approx 2.028$" in md
    assert r"\begin{bmatrix} \frac{a}{a + 1} & \frac{1}{a + 1} \\" in md


def test_decimals_option(two):
    assert r"\approx \begin{bmatrix} 0.7311 & 0.2689" in two.to_markdown(decimals=4)


def test_pytorch_convention_writes_the_transpose(derivations):
    md = derivations["pytorch-style"].to_markdown()
    assert r"Q &= X W_{Q}^{\top}" in md
    assert r"Q_{1} &= Q[:,\, 0{:}3]" in md
    assert r"O &= C W_{O}^{\top}" in md


# ------------------------------------------------------------------ round trip
def _equal(parsed: sp.Basic, exact: sp.Basic, rng: random.Random) -> bool:
    """Structurally equal, or (for a different written form) equal to 50 digits at a random
    rational point of every symbol; -oo must be -oo."""
    if parsed == exact:
        return True
    if sp.oo in (abs(parsed), abs(exact)) or parsed.has(sp.oo) or exact.has(sp.oo):
        return False
    names = {s.name for s in parsed.free_symbols} | {s.name for s in exact.free_symbols}
    point = {name: sp.Rational(rng.randint(-9, 9), rng.randint(1, 9)) for name in names}
    a = parsed.subs({s: point[s.name] for s in parsed.free_symbols})
    b = exact.subs({s: point[s.name] for s in exact.free_symbols})
    return abs(sp.N(a - b, 60)) < sp.Float("1e-50")


def _round_trip(d, key: str) -> None:
    parsed = parse_latex(d.latex(key))
    exact = d[key]
    assert parsed.shape == exact.shape, key
    rng = random.Random(key)
    for i in range(exact.rows):
        for j in range(exact.cols):
            assert _equal(parsed[i, j], exact[i, j], rng), (key, i, j)


@pytest.mark.parametrize("name", ["two-tokens", "one-token", "split-scaled", "pytorch-style"])
def test_every_step_round_trips_through_latex2sympy2(derivations, name):
    d = derivations[name]
    for key in d:
        _round_trip(d, key)


def test_masked_steps_round_trip_with_minus_infinity():
    d = derive(AttentionSpec(x=[[1, 0], [0, 1], [1, 1]], heads=1, mask="causal"))
    assert d.latex("head1.masked").count(r"-\infty") == 3
    for key in d:
        _round_trip(d, key)


def test_eight_tokens_small_steps_round_trip(derivations):
    # latex2sympy2 needs about 10 s for one 8 x 8 matrix of scores and minutes for the
    # softmax: the full check is test_eight_tokens_every_step_round_trips (MHA_SLOW=1).
    d = derivations["eight-tokens-split"]
    for key in ("x", "head1.x", "head2.x", "head1.q", "head1.k", "head2.v"):
        _round_trip(d, key)
    for key in ("head1.scores", "head2.scaled"):  # one entry each
        entry = d[key][0, 0]
        assert _equal(parse_latex(exact(entry)), entry, random.Random(key))


@pytest.mark.skipif(not os.environ.get("MHA_SLOW"), reason="takes minutes; set MHA_SLOW=1")
def test_eight_tokens_every_step_round_trips(derivations):
    d = derivations["eight-tokens-split"]
    for key in d:
        _round_trip(d, key)


# ------------------------------------------------------------------ shapes and layouts
def test_fused_layout_shows_reshape_transpose_merge_and_shape_table(derivations):
    md = derivations["pytorch-style"].to_markdown()
    assert "### Reshape: split into attention heads" in md
    assert r"(L, E) = (4, 6) \to (L, h, d) = (4, 2, 3)" in md
    assert r"(L, h, d) = (4, 2, 3) \to (h, L, d) = (2, 4, 3)" in md
    assert r"\left[1,\; 0,\; 1 \;\middle|\; 0,\; 1,\; 0\right]" in md  # "The": Q row cut in two
    assert "Merge: the heads' outputs are transposed back" in md
    table = md[md.index("## Summary") :]
    assert (
        r"| 2 | Reshape / split heads | $(L, E) \to (L, h, d)$ | $(4, 6) \to (4, 2, 3)$ |" in table
    )
    assert r"| 3 | Transpose | $(L, h, d) \to (h, L, d)$ | $(4, 2, 3) \to (2, 4, 3)$ |" in table
    assert r"| 5 | Merge (concatenate heads) |" in table
    assert (
        r"| 6 | Output projection | $(L, h \cdot d) \cdot W_O^\top \to (L, E)$ | $(4, 6)$ |"
        in table
    )


def test_every_step_states_its_shape(derivations):
    d = derivations["eight-tokens-split"]
    md = d.to_markdown()
    for step in d.steps:
        section = md[md.index(f'<a id="{step.key}"></a>') :]
        shape_line = next(line for line in section.splitlines() if line.startswith("Shape: $"))
        assert shape_line.endswith(f"({step.shape[0]}, {step.shape[1]})$"), step.key
    # seed 002's shape arithmetic
    assert "Shape: $(8, 2) \\times (2, 2) = (8, 2)$" in md
    assert "Shape: $(8, 8) \\times (8, 2) = (8, 2)$" in md
    assert "Shape: $\\operatorname{Concat}[(8, 2), (8, 2)] = (8, 4)$" in md
    assert "Shape: $(8, 4) \\times (4, 4) = (8, 4)$" in md


def test_closed_form_of_each_head(derivations):
    md = derivations["split-scaled"].to_markdown()
    assert (  # seed 003's name for the head's output
        r"&Z_{1} = \operatorname{softmax}\left(\frac{Q_{1} K_{1}^{\top}}"
        r"{\sqrt{d_{k}}}\right) V_{1}"
    ) in md


def test_given_weights_are_listed_per_head_like_seed_001(derivations):
    md = derivations["one-token"].to_markdown()
    head1 = md[md.index("## Head 1") : md.index('<a id="head1.q"></a>')]
    assert "**Weights of head 1**" in head1
    assert r"&W_{Q}^{1} = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 0 & 0 \\ 1 & 0 \end{bmatrix}" in head1
    assert r"&W_{V}^{1} = \begin{bmatrix} 1 & 0 \\ 0 & 2 \\ 1 & 1 \\ 0 & 1 \end{bmatrix}" in head1
    split = derivations["split-scaled"].to_markdown()
    assert (
        "*Note:* $W_{Q}^{1}$, $W_{K}^{1}$ and $W_{V}^{1}$ are not given, so each is the "
        "identity: the head uses its input as it is." in split
    )
    assert split.count("are not given, so each is the identity") == 2  # one note per head
    weights = {"w_q": [[1, 0], [0, 1]], "w_k": [[0, 1], [1, 0]]}
    alone = derive(AttentionSpec(x=[[1, 0], [0, 1]], weights=weights)).to_markdown()
    assert "*Note:* $W_{V}^{1}$ is not given, so it is the identity: the head uses" in alone


# ------------------------------------------------------------------ token detail
def test_token_detail_like_seed_000(two):
    md = two.to_markdown(detail="token")
    # each query's working in place of the matrix working of the step it works out, once
    scores = md.index("### Attention scores, head 1")
    working = md.index("Each query's dot products with every key:")
    assert scores < working < md.index(r"S_{1} &= Q_{1} K_{1}^{\top} \\")
    assert "Token by token" not in md and md.count("&q_{1} \\cdot k_{2}") == 2  # one a head
    matrices = r"0 & 1 \end{bmatrix} \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}^{\top}"
    assert matrices not in md and matrices in two.to_markdown()  # Q K^T written in matrices
    # every query's lines of a stage in one display, the matrix they make once, exactly
    assert md.count("Each query's dot products with every key:") == 2  # one a head
    weights = md[md.index("### Attention weights, head 1") : md.index("### Head output, head 1")]
    assert r"0.73 & 0.27" not in weights and weights.count(r"\approx \left[0.73") == 1
    assert r"&q_{1} \cdot k_{2} = \left[1,\; 0\right] \cdot \left[0,\; 1\right] = 0" in md
    assert (
        r"&a_{1} = \operatorname{softmax}\left(\left[1,\; 0\right]\right) = "
        r"\left[\frac{e}{1 + e},\; \frac{1}{1 + e}\right] \approx \left[0.73,\; 0.27\right]"
    ) in md
    assert (
        r"&z_{1} = \sum_j a_{1j}\, v_j = \frac{e}{1 + e} \left[0,\; 1\right] + "
        r"\frac{1}{1 + e} \left[1,\; 0\right] = \left[\frac{1}{1 + e},\; \frac{e}{1 + e}\right]"
    ) in md  # head 2 of seed 000: 0.73 [0, 1] + 0.27 [1, 0] = [0.27, 0.73]
    assert "Token by token" not in two.to_markdown()


def test_token_detail_says_once_that_unscaled_scores_are_the_logits(two):
    md = two.to_markdown(detail="token")
    scaled = md[md.index("### Scaled scores, head 1") : md.index("### Attention weights, head 1")]
    assert scaled.count("does not scale the scores") == 1 and "Each query" not in scaled
    assert scaled.count(r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}") == 1  # S' = S, once


def test_token_detail_scales_each_row(derivations):
    md = derivations["split-scaled"].to_markdown(detail="token")
    assert (
        r"&s'_{1} = \frac{\left[1,\; 0\right]}{\sqrt{2}} = "
        r"\left[\frac{\sqrt{2}}{2},\; 0\right] \approx \left[0.707,\; 0\right]"
    ) in md


# ------------------------------------------------------------------ large matrices
def test_large_matrices_are_elided_and_json_keeps_every_value(derivations):
    d = derivations["eight-tokens-split"]
    md = d.to_markdown(max_size=3)
    x = md[md.index('<a id="x"></a>') :]
    assert (
        r"X &= \begin{bmatrix} 0.2 & \cdots & 0.8 \\ \vdots & \ddots & \vdots \\ "
        r"0.1 & \cdots & 0.6 \end{bmatrix}"
    ) in x
    assert "Only some rows and columns of this $8 \\times 4$ matrix are printed" in x
    data = json.loads(render(d, "json", Options(max_size=3)))
    step = next(s for s in data["steps"] if s["key"] == "x")
    assert step["shape"] == [8, 4]
    assert step["decimals"][7] == ["0.10", "0.90", "0.70", "0.60"]
    assert parse_latex(step["latex"]) == d["x"]


def _section(md: str, key: str) -> str:
    """The Markdown of one step, from its anchor to the next anchor."""
    start = md.index(f'<a id="{key}"></a>')
    end = md.find("<a id=", start + 1)
    return md[start:] if end < 0 else md[start:end]


def test_long_symbolic_entries_are_written_by_their_general_entry():
    # the solution's own names (S', A, C), not seed 002's (see test_step_names); each step's
    # general entry as a textbook writes it, in the letters of the rows and entries it reads
    spec = AttentionSpec.example("eight-tokens-split").evolve(names={})
    md = derive(spec).to_markdown()
    weights = _section(md, "head1.weights")
    assert "A_{1} &= \\operatorname{softmax}\\left(S'_{1}\\right)\n\\end{aligned}" in weights
    assert r"a_{ij} = \frac{e^{s_{ij}}}{\sum_{k=1}^{8} e^{s_{ik}}}" in weights
    assert r"\left(A_{1}\right)_{1,2}" not in weights  # no grid of names
    # why it is so written was said in full at the first such step, not at every one again
    assert (
        "*Note:* Again too long to print, so written by its general entry, for "
        "$i = 1, \\dots, 8$ and $j = 1, \\dots, 8$. Here $s_{ij}$ is entry $(i, j)$ of $S'_{1}$."
    ) in weights
    assert md.count("too long to print") == 10 and md.count("Again too long to print") == 9
    assert md.count("matrix are too long to print") == 1  # the first, with why
    assert md.count("the JSON output holds every value exactly") == 1
    scores = _section(md, "head1.scores")
    assert r"\sum_{k=1}" not in scores  # neither a sum of entries nor the symbolic product
    assert (
        r"\begin{aligned} \left(S_{1}\right)_{ij} &= q_{i} \cdot k_{j} \\ q_{1} \cdot k_{1} "
        r"&= \left(0.2 W_{Q1,11} + 0.5 W_{Q1,21}\right) \left(0.2 W_{K1,11} + 0.5 W_{K1,21}\right)"
    ) in scores  # the first entry as the dot product it is, over lines
    assert "Here $q_{i}$ is row $i$ of $Q_{1}$, $k_{j}$ is row $j$ of $K_{1}$." in scores
    scaled = _section(md, "head1.scaled")
    assert r"s_{ij} &= \frac{q_{i} \cdot k_{j}}{\sqrt{d_{k}}}" in scaled
    head = _section(md, "head1.output")
    assert r"o_{i} = \sum_{k=1}^{8} a_{ik} \, v_{k}" in head
    assert "written by its general row, for $i = 1, \\dots, 8$." in head
    output = _section(md, "output")
    assert r"\sum_{k=1}^{4} C_{ik} \left(W_{O}\right)_{kj}" in output  # a lone letter: no brackets
    concat = _section(md, "concat")  # put side by side: written by its blocks
    assert r" &= \begin{bmatrix} \mathrm{head}_{1} & \mathrm{head}_{2} \end{bmatrix}" in concat
    assert r"\left(C\right)_{1,2}" not in concat
    assert (
        "so written by its blocks: columns $1, 2$ are $\\mathrm{head}_{1}$, "
        "columns $3, 4$ are $\\mathrm{head}_{2}$."
    ) in concat
    q = _section(md, "head1.q")
    assert r"0.2 W_{Q1,11} + 0.5 W_{Q1,21}" in q  # the document's decimals


# ------------------------------------------------------------------ json
def test_json_has_every_step_with_title_shape_latex_and_decimals(two):
    data = json.loads(render(two, "json"))
    assert [s["key"] for s in data["steps"]] == list(two)
    weights = next(s for s in data["steps"] if s["key"] == "head1.weights")
    assert weights["title"] == "Attention weights, head 1"
    assert weights["shape"] == [2, 2]
    assert weights["latex"] == WEIGHTS_1
    assert weights["decimals"] == [["0.73", "0.27"], ["0.27", "0.73"]]
    assert weights["formula"] == r"\operatorname{softmax}\left(S'_{1}\right)"


# ------------------------------------------------------------------ languages
def test_bengali_prose_in_md_and_json(two):
    md = two.to_markdown(lang="bn")
    assert "## সেটআপ" in md
    assert "সফটম্যাক্স প্রতিটি সারিকে" in md
    assert WEIGHTS_1 in md
    data = json.loads(render(two, "json", Options(lang="bn")))
    assert data["steps"][0]["title"] == "ইনপুট"


def test_python_api_rejects_unknown_options(two):
    with pytest.raises(SpecError, match=r"^unknown detail 'tokens'; choose one of matrix, token$"):
        two.to_markdown(detail="tokens")
    with pytest.raises(SpecError, match=r"^unknown language 'fr'; choose one of en, bn$"):
        two.to_html(lang="fr")


def test_step_titles_default_to_english(two):
    assert two.step("head2.scaled").title == "Scaled scores, head 2"


def test_english_titles_are_the_en_locale_s_and_a_missing_one_is_named(two, tmp_path, monkeypatch):
    from mha_symbolic.language import locales

    shipped = (locales.template_dir() / "locales" / "en.toml").read_text(encoding="utf-8")
    line = '"head.scaled" = "Scaled scores"\n'
    assert shipped.count(line) == 1
    (tmp_path / "locales").mkdir()
    edited = tmp_path / "locales" / "en.toml"
    edited.write_text(shipped.replace(line, ""), encoding="utf-8")
    monkeypatch.setattr(locales, "template_dir", lambda override=None: tmp_path)
    locales.load.cache_clear()
    try:
        with pytest.raises(SpecError) as caught:
            _ = two.step("head2.scaled").title
        assert str(caught.value) == f"{edited}: no key [titles] head.scaled"
        assert two.step("head2.scores").title == "Attention scores, head 2"
    finally:
        locales.load.cache_clear()


# ------------------------------------------------------------------ escaping
def test_hostile_labels_are_literal_in_tex_html_and_md():
    d = derive(hostile_spec())
    tex = d.to_latex()
    assert r"\textbackslash{}input\{/etc/hostname\}" in tex
    assert r"\input{/etc" not in tex
    assert r"Title with \% \& \$ \# \_ \textasciicircum{} \textasciitilde{} \{ \}" in tex
    html = d.to_html()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>" not in html
    assert "&lt;b&gt;" in html
    md = d.to_markdown()
    assert r"\<script\>alert(1)\</script\>" in md


def test_tex_escape_table():
    assert tex_escape(r"a\b{c}%&$#_^~") == (
        r"a\textbackslash{}b\{c\}\%\&\$\#\_\textasciicircum{}\textasciitilde{}"
    )


@needs_pdflatex
def test_hostile_labels_compile_and_print_literally(tmp_path):
    pdf = pdf_bytes(derive(hostile_spec()), Options())
    assert pdf.startswith(b"%PDF")
    if shutil.which("pdftotext"):
        (tmp_path / "h.pdf").write_bytes(pdf)
        text = subprocess.run(
            ["pdftotext", str(tmp_path / "h.pdf"), "-"], capture_output=True, text=True
        ).stdout
        assert r"\input{/etc/hostname}" in text
        assert "<script>alert(1)</script>" in text


@pytest.mark.skipif(
    shutil.which("xelatex") is None or shutil.which("fc-list") is None,
    reason="a Bengali PDF needs xelatex and fontconfig (apt-get install texlive-xetex)",
)
def test_bengali_pdf_with_xelatex(two, tmp_path):
    from mha_symbolic.solution.pdf import bengali_font

    if bengali_font() is None:
        pytest.skip("no Bengali font (apt-get install fonts-lohit-beng-bengali)")
    pdf = pdf_bytes(two, Options(lang="bn"))
    assert pdf.startswith(b"%PDF")
    if shutil.which("pdftotext"):
        (tmp_path / "bn.pdf").write_bytes(pdf)
        text = subprocess.run(
            ["pdftotext", str(tmp_path / "bn.pdf"), "-"], capture_output=True, text=True
        ).stdout
        # pdftotext stores Bengali vowel signs in visual order, so check a phrase without any.
        assert "মান হুবহু" in text


def test_bengali_pdf_without_a_font_says_what_to_install(two, monkeypatch, tmp_path, capsys):
    import mha_symbolic.solution.pdf

    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(mha_symbolic.solution.pdf, "bengali_font", lambda: None)
    target = str(tmp_path / "bn.pdf")
    assert main(["derive", "--example", "two-tokens", "--lang", "bn", "-o", target]) == 2
    assert capsys.readouterr().err == (
        "mha-symbolic: a Bengali PDF needs a Bengali font: "
        "apt-get install fonts-lohit-beng-bengali\n"
    )


# ------------------------------------------------------------------ pdf, files, heatmaps
@needs_pdflatex
@pytest.mark.parametrize("name", example_names())
def test_every_example_compiles_with_pdflatex(derivations, name):
    assert pdf_bytes(derivations[name], Options(detail="token")).startswith(b"%PDF")


def test_markdown_file_gets_heatmap_svgs_beside_it(two, tmp_path):
    written = two.write(str(tmp_path / "two.md"))
    assert sorted(p.name for p in written) == ["two-head1.svg", "two-head2.svg", "two.md"]
    assert (tmp_path / "two-head1.svg").read_bytes().startswith(b'<svg xmlns="http://www.w3.org')
    md = (tmp_path / "two.md").read_text()
    assert "![Attention weights of head 1: row = query token, column = key token.]" in md
    assert "(two-head1.svg)" in md


def test_html_is_self_contained_with_inline_heatmaps(two, derivations):
    html = two.to_html()
    assert html.count('src="data:image/svg+xml;base64,') == 2
    assert "<math" in html and "http" not in html.replace("http://www.w3.org/", "")
    symbolic = derivations["eight-tokens-split"].to_html()  # at the numbers chosen for it
    assert symbolic.count('src="data:image/svg+xml;base64,') == 2
    assert "Attention weights of head 1 at the numbers chosen above: row = query token" in symbolic
    assert "contain symbols" not in symbolic


def test_symbolic_weights_are_drawn_at_the_numbers_the_solution_chose(derivations):
    d = derivations["eight-tokens-split"]
    drawn = heatmaps(d, Options())
    assert set(drawn) == {1, 2}
    # each symbolic weight matrix the identity: head 1's first row, as its step prints it
    assert ">0.12<" in drawn[1].decode() and ">0.15<" in drawn[1].decode()
    tau = derive(AttentionSpec.example("temperature"))
    assert set(heatmaps(tau, Options())) == {1}  # at the chosen tau = 1


# ------------------------------------------------------------------ command line
def test_format_is_inferred_from_the_suffix(tmp_path, capsys):
    target = tmp_path / "two.json"
    assert main(["derive", "--example", "two-tokens", "-o", str(target)]) == 0
    assert json.loads(target.read_text())["steps"][0]["key"] == "x"
    assert capsys.readouterr().err == f"wrote {target}\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["derive", "--example", "two-tokens", "--format", "pdf"],
         "mha-symbolic: --format pdf writes a file: give -o FILE.pdf"),
        (["derive", "--example", "two-tokens", "-o", "two.docx"],
         "mha-symbolic: two.docx: cannot tell the format from the suffix '.docx'; give --format"),
        (["derive", "--example", "two-tokens", "--max-size", "1"],
         "mha-symbolic: --max-size must be at least 2"),
        (["derive", "--example", "two-tokens", "--templates", "no-such-dir"],
         "mha-symbolic: no-such-dir: --templates: no such directory"),
    ],
)  # fmt: skip
def test_derive_errors_are_one_line(argv, message, capsys):
    assert main(argv) == 2
    assert capsys.readouterr().err == message + "\n"


def test_missing_pdflatex_names_the_package(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert main(["derive", "--example", "two-tokens", "-o", str(tmp_path / "a.pdf")]) == 2
    assert capsys.readouterr().err == (
        "mha-symbolic: pdflatex is not installed: apt-get install texlive-latex-base "
        "texlive-latex-recommended\n"
    )


def test_user_templates_replace_the_shipped_ones(tmp_path, capsys):
    (tmp_path / "derivation.md.j2").write_text("{{ title|upper }}: {{ setup[2] }}\n")
    assert main(["derive", "--example", "one-token", "--templates", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "ONE TOKEN, TWO HEADS: Number of heads $h = 2$.\n"


def test_a_matrix_keeps_one_notation_fractions_or_decimals() -> None:
    from mha_symbolic.solution import latex

    # Short decimals a user could write stay decimals when every entry is one, each to as
    # many places as the longest (integers as they are) ...
    decimals = sp.Matrix([[sp.Rational(1, 2), sp.Rational(3, 4)], [2, sp.Rational(-1, 5)]])
    assert latex.show(decimals, "A", latex.Settings()).exact == (
        r"\begin{bmatrix} 0.50 & 0.75 \\ 2 & -0.20 \end{bmatrix}"
    )
    tenths = sp.Matrix([[sp.Rational(1, 2), 3, sp.Rational(-7, 10)]])
    assert latex.exact(tenths) == r"\begin{bmatrix} 0.5 & 3 & -0.7 \end{bmatrix}"
    # a mask's -inf leaves the others as they are (ALiBi's masked scores were all fractions)
    masked = sp.Matrix([[sp.Rational(1, 2), -sp.oo], [sp.Rational(3, 8), 2]])
    assert latex.exact(masked) == r"\begin{bmatrix} 0.500 & -\infty \\ 0.375 & 2 \end{bmatrix}"
    # more than three places, a small fraction instead (ALiBi's 7/16 read 0.4375 and 1/2
    # 0.5000), but not one over 5000 (a document's 0.1234)
    sixteenths = sp.Matrix([[sp.Rational(1, 2), -sp.oo], [sp.Rational(7, 16), 2]])
    assert latex.exact(sixteenths) == (
        r"\begin{bmatrix} \frac{1}{2} & -\infty \\ \frac{7}{16} & 2 \end{bmatrix}"
    )
    printed = sp.Matrix([[sp.Rational(1234, 10000), sp.Rational(1, 2)]])
    assert latex.exact(printed) == r"\begin{bmatrix} 0.1234 & 0.5000 \end{bmatrix}"
    # ... but beside a fraction that has no short decimal (127/1024, 1/3) every entry is one.
    rational = sp.Matrix([[sp.Rational(1, 2), sp.Rational(127, 1024)], [2, sp.Rational(1, 3)]])
    text = latex.show(rational, "A", latex.Settings()).exact
    assert text == (
        r"\begin{bmatrix} \frac{1}{2} & \frac{127}{1024} \\ 2 & \frac{1}{3} \end{bmatrix}"
    )
    assert latex.exact(rational) == text
    assert latex.exact(decimals) == latex.show(decimals, "A", latex.Settings()).exact


def test_html_aligns_a_first_entry_split_over_lines_without_stray_ampersands() -> None:
    from mha_symbolic.bench.model_scale import rational_spec

    html = derive(rational_spec(16, 16, 4)).to_html()
    assert r"\begin{aligned}" in derive(rational_spec(16, 16, 4)).to_markdown()
    assert "<mi>&</mi>" not in html and "<mi>&amp;</mi>" not in html
    table = html[html.index('<mtable displaystyle="true"') :]
    row = table[: table.index("</mtr>")]
    assert '<mtd columnalign="right"><msub><mi>C</mi><mrow><mn>11</mn></mrow></msub></mtd>' in row
    assert '<mtd columnalign="left"><mi /><mo>&#x0003D;</mo>' in row  # = ...


def test_maths_characters_in_plain_text_become_maths_commands_in_tex() -> None:
    from mha_symbolic.solution.render import tex_escape

    assert tex_escape("QKᵀ, τ → 0⁺, √2 ≈ 1.41, −0.4, Δx²") == (
        r"QK$^{\top}$, $\tau$ $\to$ 0$^{+}$, $\surd$2 $\approx$ 1.41, $-$0.4, $\Delta$x$^{2}$"
    )


def test_a_descriptions_code_spans_are_code_in_every_format() -> None:
    spec = AttentionSpec(x=[[1, 0]], description="Try `mha-symbolic --limit tau=0+` & see.")
    d = derive(spec)
    assert "Try `mha-symbolic --limit tau=0+` \\& see." in d.to_markdown()
    assert "Try <code>mha-symbolic --limit tau=0+</code> &amp; see." in d.to_html()
    assert r"Try \texttt{mha-{}symbolic -{}-{}limit tau=0+} \& see." in d.to_latex()
    odd = derive(AttentionSpec(x=[[1, 0]], description="a ` b"))
    assert "a \\` b" in odd.to_markdown()


@needs_pdflatex
def test_a_description_with_unicode_maths_compiles(tmp_path) -> None:
    description = "As τ → 0⁺ the scores QKᵀ/√2 of −1 ≈ `--limit tau=0+`."
    d = derive(AttentionSpec(x=[[1, 0], [0, 1]], description=description))
    d.write(str(tmp_path / "unicode.pdf"))
    assert (tmp_path / "unicode.pdf").read_bytes().startswith(b"%PDF")


def test_a_weight_the_document_prints_transposed_is_noted_at_its_step(derivations) -> None:
    md = derivations["two-tokens"].to_markdown()
    output = md[md.index('<a id="concat"></a>') :]
    assert (
        "*Note:* The document prints $W_{O}$ as a $2 \\times 4$ matrix, which cannot multiply $C$; "
        "its transpose, the $4 \\times 2$ matrix here, fits, and it is what the document's own "
        "arithmetic uses."
    ) in output
    assert "The document prints" not in derivations["pytorch-style"].to_markdown()
    for value, message in [
        ("w_o", "printed_transposed must be a list of weight names, got 'w_o'"),
        (["w_x"], "printed_transposed: unknown weight 'w_x' (did you mean 'w_v'?)"),
        (["w_q"], "printed_transposed: 'w_q' has no numbers in [weights]"),
    ]:
        with pytest.raises(SpecError) as error:
            AttentionSpec(x=[[1, 0]], weights={"w_o": [[1], [0]]}, printed_transposed=value)
        assert str(error.value) == f"<arguments>: {message}"


def test_a_substituted_product_too_wide_for_a_page_is_left_out() -> None:
    from mha_symbolic.solution.blocks import build
    from mha_symbolic.solution.view import Options as ViewOptions

    rope = build(derive(AttentionSpec.example("rope")), ViewOptions()).steps()
    assert rope["head1.scores"].substituted is None  # two 3x4 matrices of sines and cosines
    assert rope["head1.q"].substituted is not None
    torch_style = build(derive(AttentionSpec.example("pytorch-style")), ViewOptions()).steps()
    assert torch_style["output"].substituted is not None  # C W_O^T: 89 characters, it fits


@pytest.mark.parametrize("name", ["split-scaled", "rope", "pytorch-style", "eight-tokens-split"])
def test_html_mathml_scripts_and_fractions_have_their_arity(name: str) -> None:
    """A browser draws <msup> with more than two children as its second child set small in
    the superscript (a transposed matrix was); every script and fraction has its arity."""
    import re
    import xml.etree.ElementTree as ET

    html = derive(AttentionSpec.example(name)).to_html()
    arity = {"msup": 2, "msub": 2, "msubsup": 3, "mfrac": 2, "mroot": 2, "munderover": 3}
    maths = re.findall(r"<math\b.*?</math>", html, flags=re.DOTALL)
    assert maths
    for math in maths:
        for element in ET.fromstring(math).iter():
            tag = element.tag.rsplit("}", 1)[-1]
            if tag in arity:
                assert len(element) == arity[tag], (tag, math[:300])


def test_a_parameters_exponential_is_named_like_a_number() -> None:
    md = derive(AttentionSpec.example("temperature")).to_markdown()
    assert "- Let $a = e^{1/\\tau}$: the exponential that recurs below is written $a$." in md
    assert r"\frac{a}{2 a + 1} & \frac{1}{2 a + 1}" in md  # not e^{1/tau} in fractions
    bn = derive(AttentionSpec.example("temperature")).to_markdown(lang="bn")
    assert "- ধরি $a = e^{1/\\tau}$: নিচে বারবার আসা সূচকীয় রাশিটিকে $a$ লেখা হয়েছে।" in bn
    # Exponents in symbolic weights (not declared parameters) are not named.
    assert "Let $" not in derive(AttentionSpec.example("eight-tokens-split")).to_markdown()


def test_the_closing_note_speaks_of_decimals_only_where_some_are_printed() -> None:
    spoken = "the decimals are rounded to 2 places"
    assert spoken in derive(AttentionSpec.example("two-tokens")).to_markdown()
    # One token: its weight is exactly [1] and its output is its value, so no decimal at all.
    text = derive(AttentionSpec(x=[[1, 0]], scale="none")).to_markdown()
    assert spoken not in text and "Every value above is exact." in text
    # Symbols: each step shows its numbers at the chosen values, and those are decimals.
    for symbolic in ("temperature", "eight-tokens-split"):
        assert spoken in derive(AttentionSpec.example(symbolic)).to_markdown()


def test_an_output_passed_on_too_long_to_print_is_not_a_grid_of_names() -> None:
    from mha_symbolic.solution.blocks import build
    from mha_symbolic.solution.view import Options as ViewOptions

    solution = build(derive(AttentionSpec.example("rope")), ViewOptions())
    output = solution.steps()["output"]
    assert output.lines == ("C",) and output.entry is None and output.notes == ()
    assert [row.operation for row in solution.summary.rows][2] == "Rotate Q and K (RoPE)"


def test_a_single_tokens_one_weight_gets_words_not_a_square_of_colour() -> None:
    from mha_symbolic.solution.render import heatmaps
    from mha_symbolic.solution.view import Options as ViewOptions

    one = derive(AttentionSpec.example("one-token"))
    assert heatmaps(one, ViewOptions()) == {}
    text = render(one, "md", ViewOptions(), images={})  # the figures' place, as in a file
    assert "No heatmap for head 2: there is one token, so its only weight is $1$." in text
    assert set(heatmaps(derive(AttentionSpec.example("two-tokens")), ViewOptions())) == {1, 2}


def test_html_writes_a_short_chain_on_one_line_and_a_long_one_line_by_line() -> None:
    html = derive(AttentionSpec.example("temperature")).to_html()

    def displays(key: str) -> int:
        section = html[html.index(f'<section id="{key}">') :]
        section = section[: section.index("</section>")]
        equation = section[section.index('<div class="equation">') :]
        return equation[: equation.index("</div>")].count('display="block"')

    assert displays("head1.scores") == 1  # S_1 = Q_1 K_1^T = [..][..]^T = [..]
    # A_1 = softmax(S'_1) = [..]: S'_1's 3x3 of fractions, just shown, is not written again
    assert displays("head1.weights") == 1
    html = derive(AttentionSpec.example("pytorch-style")).to_html()
    assert displays("head1.output") == 4  # A_1 V_1 with a 4x4 of fractions: too wide for one


def test_softmax_writes_its_scores_again_only_when_they_are_short() -> None:
    """two-tokens' softmax of [[1, 0], [0, 1]] is worked as a teacher writes it; pytorch-style's
    4 x 4 of fractions just shown is not copied a third time (scores, decimals, softmax)."""
    again = r"\operatorname{softmax}\left(\begin{bmatrix}"
    assert again in derive(AttentionSpec.example("two-tokens")).to_markdown()
    md = derive(AttentionSpec.example("pytorch-style")).to_markdown()
    assert again not in md
    assert r"A_{2} &= \operatorname{softmax}\left(S'_{2}\right) \\" in md


def test_tex_sets_a_matrix_of_fractions_full_size_with_its_rows_apart() -> None:
    tex = render(derive(AttentionSpec.example("temperature")), "tex")
    assert r"{\def\arraystretch{2.1}\begin{bmatrix} \dfrac{a}{2 a + 1}" in tex
    assert r"\begin{bmatrix} 1 & 0 \\" in tex and r"\frac{a}" not in tex  # X untouched


def test_a_sum_of_fractions_is_put_over_a_common_denominator() -> None:
    md = derive(AttentionSpec.example("pytorch-style")).to_markdown()
    # 2a/(3a + 1) + 1/(a + 3), one fraction: a matrix of these is one level high
    assert r"\frac{2 a^{2} + 9 a + 1}{\left(a + 3\right) \left(3 a + 1\right)}" in md
    assert r"\frac{2 a}{3 a + 1} + \frac{1}{a + 3}" not in md


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([4, 2], "printed_shapes must be a table of weight names and shapes, like "),
        ({"w_x": [4, 2]}, "printed_shapes: unknown weight 'w_x' (did you mean 'w_v'?)"),
        ({"w_k": [4, 2]}, "printed_shapes: 'w_k' is not in [weights]"),
        ({"w_q": [4]}, "printed_shapes.w_q must be [rows, columns], two positive whole numbers"),
        ({"w_q": [4, True]}, "printed_shapes.w_q must be [rows, columns], two positive whole"),
        ({"w_q": [2, 2]}, "printed_shapes.w_q: (2, 2) is the shape it has here; list only a"),
    ],
)
def test_a_bad_printed_shape_is_one_line(value: object, message: str) -> None:
    with pytest.raises(SpecError) as error:
        AttentionSpec(
            x=[[1, 0, 0, 1]] * 3,
            heads=2,
            layout="split",
            weights={"w_q": "symbolic"},
            printed_shapes=value,
        )
    assert str(error.value).startswith(f"<arguments>: {message}")
    assert "\n" not in str(error.value)


def test_a_shape_the_document_states_otherwise_is_noted_at_its_weights() -> None:
    md = derive(AttentionSpec.example("eight-tokens-split")).to_markdown()
    for head in (1,):  # at the first head's weights; the second's are alike, not said again
        assert (
            f"The document gives $W_{{Q}}^{{{head}}}$, $W_{{K}}^{{{head}}}$ and "
            f"$W_{{V}}^{{{head}}}$ the shape $(4, 2)$, but the products it then computes, such "
            f"as $Q_{{{head}}} = X_{{{head}}} W_{{Q}}^{{{head}}}$, are "
            r"$(8, 2) \times (2, 2) = (8, 2)$: they take the $2 \times 2$ matrices written here."
        ) in md
    one = AttentionSpec(
        x=[[1, 0], [0, 1]], weights={"w_o": [[1, 0], [0, 1]]}, printed_shapes={"w_o": [4, 2]}
    )
    text = derive(one).to_markdown()
    assert (
        "The document gives $W_{O}$ the shape $(4, 2)$, but the product it then computes, " in text
    )


def test_a_matrix_too_wide_for_a_page_is_written_in_groups_of_columns() -> None:
    from mha_symbolic.solution import plain, wide
    from mha_symbolic.solution.blocks import build
    from mha_symbolic.solution.view import Options as ViewOptions

    d = derive(AttentionSpec.example("pytorch-style"))
    exact = build(d, ViewOptions()).steps()["output"].exact
    groups = wide.column_groups(exact)
    assert [(first, last) for first, last, _ in groups] == [(1, 3), (4, 6)]
    assert all(plain.drawn_width(part) <= wide.LIMIT for _, _, part in groups)

    def cells(tex: str) -> list[list[str]]:
        body = tex[len(r"\begin{bmatrix}") : -len(r"\end{bmatrix}")]
        return [[c.strip() for c in row.split("&")] for row in body.split(r"\\")]

    joined = [a + b for a, b in zip(*(cells(part) for _, _, part in groups))]
    assert joined == cells(exact)  # every entry, in its place
    for fmt in ("md", "tex"):
        assert r"\text{columns 4–6 of}\ O\text{:}\quad " in render(d, fmt), fmt
    assert "<mtext>columns&#x000A0;4–6&#x000A0;of</mtext>" in render(d, "html")
    assert wide.column_groups(r"\begin{bmatrix} 1 & 2 \end{bmatrix}") == []  # fits: as it is


def test_a_group_of_one_column_is_called_a_column_and_inner_fractions_stay_small() -> None:
    from tests.test_pdf_pages import rope_of_four_tokens

    d = derive(rope_of_four_tokens())
    markdown = d.to_markdown()
    assert r"\text{column 4 of}\ S_{2}\text{:}" in markdown and "columns 4–4" not in markdown
    tex = render(d, "tex")
    # 1/sqrt(4) is 1/2, pulled out of the scores just shown, not written under every entry
    assert r"= \frac{S_{2}}{2}" in tex
    assert r"\dfrac{\cos" not in tex


def test_an_output_that_passes_the_concatenation_on_is_not_written_again() -> None:
    """O = C: C's matrix was just shown, so the output step writes O = C, not C's matrix of
    exponentials nor its decimals a second time (alibi's and rope's decimals were, and with
    them the page before the summary was a third empty); with one head and symbols
    (temperature) nothing is repeated at all, nor at the chosen numbers."""
    md = derive(AttentionSpec.example("alibi")).to_markdown()
    output = md[md.index('<a id="output"></a>') :]
    assert "O &= C\n\\end{aligned}" in output
    assert "e^{" not in output.partition("## Summary")[0]
    md = derive(AttentionSpec.example("temperature")).to_markdown()
    output = md[md.index('<a id="output"></a>') :].partition("## Summary")[0]
    assert "\\begin{bmatrix}" not in output and "chosen" not in output
    # one head's concatenation is that head's output, named rather than written again
    assert (
        "C &= \\operatorname{Concat}\\left(\\mathrm{head}_{1}\\right) \\\\\n"
        " &= \\mathrm{head}_{1}\n" in md
    )
