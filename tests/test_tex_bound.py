"""TeX from a --templates folder may loop without end: the engine is stopped after
``BOUNDED_SECONDS`` of its own processor time, with one line, whatever the machine's load."""

from __future__ import annotations

import shutil

import pytest

from mha_symbolic.errors import SpecError
from mha_symbolic.solution.pdf import compile_tex

LOOP = "\\documentclass{article}\\begin{document}\\def\\x{\\x}\\x\\end{document}\n"


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex")
def test_a_tex_loop_from_a_templates_folder_is_stopped_with_one_line() -> None:
    with pytest.raises(SpecError) as raised:
        compile_tex(LOOP, {}, bounded=True)
    assert str(raised.value) == "pdflatex took longer than 8 s (a TeX loop?)"


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex")
def test_a_shipped_template_s_tex_compiles_unbounded() -> None:
    tex = "\\documentclass{article}\\begin{document}x\\end{document}\n"
    assert compile_tex(tex, {}, bounded=False).startswith(b"%PDF")
