"""Emphasis around a printed number: the bold, colour or box an author puts on one entry to
point at it (``\\mathbf{0.85}``, ``\\textcolor{red}{0.12}``, ``**0.85**``), and a mark that
judges it (``0.41 ✗``), are not part of it."""

from __future__ import annotations

import re

# A command that only styles its one argument: the number is that argument.
_WRAPPER = re.compile(
    r"\\(?:mathbf|textbf|boldsymbol|bm|mathrm|textrm|text|mathit|textit|emph|underline|"
    r"overline|boxed|fbox|mathsf|mathtt|mathnormal|displaystyle|textstyle)\s*\{([^{}]*)\}"
)
# Colour given first, then the number: \textcolor{red}{0.1}, \colorbox{yellow}{0.1}.
_COLOURED = re.compile(r"\\(?:textcolor|colorbox)\s*\{[^{}]*\}\s*\{([^{}]*)\}")
# A switch that styles what follows it: \color{red} 0.1, \bf 0.1, \cellcolor{gray} 0.1.
_SWITCH = re.compile(r"\\(?:color|cellcolor|rowcolor)\s*(?:\[[^\]]*\])?\s*\{[^{}]*\}|\\(?:bf|it)\b")
_MARKDOWN = re.compile(r"^\s*(\*\*|__|\*|_)(?=\S)(.*?\S)\1\s*$")
# A mark after the number that judges it ("0.4184 ✗", "1.0000 \checkmark"): not part of it.
_MARK = re.compile(r"\s*(?:[✓✔✗✘❌✅]|\\checkmark)\s*$")


def unstyled(text: str) -> str:
    """The entry without the styling around its number (unchanged when there is none)."""
    text = _MARK.sub("", text)
    if "\\" not in text and "*" not in text and "_" not in text:
        return text
    for _ in range(3):  # \mathbf{\color{red}{0.8}}: a few layers at most
        before = text
        text = _COLOURED.sub(r"\1", _WRAPPER.sub(r"\1", text))
        text = _SWITCH.sub(" ", text)
        text = _MARKDOWN.sub(r"\2", text)
        if text == before:
            break
    return text
