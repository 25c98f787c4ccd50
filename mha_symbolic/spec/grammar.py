"""The strict grammar of one written value: a bounded recursive-descent reader over its tokens
that builds the exact SymPy value, or refuses naming the offending part.

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

import sympy as sp

from mha_symbolic.spec import bounds
from mha_symbolic.spec.tokens import Refusal, Token, gap_name, number_value, tokens
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
    return _Reader(tokens(text), names).value()


class _Reader:
    """Recursive descent: one method per rule; ``depth`` counts open groups (bounded)."""

    def __init__(self, items: list[Token], names: Mapping[str, sp.Symbol]) -> None:
        self.items = items
        self.at = 0
        self.names = names

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

    def value(self) -> sp.Expr:
        result = self.sum(0)
        token = self.peek()
        if token.kind != "end":
            raise self.unexpected(token)
        return result

    # ---------------------------------------------------------------- rules
    def sum(self, depth: int) -> sp.Expr:
        if depth > bounds.MAX_DEPTH:
            raise Refusal(f"nested more than {bounds.MAX_DEPTH} deep")
        terms = [self.signed(depth)]
        while self.peek().text in ("+", "-"):
            terms.append(self.signed(depth))
        return _checked(sp.Add(*terms))

    def signed(self, depth: int) -> sp.Expr:
        negative = False
        if self.peek().text in ("+", "-"):
            negative = self.take().text == "-"
            if self.peek().text in ("+", "-"):
                raise Refusal(f"two signs in a row ({self.peek(-1).text}{self.peek().text})")
        term = self.product(depth)
        return -term if negative else term

    def product(self, depth: int) -> sp.Expr:
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
            factor = -factor if negative else factor
            if op.text == "/":
                if factor == 0:
                    raise Refusal("", kind="zero")
                factor = sp.Pow(factor, -1)
            factors.append(factor)
            last_start = start
        _bounded(factors)
        return _checked(sp.Mul(*factors))

    def juxtaposed(self, depth: int, after_slash: bool) -> sp.Expr:
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
        _bounded(factors)
        return sp.Mul(*factors) if len(factors) > 1 else factors[0]

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

    def power(self, depth: int) -> sp.Expr:
        base = self.atom(depth)
        if self.peek().text != "^":
            return base
        self.take()
        exponent = self.exponent(depth)
        if self.peek().text == "^":
            raise Refusal("a double exponent (a^b^c); write a^{b^{c}} or (a^{b})^{c}")
        return _power(base, exponent)

    def exponent(self, depth: int) -> sp.Expr:
        token = self.peek()
        if token.text == "{":
            return self.group(depth, "{", "}", "an exponent")
        if token.kind == "num" and len(token.text) == 1:
            return number_value(self.take().text)
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

    def group(self, depth: int, opening: str, closing: str, what: str) -> sp.Expr:
        self.expect(opening, what)
        inner = self.sum(depth + 1)
        self.expect(closing, what)
        return inner

    def argument(self, depth: int, command: str) -> sp.Expr:
        """The argument of \\exp, \\ln, \\log_b: (x), {x} or \\left( x \\right)."""
        token = self.peek()
        if token.text == "(":
            return self.group(depth, "(", ")", command)
        if token.text == "{":
            return self.group(depth, "{", "}", command)
        if token.text == "\\left":
            return self.left_right(depth)
        raise Refusal(f"{command} needs its argument in parentheses: {command}(2)")

    def left_right(self, depth: int) -> sp.Expr:
        self.expect("\\left", "\\left")
        self.expect("(", "\\left")
        inner = self.sum(depth + 1)
        self.expect("\\right", "\\left(")
        self.expect(")", "\\right")
        return inner

    # ---------------------------------------------------------------- atoms
    def atom(self, depth: int) -> sp.Expr:
        token = self.peek()
        if token.kind == "num":
            if re.match(r"0\d", token.text):
                lead = token.text.lstrip("0")
                lead = lead if lead[:1].isdigit() else "0" + lead
                raise Refusal(f"a leading zero ({token.text}); write {lead}")
            return number_value(self.take().text)
        if token.kind == "word":
            return self.name(self.take())
        if token.text == "(":
            return self.group(depth, "(", ")", "(")
        if token.text == "{":
            return self.group(depth, "{", "}", "{")
        if token.kind == "cmd":
            return self.command(depth)
        raise self.unexpected(token)

    def command(self, depth: int) -> sp.Expr:
        token = self.peek()
        symbol = self.declared(token)
        if symbol is not None:
            self.take()
            return symbol
        name = token.text
        if name in _FRACS:
            self.take()
            numerator = self.group(depth, "{", "}", name)
            denominator = self.group(depth, "{", "}", name)
            if denominator == 0:
                raise Refusal("", kind="zero")
            _bounded([numerator, denominator])
            return _checked(numerator / denominator)
        if name == "\\sqrt":
            return self.root(depth)
        if name in ("\\exp", "\\ln"):
            self.take()
            inner = self.argument(depth, name)
            return _power(sp.E, inner) if name == "\\exp" else sp.log(inner)
        if name == "\\log" and self.peek(1).text == "_":
            return self.logarithm(depth)
        if name == "\\pi":
            self.take()
            return sp.pi
        if name == "\\infty":
            self.take()
            return sp.oo
        if name == "\\left":
            return self.left_right(depth)
        if name == "\\mathit":
            return self.italic()
        raise self.unexpected(token)

    def root(self, depth: int) -> sp.Expr:
        self.take()
        index = sp.Integer(2)
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
            index = sp.Integer(int(token.text))
            self.expect("]", "\\sqrt[n]")
        radicand = self.group(depth, "{", "}", "\\sqrt")
        return _power(radicand, 1 / index)

    def logarithm(self, depth: int) -> sp.Expr:
        self.take()
        self.take()  # the _ of \log_
        token = self.peek()
        if token.text == "{":
            base = self.group(depth, "{", "}", "\\log_{b}")
        elif token.kind == "num" and len(token.text) == 1:
            base = number_value(self.take().text)
        else:
            raise Refusal("write the base of \\log in braces: \\log_{10}(100)")
        inner = self.argument(depth, "\\log_{b}")
        if base == 1:
            raise Refusal("\\log_{1} divides by zero (log 1 = 0)")
        return sp.log(inner, base)

    def italic(self) -> sp.Expr:
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

    def name(self, token: Token) -> sp.Expr:
        word, _, subscript = token.text.partition("_")
        if token.text in self.names:
            return self.names[token.text]
        if token.text == "e":
            return sp.E
        if word in _RESERVED or word == "e":
            reason = _RESERVED.get(word, "e is Euler's number and takes no subscript")
            raise Refusal(reason)
        if len(word) == 1:
            return _symbol(word, subscript)
        raise Refusal(_unknown_name(word, self.names), kind="name")

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
    """``x_{1}`` -> ``x_1`` and ``W_{Q1,12}`` -> ``W_{Q1,12}``, as latex2sympy2 names them."""
    if not subscript:
        return sp.Symbol(letter)
    inner = subscript[1:-1] if subscript.startswith("{") else subscript
    if not _SUBSCRIPT.fullmatch(inner):
        raise Refusal(f"the subscript of {letter}_{{{one_line(inner, 20)}}} is not a name")
    return sp.Symbol(f"{letter}_{inner}" if len(inner) == 1 else f"{letter}_{{{inner}}}")


def _unknown_name(word: str, names: Mapping[str, sp.Symbol]) -> str:
    shown = one_line(word, 30)
    if word in _WORD_HINTS:
        return f"'{shown}' is not read; {_WORD_HINTS[word]}"
    if names:
        close = closest(word, names)
        if close:
            return f"'{shown}' is not declared; did you mean '{close[0]}'?"
        return f"'{shown}' is not declared; the parameters are {', '.join(names)}"
    return (
        f"'{shown}' is not a declared parameter; declare it under [parameters], "
        "or put \\cdot between letters for a product"
    )


def _power(base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
    """``base^exponent`` when both the exponent and the exact result stay within the bounds."""
    if not exponent.free_symbols:
        size = _magnitude(exponent)
        if size is None or size > bounds.MAX_EXPONENT:
            raise Refusal(f"an exponent beyond the limit of ±{bounds.MAX_EXPONENT:,}")
        if base.is_Rational and base != 0:
            _rational_power(sp.Rational(base), size, exponent.is_Integer is True)
    return _checked(sp.Pow(base, exponent))


def _rational_power(base: sp.Rational, size: float, integer: bool) -> None:
    bits = max(abs(base.p).bit_length(), base.q.bit_length())
    digits = int(size * bits * 0.30103) + 1
    if digits > bounds.MAX_VALUE_DIGITS:
        raise Refusal(
            f"a power of about {digits:,} digits; at most {bounds.MAX_VALUE_DIGITS:,} are computed"
        )
    if not integer and bits * 0.30103 > bounds.MAX_ROOT_DIGITS:
        raise Refusal(f"a root of a number over {bounds.MAX_ROOT_DIGITS} digits is not computed")


def _magnitude(exponent: sp.Expr) -> float | None:
    """|exponent| as a float (None when it has no finite numeric value)."""
    if exponent.is_Rational:
        return float(abs(sp.Rational(exponent)))
    try:
        value = complex(sp.N(exponent, 15))
    except (TypeError, ValueError):
        return None
    return abs(value) if abs(value) != float("inf") else None


def _bounded(factors: list[sp.Expr]) -> None:
    """Refuse a product whose exact rational part would pass the digits bound."""
    bits = 0
    for factor in factors:
        coefficient = factor.as_coeff_Mul()[0] if isinstance(factor, sp.Expr) else 1
        if isinstance(coefficient, sp.Rational):
            bits += max(abs(coefficient.p).bit_length(), coefficient.q.bit_length())
    if bits * 0.30103 > bounds.MAX_VALUE_DIGITS:
        raise Refusal(
            f"a product of about {int(bits * 0.30103):,} digits; "
            f"at most {bounds.MAX_VALUE_DIGITS:,} are computed"
        )


def _checked(value: sp.Expr) -> sp.Expr:
    """Refuse an exact rational (or a sum's rational part) past the digits bound."""
    coefficient = value.as_coeff_Add()[0] if isinstance(value, sp.Expr) else 0
    for part in (value, coefficient):
        if isinstance(part, sp.Rational):
            bits = max(abs(part.p).bit_length(), part.q.bit_length())
            if bits * 0.30103 > bounds.MAX_VALUE_DIGITS:
                raise Refusal(
                    f"a number of about {int(bits * 0.30103):,} digits; "
                    f"at most {bounds.MAX_VALUE_DIGITS:,} are computed"
                )
    return value
