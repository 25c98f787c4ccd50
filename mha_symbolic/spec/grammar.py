"""The strict gate of one written value: a bounded recursive-descent reader over its tokens
that refuses, naming the offending part, whatever would be a guess, and otherwise writes the
value out canonically for latex2sympy2_extended (latex_adapter.py), which builds it. Plain
numbers and their sums, products, quotients and integer powers are computed here (exact, and a
library parse takes 30-160 ms); everything else goes through the library.

A value is a sum of products of powers of atoms. Atoms: numbers (``12``, ``0.5``, ``1.5e-3``),
``e``, ``\\pi``, ``\\frac{a}{b}``, ``\\sqrt{x}``, ``\\sqrt[n]{x}``, ``\\exp(x)``, ``\\ln(x)``,
``\\log_{b}(x)``, groups in ``( )``, ``{ }`` or ``\\left( \\right)``, declared parameters
(``tau``, ``\\tau``, ``\\mathit{tau}``), single-letter symbols with an optional subscript
(``x_{1}``, ``W_{Q1,12}``). Operators: ``+ - \\cdot \\times * /`` and ``^``. A product may
be written without an operator (``2 \\sqrt{2}``, ``2 tau``, ``2(1+e)``) except where the
reading would be a guess:

- a number after anything (``2 3``, ``1\\,000``, ``e2``): digit groups and mixed forms;
- ``\\frac`` after a number (``1\\frac{1}{2}``): a mixed number;
- a letter glued to a number (``2e``, ``2tau``, ``0x10``): scientific notation, hex;
- a factor after ``/`` (``1/2 e``): LaTeX parsers read it as ``1/(2e)``;
- ``(`` after a name (``f(1)``): a function call;
- ``\\cdot`` between an integer and a three-digit integer (``1\\cdot 000``): a digit group;
  ``2 \\cdot 3`` is a product.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import sympy as sp

from mha_symbolic.spec import bounds
from mha_symbolic.spec.latex_adapter import bounded, checked, convert, finite, power
from mha_symbolic.spec.lexer import Refusal, Token, gap_name, number_value, tokens
from mha_symbolic.text import closest, one_line

_SUBSCRIPT = re.compile(r"[A-Za-z0-9,]+")
_PRODUCT_OPS = ("\\cdot", "\\times", "*", "/")
_FRACS = ("\\frac", "\\dfrac", "\\tfrac")
_ATOM_COMMANDS = (*_FRACS, "\\sqrt", "\\exp", "\\ln", "\\log", "\\pi", "\\infty", "\\left")
# Words and commands a user may reach for, with what to write instead.
_WORD_HINTS = {
    "pi": "write \\pi",
    "sqrt": "write \\sqrt{2}",
    "exp": "write \\exp(1) or e^{1}",
    "ln": "write \\ln(2)",
    "log": "write \\log_{10}(100) or \\ln(2)",
    "inf": "infinity is not a finite number",
    "infty": "infinity is not a finite number",
    "infinity": "infinity is not a finite number",
    "oo": "infinity is not a finite number",
    "zoo": "complex infinity is not a finite number",
    "nan": "NaN is not a number",
}
_NOT_READ = (
    "is not read; a value takes numbers, + - \\cdot \\times /, \\frac, \\sqrt, e^{...}, "
    "\\exp, \\ln, \\log_{b}, \\pi and declared parameters"
)
_COMMAND_HINTS = {
    "\\overline": "a repeating decimal (\\overline) is not read; write the fraction, such as 1/3",
    "\\dot": "a repeating decimal (\\dot) is not read; write the fraction, such as 1/3",
    "\\log": "\\log needs an explicit base: write \\log_{10}(100), \\log_{2}(8) or \\ln(2)",
    "\\binom": "\\binom is not read (its values grow too fast); write the number",
    "\\begin": "a matrix where one number goes",
    "\\\\": "a row break (\\\\) where one number goes",
    "&": "a column break (&) where one number goes",
}
_GREEK_NAMES = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu "
    "xi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma "
    "Upsilon Phi Psi Omega"
)
_GREEK = frozenset(_GREEK_NAMES.split(" "))
_RESERVED = {
    "E": "E is not read; write e for Euler's number",
    "i": "i is not read (it would be the imaginary unit); values are real",
    "I": "I is not read (it would be the imaginary unit); values are real",
}


def read(text: str, names: Mapping[str, sp.Symbol]) -> sp.Expr:
    """The exact value of ``text`` under the grammar, or a :class:`Refusal`."""
    if len(text) > bounds.MAX_TEXT:
        raise Refusal(f"a value of {len(text):,} characters; at most {bounds.MAX_TEXT:,} are read")
    reader = _Reader(tokens(text), names)
    piece = reader.value()
    if piece.value is not None:  # plain numbers: no library parse
        return piece.value
    return convert(piece.text, reader.symbols)


@dataclass(frozen=True)
class Piece:
    """A part of a value: its canonical LaTeX for the library, and its exact value when it is
    made of plain numbers alone (None otherwise)."""

    text: str
    value: sp.Expr | None = None


def _number(value: sp.Expr) -> Piece:
    rational = sp.Rational(value)
    sign = "-" if rational < 0 else ""
    p, q = abs(rational.p), rational.q
    text = f"{sign}{p}" if q == 1 else f"{sign}\\frac{{{p}}}{{{q}}}"
    return Piece(f"({text})", rational)


def _symbolic(text: str) -> Piece:
    return Piece(f"({text})")


class _Reader:
    """Recursive descent: one method per rule; ``depth`` counts open groups (bounded)."""

    def __init__(self, items: list[Token], names: Mapping[str, sp.Symbol]) -> None:
        self.items = items
        self.at = 0
        self.names = names
        self.symbols: list[sp.Expr] = []  # placeholder s_{k} names symbols[k]

    # ---------------------------------------------------------------- token access
    def peek(self, ahead: int = 0) -> Token:
        return self.items[min(self.at + ahead, len(self.items) - 1)]

    def take(self) -> Token:
        token = self.peek()
        self.at = min(self.at + 1, len(self.items) - 1)
        return token

    def expect(self, text: str, what: str) -> None:
        token = self.take()
        if token.text != text:
            found = f"'{one_line(token.text, 20)}'" if token.kind != "end" else "the end"
            raise Refusal(f"{what} needs '{text}' but found {found}")

    def value(self) -> Piece:
        result = self.sum(0)
        token = self.peek()
        if token.kind != "end":
            raise self.unexpected(token)
        return result

    # ---------------------------------------------------------------- rules
    def sum(self, depth: int) -> Piece:
        if depth > bounds.MAX_DEPTH:
            raise Refusal(f"nested more than {bounds.MAX_DEPTH} deep")
        terms = [self.signed(depth)]
        while self.peek().text in ("+", "-"):
            terms.append(self.signed(depth))
        if len(terms) == 1:
            return terms[0]
        values = [term.value for term in terms]
        if all(value is not None for value in values):
            return _number(checked(sp.Add(*values)))
        return _symbolic(" + ".join(term.text for term in terms))

    def signed(self, depth: int) -> Piece:
        negative = False
        if self.peek().text in ("+", "-"):
            negative = self.take().text == "-"
            if self.peek().text in ("+", "-"):
                raise Refusal(f"two signs in a row ({self.peek(-1).text}{self.peek().text})")
        term = self.product(depth)
        return _negative(term) if negative else term

    def product(self, depth: int) -> Piece:
        first = self.peek()
        factors = [self.juxtaposed(depth, after_slash=False)]
        last_start = first
        while self.peek().text in _PRODUCT_OPS:
            op = self.take()
            start = self.peek()
            if op.text == "\\cdot":
                _digit_group(last_start, start, self.items[self.at - 2])
            negative = False
            if start.text in ("+", "-"):  # 2 \cdot -3: the sign belongs to the factor
                negative = self.take().text == "-"
            factor = self.juxtaposed(depth, after_slash=op.text == "/")
            factor = _negative(factor) if negative else factor
            factors.append(_inverse(factor) if op.text == "/" else factor)
            last_start = start
        return _product(factors)

    def juxtaposed(self, depth: int, after_slash: bool) -> Piece:
        """Factors written side by side: a product, except where that would be a guess."""
        previous = self.peek()
        factors = [self.power(depth)]
        bare_number = previous.kind == "num" and self.peek(-1) is previous
        while _starts_atom(self.peek()):
            following = self.peek()
            self.check_side_by_side(previous, following, bare_number, after_slash)
            previous = following
            factors.append(self.power(depth))
            bare_number = False
        return _product(factors)

    def check_side_by_side(
        self, previous: Token, following: Token, bare_number: bool, after_slash: bool
    ) -> None:
        written = f"{previous.text}{following.gap}{following.text}"
        if following.kind == "num":
            _number_after(previous, following, bare_number)
        if bare_number and following.text in _FRACS:
            raise Refusal(
                f"a mixed number ({one_line(written, 20)}…) is not read; write "
                f"{previous.text} + \\frac{{…}}{{…}}, or {previous.text} \\cdot \\frac{{…}}{{…}}"
            )
        if after_slash:
            raise Refusal(
                f"a product right after / ({one_line(written, 30)}) is ambiguous; write "
                "\\frac{a}{b c} or \\frac{a}{b} c"
            )
        if previous.kind == "word" and previous.text != "e" and following.text == "(":
            raise Refusal(
                f"{previous.text}(…) looks like a function call; functions are not read "
                f"(for a product write {previous.text} \\cdot (…))"
            )

    def power(self, depth: int) -> Piece:
        base = self.atom(depth)
        if self.peek().text != "^":
            return base
        self.take()
        exponent = self.exponent(depth)
        if self.peek().text == "^":
            raise Refusal("a double exponent (a^b^c); write a^{b^{c}} or (a^{b})^{c}")
        if base.value is not None and exponent.value is not None and exponent.value.is_Integer:
            return _number(power(base.value, exponent.value))
        return _symbolic(f"{base.text}^{{{exponent.text}}}")

    def exponent(self, depth: int) -> Piece:
        token = self.peek()
        if token.text == "{":
            return self.group(depth, "{", "}", "an exponent")
        if token.kind == "num" and len(token.text) == 1:
            return _number(number_value(self.take().text))
        if token.kind == "word" and len(token.text) == 1:
            return self.atom(depth)
        if token.text == "\\pi" or self.declared(token) is not None:
            return self.atom(depth)
        if token.kind == "num":
            raise Refusal(
                f"write the exponent in braces: ^{{{one_line(token.text, 20)}}} "
                f"(LaTeX reads ^{token.text[:2]} as ^{token.text[0]} {token.text[1]})"
            )
        raise Refusal("write the exponent in braces: ^{…}")

    def group(self, depth: int, opening: str, closing: str, what: str) -> Piece:
        self.expect(opening, what)
        inner = self.sum(depth + 1)
        self.expect(closing, what)
        return inner

    def argument(self, depth: int, command: str) -> Piece:
        """The argument of \\exp, \\ln, \\log_b: (x), {x} or \\left( x \\right)."""
        token = self.peek()
        if token.text == "(":
            return self.group(depth, "(", ")", command)
        if token.text == "{":
            return self.group(depth, "{", "}", command)
        if token.text == "\\left":
            return self.left_right(depth)
        raise Refusal(f"{command} needs its argument in parentheses: {command}(2)")

    def left_right(self, depth: int) -> Piece:
        self.expect("\\left", "\\left")
        self.expect("(", "\\left")
        inner = self.sum(depth + 1)
        self.expect("\\right", "\\left(")
        self.expect(")", "\\right")
        return inner

    # ---------------------------------------------------------------- atoms
    def atom(self, depth: int) -> Piece:
        token = self.peek()
        if token.kind == "num":
            if re.match(r"0\d", token.text):
                lead = token.text.lstrip("0")
                lead = lead if lead[:1].isdigit() else "0" + lead
                raise Refusal(f"a leading zero ({token.text}); write {lead}")
            return _number(number_value(self.take().text))
        if token.kind == "word":
            return self.name(self.take())
        if token.text == "(":
            return self.group(depth, "(", ")", "(")
        if token.text == "{":
            return self.group(depth, "{", "}", "{")
        if token.kind == "cmd":
            return self.command(depth)
        raise self.unexpected(token)

    def command(self, depth: int) -> Piece:
        token = self.peek()
        symbol = self.declared(token)
        if symbol is not None:
            self.take()
            return self.placeholder(symbol)
        name = token.text
        if name in _FRACS:
            self.take()
            numerator = self.group(depth, "{", "}", name)
            denominator = self.group(depth, "{", "}", name)
            return _product([numerator, _inverse(denominator)])
        if name == "\\sqrt":
            return self.root(depth)
        if name in ("\\exp", "\\ln"):
            self.take()
            inner = self.argument(depth, name)
            return _symbolic(f"{name}{inner.text}")
        if name == "\\log" and self.peek(1).text == "_":
            return self.logarithm(depth)
        if name in ("\\pi", "\\infty"):
            self.take()
            return _symbolic(name)
        if name == "\\left":
            return self.left_right(depth)
        if name == "\\mathit":
            return self.italic()
        raise self.unexpected(token)

    def root(self, depth: int) -> Piece:
        self.take()
        index = ""
        if self.peek().text == "[":
            self.take()
            token = self.take()
            if (
                token.kind != "num"
                or not token.text.isdigit()
                or not 0 < int(token.text) <= bounds.MAX_EXPONENT
            ):
                raise Refusal(
                    f"\\sqrt[n]{{x}} takes a whole number n from 1 to {bounds.MAX_EXPONENT:,}"
                )
            index = f"[{int(token.text)}]"
            self.expect("]", "\\sqrt[n]")
        radicand = self.group(depth, "{", "}", "\\sqrt")
        return _symbolic(f"\\sqrt{index}{{{radicand.text}}}")

    def logarithm(self, depth: int) -> Piece:
        self.take()
        self.take()  # the _ of \log_
        token = self.peek()
        if token.text == "{":
            base = self.group(depth, "{", "}", "\\log_{b}")
        elif token.kind == "num" and len(token.text) == 1:
            base = _number(number_value(self.take().text))
        else:
            raise Refusal("write the base of \\log in braces: \\log_{10}(100)")
        inner = self.argument(depth, "\\log_{b}")
        return _symbolic(f"\\log_{{{base.text}}}{inner.text}")

    def italic(self) -> Piece:
        self.take()
        self.expect("{", "\\mathit")
        word = self.take()
        self.expect("}", "\\mathit")
        if word.kind != "word":
            raise Refusal("\\mathit{…} takes a name, such as \\mathit{tau}")
        return self.name(word)

    def declared(self, token: Token) -> sp.Symbol | None:
        """``\\tau`` when tau is a declared parameter."""
        if token.kind == "cmd":
            return self.names.get(token.text[1:])
        return None

    def name(self, token: Token) -> Piece:
        word, _, subscript = token.text.partition("_")
        if token.text in self.names:
            return self.placeholder(self.names[token.text])
        if token.text == "e":
            return _symbolic("e")
        if word in _RESERVED or word == "e":
            reason = _RESERVED.get(word, "e is Euler's number and takes no subscript")
            raise Refusal(reason)
        if len(word) == 1:
            return self.placeholder(_symbol(word, subscript))
        raise Refusal(_unknown_name(word, self.names), kind="name")

    def placeholder(self, symbol: sp.Expr) -> Piece:
        """``s_{k}`` for the library, whose own names would differ (it reads ``tau`` as
        t a u and turns ``x_{1}`` into ``x_1``); the symbol itself comes back after."""
        if symbol not in self.symbols:
            self.symbols.append(symbol)
        return _symbolic(f"s_{{{self.symbols.index(symbol)}}}")

    def unexpected(self, token: Token) -> Refusal:
        if token.kind == "end":
            return Refusal("the value ends too early (an operand is missing)")
        if token.text in _COMMAND_HINTS:
            return Refusal(_COMMAND_HINTS[token.text])
        if token.text[1:] in _GREEK:
            return Refusal(
                f"{token.text} is not read: functions are not, and a Greek letter must be a "
                f'declared parameter ([parameters] {token.text[1:]} = "real")'
            )
        if token.kind == "cmd":
            return Refusal(f"{token.text} {_NOT_READ}")
        shown = one_line(token.text, 20)
        if not token.text.isascii():
            return Refusal(f"the character '{shown}' (U+{ord(token.text[0]):04X}) is not read")
        return Refusal(f"'{shown}' is not read here")


def _starts_atom(token: Token) -> bool:
    if token.kind in ("num", "word"):
        return True
    if token.kind == "cmd":
        return token.text not in ("\\cdot", "\\times", "\\right")
    return token.text in ("(", "{")


def _number_after(previous: Token, following: Token, bare_number: bool) -> None:
    written = f"{previous.text}{following.gap}{following.text}"
    if not bare_number:
        raise Refusal(
            f"a number right after {one_line(previous.text, 20)} with no operator "
            f"({one_line(written, 30)}); write {previous.text} \\cdot {following.text}"
        )
    what = gap_name(following.gap)
    group = following.text.isdigit() and len(following.text) == 3 and previous.text.isdigit()
    if group:
        raise Refusal(f"{what} inside a number; write {previous.text}{following.text}")
    raise Refusal(
        f"two numbers side by side ({one_line(written, 30)}); write "
        f"{previous.text} \\cdot {following.text} for a product"
    )


def _digit_group(left: Token, right: Token, before_op: Token) -> None:
    """``1\\cdot 000`` reads as a product, but was written as one thousand."""
    if (
        left is before_op
        and left.kind == "num"
        and left.text.isdigit()
        and right.kind == "num"
        and right.text.isdigit()
        and len(right.text) == 3
    ):
        raise Refusal(
            f"\\cdot between digit groups ({left.text}\\cdot {right.text}) is not read as a "
            f"product; write {left.text}{right.text}, or {left.text} \\times {right.text} "
            "for a product"
        )


def _symbol(letter: str, subscript: str) -> sp.Symbol:
    """``x_{1}`` -> ``x_1`` and ``W_{Q1,12}`` -> ``W_{Q1,12}``: the names latex2sympy2_extended
    gives them when it reads back LaTeX this package printed."""
    if not subscript:
        return sp.Symbol(letter)
    inner = subscript[1:-1] if subscript.startswith("{") else subscript
    if not _SUBSCRIPT.fullmatch(inner):
        raise Refusal(f"the subscript of {letter}_{{{one_line(inner, 20)}}} is not a name")
    return sp.Symbol(f"{letter}_{inner}" if len(inner) == 1 else f"{letter}_{{{inner}}}")


def _unknown_name(word: str, names: Mapping[str, sp.Symbol]) -> str:
    shown = one_line(word, 30)
    if word.lower() in _WORD_HINTS:  # NaN, Inf: how other tools spell them
        return f"'{shown}' is not read; {_WORD_HINTS[word.lower()]}"
    if names:
        close = closest(word, names)
        if close:
            return f"'{shown}' is not declared; did you mean '{close[0]}'?"
        return f"'{shown}' is not declared; the parameters are {', '.join(names)}"
    return (
        f"'{shown}' is not a declared parameter; declare it under [parameters], "
        "or put \\cdot between letters for a product"
    )


def _negative(piece: Piece) -> Piece:
    if piece.value is not None:
        return _number(-piece.value)
    return _symbolic(f"-{piece.text}")


def _inverse(piece: Piece) -> Piece:
    """``1/piece``; a plain zero is refused here (a computed one by the library's build)."""
    if piece.value is not None:
        if piece.value == 0:
            raise Refusal("", kind="zero")
        return _number(1 / piece.value)
    return _symbolic(f"{piece.text}^{{-1}}")


def _product(factors: list[Piece]) -> Piece:
    if len(factors) == 1:
        return factors[0]
    values = [factor.value for factor in factors]
    if all(value is not None for value in values):
        numbers = [value for value in values if value is not None]
        bounded(numbers)
        return _number(finite(checked(sp.Mul(*numbers))))
    return _symbolic(" \\cdot ".join(factor.text for factor in factors))
