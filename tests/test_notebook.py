"""What Jupyter shows: a Derivation's HTML (heatmaps inline, styles scoped), its LaTeX (every
step, compiled by pdflatex as nbconvert would), a Report at a prompt; and a real notebook run
by nbclient holding those outputs."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from mha_symbolic import AttentionSpec, check, derive


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.images: list[str] = []
        self.unclosed_error = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append(dict(attrs).get("src") or "")
        elif tag not in ("meta", "br", "hr", "mprespace", "none"):
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            while self.open.pop() != tag:
                pass


def test_html_view_is_one_scoped_fragment_with_its_heatmaps() -> None:
    html = derive(AttentionSpec.example("two-tokens"))._repr_html_()
    assert html.startswith('<div class="mha-solution">') and html.rstrip().endswith("</div>")
    assert "<html" not in html and "<body" not in html
    rules = re.search(r"<style>(.*?)</style>", html, re.DOTALL).group(1)  # type: ignore[union-attr]
    selectors = re.findall(r"^([^{}\n]+)\{", rules, re.MULTILINE)
    assert selectors and all(
        all(part.strip().startswith(".mha-solution") for part in sel.split(","))
        for sel in selectors
    )
    tags = _Tags()
    tags.feed(html)
    assert tags.open == []
    assert len(tags.images) == 2
    assert all(src.startswith("data:image/svg+xml;base64,") for src in tags.images)


def test_latex_view_has_every_step() -> None:
    d = derive(AttentionSpec.example("split-scaled"))
    latex = d._repr_latex_()
    blocks = latex.split("$$")[1::2]
    assert len(blocks) == len(d.steps)
    assert r"&\text{Attention weights, head 1} \\" in latex
    assert r"A_{1} &= \operatorname{softmax}\left(S'_{1}\right) \\" in latex


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_view_compiles_as_nbconvert_would_put_it(tmp_path: Path) -> None:
    latex = derive(AttentionSpec.example("pytorch-style"))._repr_latex_()
    document = (
        "\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n"
        f"{latex}\n\\end{{document}}\n"
    )
    (tmp_path / "view.tex").write_text(document, encoding="utf-8")
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "view.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    assert (tmp_path / "view.pdf").stat().st_size > 1000


def test_a_report_at_the_prompt_is_one_line_and_print_reads_as_the_report() -> None:
    report = check(derive(AttentionSpec.example("two-tokens")), {"head1.weights[1,1]": "0.73"})
    assert repr(report) == (
        "<Report example two-tokens: 1 claim: 1 holds (0 exact, 1 rounded); "
        "print(report) or report.claims>"
    )
    assert str(report) == (
        "head1.weights[1,1]: rounded\n"
        "  claimed  0.73\n"
        "  exact    e/(1 + e) = 0.7311\n"
        "example two-tokens: 1 claim: 1 holds (0 exact, 1 rounded)\n"
    )


def test_a_derivation_at_the_prompt_is_one_line_and_print_reads_as_the_solution() -> None:
    d = derive(AttentionSpec.example("two-tokens"))
    assert repr(d) == (
        "<Derivation 'Two tokens, two heads': 2 tokens, d_model 2, 2 heads, 17 steps; "
        "print(d) or d.steps>"
    )
    golden = Path(__file__).parent / "golden" / "two-tokens.txt"
    assert str(d) == golden.read_text(encoding="utf-8")
    one = derive(AttentionSpec.example("one-token"))
    assert repr(one).startswith("<Derivation 'One token, two heads': 1 token, d_model 4, 2 heads")


def test_a_report_in_html_is_a_table_with_the_wrong_claim_marked() -> None:
    report = check(
        derive(AttentionSpec.example("two-tokens")),
        {"head1.weights[1,1]": "0.73", "head1.weights[1,2]": "0.5"},
    )
    html = report._repr_html_()
    assert html.startswith('<div class="mha-report">') and html.endswith("</div>\n")
    tags = _Tags()
    tags.feed(html)
    assert tags.open == []
    rows = re.findall(r"<tr>(.*?)</tr>", html)
    assert len(rows) == 3  # the header and a row per claim
    assert "<td><code>head1.weights[1,1]</code></td><td><code>0.73</code></td>" in rows[1]
    assert '<span class="wrong">wrong</span>' in rows[2]
    assert "<math " in rows[1]  # e/(1 + e) as MathML
    assert "<p>example two-tokens: 2 claims: 1 holds (0 exact, 1 rounded), 1 wrong</p>" in html


def test_a_notebook_shows_the_solution_and_the_report(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed")
    nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed")
    pytest.importorskip("ipykernel", reason="ipykernel is not installed (a Python kernel)")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(
            "from mha_symbolic import AttentionSpec, check, derive\n"
            "d = derive(AttentionSpec.example('two-tokens'))\nd"
        ),
        nbformat.v4.new_code_cell("check(d, {'head1.weights[1,1]': '0.73'})"),
    ]
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    solution = notebook.cells[0].outputs[0]["data"]
    assert {"text/html", "text/markdown", "text/latex", "text/plain"} <= set(solution)
    assert "data:image/svg+xml;base64," in solution["text/html"]
    assert solution["text/latex"].count("$$") == 2 * 17
    assert solution["text/plain"].startswith("<Derivation 'Two tokens, two heads'")
    report = notebook.cells[1].outputs[0]["data"]
    assert report["text/plain"].endswith(
        "1 claim: 1 holds (0 exact, 1 rounded); print(report) or report.claims>"
    )
    assert "text/markdown" in report
    assert report["text/html"].startswith('<div class="mha-report">')
    assert "<code>head1.weights[1,1]</code>" in report["text/html"]
