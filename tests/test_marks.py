"""A worked solution marks, in place, each printed number that does not hold."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace

import pytest

from mha_symbolic import AttentionSpec, check, derive
from mha_symbolic.cli import main
from mha_symbolic.solution.render import render
from mha_symbolic.solution.view import Options


def marked(name: str, fmt: str = "md") -> str:
    d = derive(AttentionSpec.example(name))
    return render(d, fmt, replace(Options(), marks=check(d).marks()))


def test_marks_are_plain_data_for_wrong_claims_only():
    d = derive(AttentionSpec.example("one-token"))
    marks = check(d).marks()
    assert sorted(marks) == ["concat", "head1.output", "head2.output"]
    (mark,) = marks["head1.output"]
    assert mark["key"] == "head1.output[1]"
    assert mark["claimed"] == "[0.5, 1.2]"
    assert mark["verdict"] == "wrong"
    assert mark["exact"].tolist() == [[4, 11]]
    assert check(derive(AttentionSpec.example("two-tokens"))).marks() == {}


def test_markdown_shows_the_exact_value_beside_the_wrong_number():
    text = marked("one-token")
    assert text.count("⚠") == 3
    assert (
        "> **⚠ The document prints a wrong number here.** It prints `head1.output[1]` = "
        "\\[0.5, 1.2\\] (wrong); the exact value is $\\begin{bmatrix} 4 & 11 \\end{bmatrix}$. "
        "Likely mistake: inconsistent with the given inputs and weights."
    ) in text
    assert "⚠" not in marked("two-tokens")


def test_mark_sits_in_its_step():
    text = marked("split-scaled")
    head2 = text.index("(`head2.output`)")
    assert head2 < text.index("`head2.output` = ") < text.index("(`concat`)")
    assert "$\\approx \\begin{bmatrix} 0.67 & 0.33 \\\\ 0.33 & 0.67 \\end{bmatrix}$" in text


def test_bengali_and_html_marks():
    d = derive(AttentionSpec.example("one-token"))
    options = replace(Options(lang="bn"), marks=check(d).marks())
    assert "এখানে ডকুমেন্টে ছাপা সংখ্যাটি ভুল।" in render(d, "md", options)
    html = marked("one-token", "html")
    assert html.count('class="wrong"') == 3
    assert "<code>[0.5, 1.2]</code>" in html


def test_cli_derive_marks_the_documents_mistakes(capsys):
    assert main(["derive", "--example", "split-scaled"]) == 0
    assert capsys.readouterr().out.count("⚠") == 3


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_marked_tex_compiles(tmp_path):
    (tmp_path / "s.tex").write_text(marked("split-scaled", "tex"))
    result = subprocess.run(
        ["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error", "s.tex"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:]
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "s.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert text.count("The document prints a wrong number here.") == 3
