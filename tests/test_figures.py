"""Plots and heatmaps read as the solution does: legends in its notation, curves apart."""

from __future__ import annotations

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.solution.plot import legend, style, sweep


def test_legends_name_entries_as_the_solution_does() -> None:
    d = derive(AttentionSpec.example("temperature"))
    result = sweep(d, "tau", 0.1, 10, ["head1.weights[1]"], points=5)
    labels = [legend(d, label) for label, _ in result.series]
    assert labels == [
        "$A_{1}[1,1]$ (the → the)",
        "$A_{1}[1,2]$ (the → cat)",
        "$A_{1}[1,3]$ (the → sat)",
    ]
    assert not any("head1.weights" in label for label in labels)


def test_a_legend_outside_the_token_grid_has_no_tokens() -> None:
    d = derive(AttentionSpec.example("temperature"))
    assert legend(d, "head1.output[2,1]") == r"$\mathrm{head}_{1}[2,1]$"


def test_curves_get_distinct_styles() -> None:
    styles = [style(i) for i in range(12)]
    assert len({(s["linestyle"], s["marker"]) for s in styles}) == 12


def test_a_heatmap_and_its_caption_float_together_in_latex() -> None:
    """A float keeps the caption with its figure, and moves to the next page's top when it
    does not fit, while the text fills this page (an unbreakable box left a third empty); one
    that does not fit in what is left of the page follows the next step (the head's output),
    which would otherwise go whole to the next page after it."""
    import re

    from mha_symbolic.solution.render import render
    from mha_symbolic.solution.view import Options

    d = derive(AttentionSpec.example("two-tokens"))
    tex = render(d, "tex", Options(), images={1: "h1.png", 2: "h2.png"})
    preamble, _, body = tex.partition(r"\begin{document}")
    assert (
        "\\newcommand{\\placefigure}[2]{\\begin{figure}[!htbp]\\centering\n"
        "\\fitgraphics{0.5\\linewidth}{#1}\\par\\smallskip\n"
        "\\textit{#2}\n"
        "\\end{figure}}"
    ) in preamble
    figures = re.findall(r"\\heatmapfigure\{(.*?)\}\{(.*?)\}\n", body)
    assert figures == [
        (
            f"h{head}.png",
            f"Attention weights of head {head}: row = query token, column = key token.",
        )
        for head in (1, 2)
    ]
    # each put off no further than the end of the head's output step
    for head in (1, 2):
        after = body.partition(f"\\heatmapfigure{{h{head}.png}}")[2]
        output = after.index(f"\\label{{head{head}.output}}")
        assert output < after.index("\\flushfigure") < after.index("section*", output)
    assert "minipage" not in tex


def test_a_head_s_heatmap_comes_once_after_the_weights_it_draws() -> None:
    """It draws the head's last weights (renormalised, after a mask on the weights); after the
    softmax too it stood under numbers it does not show."""
    from mha_symbolic.solution.render import render
    from mha_symbolic.solution.view import Options

    d = derive(AttentionSpec.example("causal-dropout"))
    md = render(d, "md", Options(), images={1: "h1.svg"})
    assert md.count("h1.svg") == 1
    at = md.index("h1.svg")
    assert md.index('id="head1.renormalised"') < at < md.index('id="head1.dropped"')


def test_a_heatmap_at_chosen_numbers_names_the_temperature_it_shows() -> None:
    """temperature's heatmap is drawn at τ = 1 (the solution's chosen value); its caption said
    only "at the numbers chosen above". It says which, in the caption (maths) and in the image's
    alt text (read, not typeset: Unicode), in English and in Bengali."""
    from mha_symbolic.solution.render import render
    from mha_symbolic.solution.view import Options

    d = derive(AttentionSpec.example("temperature"))
    md = render(d, "md", Options(), images={1: "h1.svg"})
    caption = "Attention weights of head 1 at the numbers chosen above, {}: row = query token"
    assert f"![{caption.format('τ = 1')}" in md
    assert "*" + caption.format(r"$\tau = 1$") in md
    html = render(d, "html", Options(), images={1: "h1.svg"})
    assert f'alt="{caption.format("τ = 1")}' in html
    bengali = render(d, "md", Options(lang="bn"), images={1: "h1.svg"})
    assert "*ওপরে বেছে নেওয়া সংখ্যায়, $\\tau = 1$-এ, হেড 1-এর অ্যাটেনশন ওয়েট" in bengali
    # weights chosen as matrices, no parameter: the caption as before
    split = render(derive(AttentionSpec.example("eight-tokens-split")), "md", Options(), {1: "a"})
    assert "*Attention weights of head 1 at the numbers chosen above: row = query token" in split
