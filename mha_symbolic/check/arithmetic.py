"""A document's own arithmetic: a chain of plain arithmetic on printed numbers ending in its
value (``0.3×0.1+0.4×0.3+0.1×0.6=0.13``, ``1 / 1.414 = 0.707``) is worked out exactly, and a
value its working cannot give at the printed precision is a finding, with the right value.

Integers are exact. Numbers of two decimals or more may be rounded results, so each stands for
every number it rounds from; so does a number of one decimal in a quotient, while in sums and
products it is taken as typed, with one unit of the value's last digit let pass (see
``evaluate``). A value is wrong only when nothing left open can give it. Only sums,
differences, products, quotients, small integer powers and brackets of numbers are read; a
chain with a name, a function or a root in its last step is left alone.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from fractions import Fraction

_DIGITS = r"\d+\.\d*|\.\d+|\d+"  # a printed number without its sign
# The value ending a chain: after "=" or "≈", then the end of the clause (not more arithmetic).
_VALUE = re.compile(
    rf"(?:=|≈|\\approx)\s*(?P<value>[-−]?(?:{_DIGITS}))"
    r"(?=\s*$|\s*[,;)\"|$`]|\.(?:\s|$)|\\n|\s+[^\s\d+\-−×*·⋅/^(])"
)
_STEPS = ("=", "≈", "\\approx", ":")  # what ends the step before a chain's last
_LONGEST = 400  # characters of one step's working
_LIST = re.compile(r"\[([^\[\]]{1,400})\]")  # a printed list (no nested brackets)
_EQUALS = re.compile(r"\s*(?:=|≈|\\approx)\s*")
_NUMBER = re.compile(rf"[-−]?(?:{_DIGITS})")
_FACTOR = re.compile(rf"({_DIGITS})\s*(?:×|\*|·|⋅|\\times|\\cdot)")
_OPERATOR_NEXT = re.compile(r"\s*(?:[+\-−×*·⋅/^]|\\times|\\cdot)")
_TOKEN = re.compile(rf"\s*(?:(?P<number>{_DIGITS})|(?P<op>[-+*/^()]))")
_TIMES = str.maketrans({"×": "*", "·": "*", "⋅": "*", "−": "-"})
_LATEX = (("\\times", "*"), ("\\cdot", "*"), ("{", "("), ("}", ")"))
_MAX_LINES = 20_000
_MAX_CHAINS = 500  # a page's findings of this kind (a tutorial prints tens of chains)
_MAX_POWER = 8

Interval = tuple[Fraction, Fraction]


def wrong_chains(lines: Sequence[str]) -> list[tuple[int, str, str, Fraction]]:
    """(line, working as printed, value as printed, exact value) of every chain whose value
    its working cannot give: single numbers, then lists worked entry by entry."""
    out = []
    for number, text in enumerate(lines[:_MAX_LINES], start=1):
        if "=" not in text and "≈" not in text and "approx" not in text:
            continue
        for working, value in [*_scalar_steps(text), *_list_steps(text)]:
            exact = _wrong(working, value)
            if exact is not None:
                out.append((number, working, value, exact))
                if len(out) >= _MAX_CHAINS:
                    return out
    return out


def _wrong(working: str, value: str) -> Fraction | None:
    """The exact value of the working when the printed value cannot be it, else None."""
    judged = evaluate(working)
    if judged is None:
        return None
    exact, (low, high), typed = judged
    printed, half = _printed(value)
    # A number of one decimal may yet be a rounded one: a value one unit of its last digit
    # off (2.7 × 0.3 = 0.82, e × 0.3 rounded) is no finding then.
    slack = half + (2 * half if typed else 0)
    return exact if printed + slack < low or printed - slack > high else None


def _list_steps(text: str) -> list[tuple[str, str]]:
    """(working, value) of each entry of a list worked entry by entry: ``[1×1+0×0, 1×0+0×1] =
    [1, 0]``, or a number times a list, ``0.4×[0.3,0.2,0.8] = [0.12, 0.08, 0.32]``."""
    out: list[tuple[str, str]] = []
    groups = list(_LIST.finditer(text))
    for left, right in itertools.pairwise(groups):
        if not _EQUALS.fullmatch(text[left.end() : right.start()]):
            continue
        if _OPERATOR_NEXT.match(text, right.end()):
            continue  # the list is one term of a sum or a product: not its value
        workings, values = _entries(left.group(1)), _entries(right.group(1))
        if len(workings) != len(values) or not all(_NUMBER.fullmatch(v) for v in values):
            continue
        # What the left list is multiplied by, back to the step before it: nothing or a number.
        prefix = _step_before(text, left.start(), 60)
        factor = _FACTOR.fullmatch(prefix) if prefix is not None else None
        if prefix != "" and factor is None:
            continue  # softmax([..]), a sum of scaled lists, a name: not plain arithmetic
        for working, value in zip(workings, values):
            if factor is not None:  # "0.4 × 0.3", "0.5 × (1 + 2)"
                single = _NUMBER.fullmatch(working)
                working = f"{factor.group(1)} × {working if single else f'({working})'}"
            out.append((working, value))
    return out


def _entries(text: str) -> list[str]:
    for space in ("\\;", "\\,", "\\ ", "\\quad"):
        text = text.replace(space, " ")
    return [entry.strip() for entry in text.split(",")]


def _scalar_steps(text: str) -> list[tuple[str, str]]:
    """(working, value) of each single number ending a chain: the step back to the last "=",
    "≈" or ":" (looked for within reach of a step)."""
    out = []
    for match in _VALUE.finditer(text):
        working = _step_before(text, match.start(), _LONGEST + 8)
        if working is not None:
            out.append((working, match.group("value")))
    return out


def _step_before(text: str, end: int, reach: int) -> str | None:
    """The text from the last "=", "≈" or ":" (or the line's start) to ``end``, stripped of
    spaces and math delimiters; None when no such mark is within ``reach`` characters (a
    page's data, not a hand-worked step). Looked for within reach: linear on a long line."""
    window = max(0, end - reach)
    at, mark = max((text.rfind(mark, window, end), mark) for mark in _STEPS)
    if at < 0 and window > 0:
        return None
    return text[at + len(mark) if at >= 0 else 0 : end].strip().strip("$`").strip()


def evaluate(working: str) -> tuple[Fraction, Interval, bool] | None:
    """The exact value of plain arithmetic, the interval its rounded numbers allow, and whether
    a number of one decimal is among them; None when it is not plain arithmetic of two numbers
    or more with an operator between them.

    A number of one decimal is taken as typed (exact) in sums and products, which a hand works
    exactly; in a quotient it may be a rounded one (``2.7 / 3.7 = 0.731`` is e/(1+e)), so there
    it stands for what it rounds from, as numbers of more decimals always do."""
    text = working.translate(_TIMES)
    for latex, plain in _LATEX:
        text = text.replace(latex, plain)
    tokens = _tokens(text)
    if tokens is None or sum(kind == "number" for kind, _ in tokens) < 2:
        return None
    divides = any(text == "/" for _, text in tokens) or any(
        a == "^" and b == "-" for (_, a), (_, b) in itertools.pairwise(tokens)
    )
    parser = _Parser(tokens, typed_exact=not divides)
    try:
        exact, interval = parser.sum()
    except (ValueError, ZeroDivisionError, RecursionError):
        return None
    typed = any(kind == "number" and len(t.partition(".")[2]) == 1 for kind, t in tokens)
    return (exact, interval, typed) if parser.done() else None


def _tokens(text: str) -> list[tuple[str, str]] | None:
    out, at, text = [], 0, text.rstrip()
    while at < len(text):
        found = _TOKEN.match(text, at)
        if found is None or found.end() == at:
            return None
        out.append(("number", found["number"]) if found["number"] else ("op", found["op"]))
        at = found.end()
    return out


def _printed(text: str) -> tuple[Fraction, Fraction]:
    """A printed number and half a unit of its last digit (0 for one decimal or none: typed)."""
    text = text.replace("−", "-")
    decimals = len(text.partition(".")[2])
    half = Fraction(1, 2 * 10**decimals) if decimals >= 1 else Fraction(1, 2)
    return Fraction(text), half


class _Parser:
    """Recursive descent over sum, product, power and atom; each value exact and as an
    interval of what its rounded numbers allow."""

    def __init__(self, tokens: list[tuple[str, str]], typed_exact: bool = True) -> None:
        self.tokens, self.at = tokens, 0
        self.exact_below = 2 if typed_exact else 1  # decimals a number is taken as typed below

    def done(self) -> bool:
        return self.at == len(self.tokens)

    def _peek(self) -> str | None:
        return self.tokens[self.at][1] if self.at < len(self.tokens) else None

    def sum(self) -> tuple[Fraction, Interval]:
        value = self.product()
        while self._peek() in ("+", "-"):
            sign = self.tokens[self.at][1]
            self.at += 1
            other = self.product()
            value = _add(value, other) if sign == "+" else _add(value, _negate(other))
        return value

    def product(self) -> tuple[Fraction, Interval]:
        value = self.power()
        while self._peek() in ("*", "/"):
            operator = self.tokens[self.at][1]
            self.at += 1
            other = self.power()
            value = _times(value, other) if operator == "*" else _times(value, _inverse(other))
        return value

    def power(self) -> tuple[Fraction, Interval]:
        base = self.atom()
        if self._peek() != "^":
            return base
        self.at += 1
        exponent, _ = self.atom()
        if exponent.denominator != 1 or abs(exponent) > _MAX_POWER:
            raise ValueError("not a small integer power")
        value = (Fraction(1), (Fraction(1), Fraction(1)))
        for _ in range(abs(int(exponent))):
            value = _times(value, base)
        return value if exponent >= 0 else _inverse(value)

    def atom(self) -> tuple[Fraction, Interval]:
        if self.done():
            raise ValueError("the working ends early")
        kind, text = self.tokens[self.at]
        self.at += 1
        if kind == "number":
            number, half = _printed(text)
            half = half if len(text.partition(".")[2]) >= self.exact_below else Fraction(0)
            return number, (number - half, number + half)
        if text in ("+", "-"):
            signed = self.power()
            return signed if text == "+" else _negate(signed)
        if text == "(":
            inside = self.sum()
            if self._peek() != ")":
                raise ValueError("a bracket left open")
            self.at += 1
            return inside
        raise ValueError(f"unexpected {text}")


def _add(a: tuple[Fraction, Interval], b: tuple[Fraction, Interval]) -> tuple[Fraction, Interval]:
    return a[0] + b[0], (a[1][0] + b[1][0], a[1][1] + b[1][1])


def _negate(a: tuple[Fraction, Interval]) -> tuple[Fraction, Interval]:
    return -a[0], (-a[1][1], -a[1][0])


def _times(a: tuple[Fraction, Interval], b: tuple[Fraction, Interval]) -> tuple[Fraction, Interval]:
    ends = [x * y for x in a[1] for y in b[1]]
    return a[0] * b[0], (min(ends), max(ends))


def _inverse(a: tuple[Fraction, Interval]) -> tuple[Fraction, Interval]:
    low, high = a[1]
    if low <= 0 <= high:
        raise ZeroDivisionError("a quotient by a number that may be 0")
    return 1 / a[0], (1 / high, 1 / low)


def shown(exact: Fraction, decimals: int) -> str:
    """The exact value as a decimal: all its digits when it ends within two more places than
    the document printed, else rounded to that many with "≈" before it."""
    places = decimals + 2
    scaled = exact * 10**places
    if scaled.denominator != 1:
        return f"≈ {float(exact):.{places}f}"
    digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
    whole, fraction = digits[:-places], digits[-places:].rstrip("0")
    return ("-" if exact < 0 else "") + whole + ("." + fraction if fraction else "")
