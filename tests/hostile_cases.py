"""Builders for the hostile-input table: a spec whose x[1,1] is a given text, and friends."""

from __future__ import annotations


def toml_string(text: str) -> str:
    """A TOML basic string holding ``text`` exactly (control characters as \\uXXXX)."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif not ch.isprintable():
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def entry(text: str) -> str:
    """A spec whose x[1,1] is ``text``."""
    return f"x = [[{toml_string(text)}, 0], [0, 1]]\n"


def bmatrix(text: str) -> str:
    """A spec whose x is one bmatrix string with ``text`` as its first entry."""
    latex = f"\\begin{{bmatrix}} {text} & 0 \\\\ 0 & 1 \\end{{bmatrix}}"
    return f"x = {toml_string(latex)}\n"


def with_x(lines: str) -> str:
    """A spec with x = I2 and more lines."""
    return "x = [[1, 0], [0, 1]]\n" + lines
