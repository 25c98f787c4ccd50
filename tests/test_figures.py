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


def test_a_heatmap_and_its_caption_stay_on_one_page_in_latex() -> None:
    import re

    from mha_symbolic.solution.render import render
    from mha_symbolic.solution.view import Options

    d = derive(AttentionSpec.example("two-tokens"))
    tex = render(d, "tex", Options(), images={1: "h1.png", 2: "h2.png"})
    body = tex[tex.index("\\begin{document}") :]  # the preamble defines a minipage too
    groups = re.findall(r"\\begin\{minipage\}.*?\\end\{minipage\}", body, flags=re.DOTALL)
    assert len(groups) == 2
    assert all("\\includegraphics" in g and "\\textit{" in g for g in groups)
