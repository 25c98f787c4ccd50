"""PDF: a rendered .tex compiled by pdflatex (xelatex for Bengali) in a temporary folder."""

from __future__ import annotations

import resource
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

from mha_symbolic.errors import SpecError

INSTALL = {
    "pdflatex": "pdflatex is not installed: apt-get install texlive-latex-base "
    "texlive-latex-recommended",
    "xelatex": "a Bengali PDF needs xelatex: apt-get install texlive-xetex",
}
DEFAULT_BENGALI_FONT = "Lohit Bengali"
FONT_INSTALL = "a Bengali PDF needs a Bengali font: apt-get install fonts-lohit-beng-bengali"


def bengali_fonts(field: str) -> list[str]:
    """fontconfig's ``field`` (``family``, ``file``) of each installed font with Bengali
    glyphs, fonts named for Bengali first (Assamese fonts share the script, not the name)."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return []
    found = subprocess.run(
        [fc_list, ":lang=bn", field], capture_output=True, text=True, check=False
    ).stdout
    names = {line.split(",")[0].strip().rstrip(":") for line in found.splitlines() if line.strip()}
    return sorted(names, key=lambda name: ("Bengali" not in name, name))


def bengali_font() -> str | None:
    """The family name of an installed font with Bengali glyphs, if fontconfig knows one."""
    families = bengali_fonts("family")
    return families[0] if families else None


def require(engine: str) -> str:
    path = shutil.which(engine)
    if path is None:
        raise SpecError(INSTALL[engine])
    return path


SECONDS = 300  # a shipped template's TeX: a model's whole solution
# A --templates folder's TeX, which may loop without end: seconds of the engine's processor
# time (a busy machine does not shorten it), and the clock's SECONDS as the last guard.
BOUNDED_SECONDS = 8


def compile_tex(
    tex: str, files: Mapping[str, bytes], engine: str = "pdflatex", *, bounded: bool = False
) -> bytes:
    """The PDF of ``tex``; ``files`` (heatmap PNGs) are written beside it first. ``bounded``
    (TeX from a --templates folder) gives the engine ``BOUNDED_SECONDS`` of processor time."""
    program = require(engine)
    seconds = BOUNDED_SECONDS if bounded else SECONDS
    with tempfile.TemporaryDirectory(prefix="mha-symbolic-") as folder:
        work = Path(folder)
        (work / "solution.tex").write_text(tex, encoding="utf-8")
        for name, data in files.items():
            (work / name).write_bytes(data)
        command = [program, "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error"]
        try:
            done = subprocess.run(
                [*command, "solution.tex"],
                cwd=work,
                capture_output=True,
                stdin=subprocess.DEVNULL,
                timeout=SECONDS,
                check=False,
                preexec_fn=_processor_limit if bounded else None,
            )
        except subprocess.TimeoutExpired:
            raise SpecError(f"{engine} took longer than {seconds} s (a TeX loop?)") from None
        if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
            raise SpecError(f"{engine} took longer than {seconds} s (a TeX loop?)")
        pdf = work / "solution.pdf"
        if not pdf.is_file():
            raise SpecError(f"{engine} failed: {_first_error(work / 'solution.log')}")
        return pdf.read_bytes()


def _processor_limit() -> None:
    """In the engine's process: stopped by the kernel after ``BOUNDED_SECONDS`` of its own
    processor time."""
    resource.setrlimit(resource.RLIMIT_CPU, (BOUNDED_SECONDS, BOUNDED_SECONDS + 1))


def _first_error(log: Path) -> str:
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return "no log written"
    return next((line[1:].strip() for line in lines if line.startswith("!")), "see its log")
