"""Pages several test modules read as documents, and checking one from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main


def check_page(tmp_path: Path, capsys: pytest.CaptureFixture[str], page: str) -> tuple[int, str]:
    """``mha-symbolic check page.md`` on ``page``: the exit code and what it printed."""
    path = tmp_path / "page.md"
    path.write_text(page, encoding="utf-8")
    code = main(["check", str(path)])
    return code, capsys.readouterr().out


# Q, K and V printed with no X; the scaled scores printed under the name S.
QKV_PAGE = """# Attention from Q, K and V

Q = [[1, 0], [0, 1], [1, 1]]

K = [[1, 0], [1, 1], [0, 1]]

V = [[1, 0], [0, 1], [1, 1]]

S = Q K^T / sqrt(d_k):

S = [[0.707, 0.707, 0.000], [0.000, 0.707, 0.707], [0.707, 1.414, 0.707]]

A = [[0.401, 0.401, 0.198], [0.198, 0.401, 0.401], [0.248, 0.503, 0.248]]

O = A V = [[0.599, 0.599], [0.599, 0.802], [0.497, 0.752]]
"""
