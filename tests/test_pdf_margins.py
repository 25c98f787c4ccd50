"""No line of a worked solution's PDF runs into the margin: TeX's own log says by how much a
line it could not break is too wide ("Overfull \\hbox (9.97621pt too wide)")."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.solution.render import write
from mha_symbolic.solution.view import Options
from mha_symbolic.spec.attention import example_names

# A line past the margin by less than this is not seen on the page.
FUZZ_PT = 1.0


def overfull_points(log: str) -> list[float]:
    """How far each overfull line of a TeX log runs past its box, in points."""
    return [float(pt) for pt in re.findall(r"Overfull \\hbox \(([0-9.]+)pt too wide\)", log)]


def test_overfull_points_reads_each_overfull_line_of_a_log() -> None:
    log = (
        "Overfull \\hbox (9.97621pt too wide) in paragraph at lines 401--402\n"
        "Underfull \\hbox (badness 6927) in paragraph at lines 402--403\n"
        "Overfull \\hbox (0.5pt too wide) in alignment at lines 7--9\n"
    )
    assert overfull_points(log) == [9.97621, 0.5]


def _log(name: str, lang: str, engine: str, folder: Path) -> str:
    """The TeX log of ``name``'s solution as ``derive --format pdf`` sets it (its claims
    marked), compiled with its heatmaps beside it."""
    from mha_symbolic.check.judge import check

    d = derive(AttentionSpec.example(name))
    write(d, folder / "solution.tex", "tex", Options(lang=lang, marks=check(d).marks()))
    subprocess.run(
        [engine, "-no-shell-escape", "-interaction=nonstopmode", "solution.tex"],
        cwd=folder,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert (folder / "solution.pdf").is_file(), name
    return (folder / "solution.log").read_text(encoding="utf-8", errors="replace")


@pytest.mark.parametrize("name", example_names())
def test_no_line_runs_into_the_margin(name: str, tmp_path: Path) -> None:
    """pytorch-style's note on W_O ran 10 pt into the right margin: the paper's
    Concat(head_1, ..., head_h) W_O in the line, which TeX could not break."""
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed")
    too_wide = overfull_points(_log(name, "en", "pdflatex", tmp_path))
    assert [pt for pt in too_wide if pt > FUZZ_PT] == []


def test_no_line_runs_into_the_margin_in_bengali(tmp_path: Path) -> None:
    """The same note in Bengali ran 84 pt past the margin (its spaces stretch less)."""
    from mha_symbolic.solution.pdf import bengali_font

    if shutil.which("xelatex") is None or bengali_font() is None:
        pytest.skip("xelatex or a Bengali font is not installed")
    too_wide = overfull_points(_log("pytorch-style", "bn", "xelatex", tmp_path))
    assert [pt for pt in too_wide if pt > FUZZ_PT] == []
