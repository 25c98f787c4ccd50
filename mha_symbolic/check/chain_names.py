"""Names heading a claimed chain (``\\alpha_{\\text{Hello}} = 0.2291``): skipped, not read."""

from __future__ import annotations

import re

# A name heading a chain ("A_1 = ...", "\text{Head1 Output} = ...", "\alpha_{\text{Hello}} =",
# "\mathrm{softmax}(0.7, 0) \approx ..."): what is named or computed, not a value. Euler's e
# and pi are values, never names.
_STYLES = frozenset(
    [
        "mathrm",
        "text",
        "textrm",
        "textit",
        "textbf",
        "operatorname",
        "mathbf",
        "mathit",
        "mathsf",
        "boldsymbol",
        "mathcal",
        "hat",
        "tilde",
        "bar",
        "vec",
        "widehat",
    ]
)
_GREEK = frozenset(
    [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "varepsilon",
        "zeta",
        "eta",
        "theta",
        "vartheta",
        "iota",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
        "rho",
        "sigma",
        "tau",
        "upsilon",
        "phi",
        "varphi",
        "chi",
        "psi",
        "omega",
        "Gamma",
        "Delta",
        "Theta",
        "Lambda",
        "Xi",
        "Pi",
        "Sigma",
        "Upsilon",
        "Phi",
        "Psi",
        "Omega",
    ]
)
_COMMAND = re.compile(r"\\([A-Za-z]+)\s*")
_WORD = re.compile(r"[A-Za-z]+")


def is_name(text: str) -> bool:
    """Whether ``text`` only names a quantity: letters, Greek, styled text, sub/superscripts."""
    index, atoms = 0, 0
    while index < len(text):
        if text[index].isspace():
            index += 1
            continue
        end = _atom_end(text, index, atoms > 0)
        if end is None:
            return False
        index, atoms = end, atoms + 1
    return atoms > 0


def _atom_end(text: str, start: int, after_name: bool) -> int | None:
    """End of one name atom at ``start`` with its primes, subscripts and superscripts."""
    if text[start] == "(" and after_name:  # softmax(...): a function applied, still a name
        close = closing_index(text, start)
        return None if close is None else _decorations_end(text, close + 1)
    command, word = _COMMAND.match(text, start), _WORD.match(text, start)
    if command and command.group(1) in _STYLES and text[command.end() : command.end() + 1] == "{":
        close = closing_index(text, command.end())
        if close is None:
            return None
        end = close + 1
    elif command and command.group(1) in _GREEK:
        end = start + 1 + len(command.group(1))
    elif word and word.group() != "e":
        end = word.end()
    else:
        return None
    return _decorations_end(text, end)


def _decorations_end(text: str, end: int) -> int | None:
    while end < len(text) and text[end] in "'_^":
        if text[end] == "'":
            end += 1
            continue
        end += 1
        if end >= len(text):
            return None
        if text[end] == "{":
            close = closing_index(text, end)
            if close is None:
                return None
            end = close + 1
        elif text[end] == "\\":
            command = _COMMAND.match(text, end)
            end = end + 1 + len(command.group(1)) if command else end + 1
        else:
            end += 1
    return end


def closing_index(text: str, start: int) -> int | None:
    """Index of the bracket closing the one at ``start`` (any of ([{), or None."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] in "([{":
            depth += 1
        elif text[index] in ")]}":
            depth -= 1
            if depth == 0:
                return index
    return None
