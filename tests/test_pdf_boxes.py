"""A framed note (an assumption, a printed number that does not hold) in the PDF breaks across
pages as text does: moved whole to the next page, a long one left a gap a third of a page tall."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.solution.render import render
from mha_symbolic.solution.view import Options

NO_PDF_TOOLS = shutil.which("pdflatex") is None or shutil.which("pdftotext") is None
TEXT_TOP, TEXT_BOTTOM = 56.7, 785.2  # A4, 2 cm margins, in points from the top


def _build(tmp_path: Path, filler: int, lines: int, tall: str = "") -> tuple[list[str], list[str]]:
    """Each page's text, and its words with their boxes: ``filler`` one-line paragraphs, a
    ``tall`` block, then a framed note of ``lines`` sentences, with the solution's preamble."""
    d = derive(AttentionSpec.example("two-tokens"))
    preamble = render(d, "tex", Options(), images={}).partition(r"\begin{document}")[0]
    above = "\n\n".join(f"Paragraph {i} fills a line of the page." for i in range(filler))
    words = " ".join(
        f"Sentence {i} of a long note, in words that wrap in the box." for i in range(lines)
    )
    body = (
        rf"{above}{tall}\wrongclaim{{Assumed.}}{{The document takes}}{{Z_2 = 1}}{{{words} THE END}}"
    )
    (tmp_path / "m.tex").write_text(
        preamble + "\\begin{document}\n" + body + "\n\nAfter the box.\n\\end{document}\n",
        encoding="utf-8",
    )
    subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "m.tex"], cwd=tmp_path, capture_output=True
    )
    pdf = str(tmp_path / "m.pdf")
    text = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout
    boxes = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True).stdout
    return text.split("\f")[:-1], boxes.split("<page ")[1:]


def _foot(page: str) -> float:
    feet = [float(f) for f in re.findall(r'yMax="([0-9.]+)"', page) if float(f) < TEXT_BOTTOM + 5]
    return max(feet)


def test_a_long_framed_note_breaks_across_the_page_instead_of_leaving_a_gap(
    tmp_path: Path,
) -> None:
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    pages, boxes = _build(tmp_path, filler=26, lines=30)
    assert len(pages) == 2
    # the note begins on page 1, which it fills, and ends on page 2
    assert "Assumed." in pages[0] and "THE END" not in pages[0]
    assert "THE END" in pages[1] and "Sentence 0 " not in pages[1]
    assert (_foot(boxes[0]) - TEXT_TOP) / (TEXT_BOTTOM - TEXT_TOP) > 0.95
    # a short note that fits stays whole where it is
    short, _ = _build(tmp_path, filler=5, lines=3)
    assert len(short) == 1 and "END" in short[0]


def test_a_note_that_does_not_fit_beside_a_full_page_is_measured_on_the_page_it_lands_on(
    tmp_path: Path,
) -> None:
    """The page above is already full when the note comes (a step kept whole has gone past
    it, and TeX has not ended the page yet): the note goes on the next page after that step,
    not after a page the step has to itself."""
    if NO_PDF_TOOLS:
        pytest.skip("pdflatex or pdftotext is not installed")
    tall = "\n\n\\fbox{\\parbox{5cm}{A TALL STEP\\rule{0pt}{0.4\\textheight}}}\n\n"
    pages, _ = _build(tmp_path, filler=30, lines=3, tall=tall)
    assert len(pages) == 2
    assert "A TALL STEP" in pages[1] and "THE END" in pages[1]
