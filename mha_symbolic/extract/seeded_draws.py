"""NumPy's global generator followed through a page's code: after ``np.random.seed(42)`` the
arrays ``W_q = np.random.randn(4, 4)``, ``np.random.rand(3, 4) * 2``,
``np.random.normal(0, 0.1, (4, 4))``, ``np.random.uniform(-1, 1, size=(2, 3))`` and
``np.random.randint(0, 5, (3, 3))`` are the numbers numpy's own legacy ``RandomState(42)`` draws,
in the order the code runs them (a notebook's cells top to bottom), every draw advancing the one
stream whether its result is read or not.

Each float64 drawn is kept as the exact binary number it is (a Fraction; code_arrays writes it
as its terminating decimal, all of its digits), so that a check judges the page's printed
results at their own printed precision and never at a rounding of ours.

A statement that uses a generator in a way not followed exactly — a draw in a loop, a function
or a block, inside an expression not evaluated, a conversion to single precision,
``default_rng``, ``torch.manual_seed``, ``shuffle``, ``choice``, a call of a function the page
defines that draws, a seed that is not a literal — leaves the generator unknown from there on:
nothing is drawn for it until a later ``np.random.seed(N)`` sets the whole state again (a seed
replaces the state, whatever came before it). A number is never guessed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import numpy as np

from mha_symbolic.extract.formats import Line

MAX_DRAWN = 4_096  # entries of one draw; a bigger one is no worked example's weights
MAX_DIMENSIONS = 4
_RANDOM = frozenset({"np.random", "numpy.random"})
# Where a line may use a generator: numpy's, torch's, Python's or another library's.
_MENTION = (
    r"\brandom\.\w|\brandom\(|\brand\w*\s*\(|\bseed\(|manual_seed|\brng\b|default_rng"
    r"|RandomState|\bshuffle\(|\bpermutation\(|\bchoice\(|\.sample\(|\.rvs\("
    r"|\bimport\b[^#]*\brandom\b|numpy\.random\b"
)
_SEED = re.compile(
    r"^(?:np|numpy)\.random\.seed\(\s*(?:seed\s*=\s*)?(\d+|[A-Za-z_]\w*)\s*\)\s*;?\s*(?:#.*)?$"
)
_DEFINITION = re.compile(r"^(\s*)(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)")
# A conversion that may round the drawn float64s (to float32, half, an integer type).
_NARROWED = re.compile(r"astype|float32|float16|half|bfloat|single|\.float\(|\.type\(|\.to\(")
DRAWN = re.compile(r"\b(?:np|numpy)\.random\.\w+\s*\(")  # an expression that may draw
# Parameters of the draws followed, after the sizes of randn / rand given one by one.
_PARAMETERS = {
    "normal": ("loc", "scale", "size"),
    "uniform": ("low", "high", "size"),
    "randint": ("low", "high", "size"),
    "standard_normal": ("size",),
    "random": ("size",),
    "random_sample": ("size",),
}
_REAL = frozenset({"loc", "scale"})  # and uniform's low, high

Evaluate = Callable[[ast.expr], object]
Drawn = Fraction | np.ndarray  # an object array of Fractions


class NotFollowed(ValueError):
    """A draw whose numbers are not known exactly (a ValueError: an expression not read)."""


class Draws:
    """The page's global generator as its code runs it: a RandomState while it is known."""

    def __init__(self, lines: Sequence[Line]) -> None:
        self._state: np.random.RandomState | None = None
        self._mention = re.compile(_mentions(lines))

    def usable(self, source: str) -> Draws | None:
        """The generator for an expression, or None when it converts what it draws (to
        float32, say): its numbers would not be the float64s drawn."""
        return None if _NARROWED.search(source) else self

    def unfollowed(self, text: str, scalars: Mapping[str, object]) -> None:
        """A line of code not evaluated as an array: a seed sets the generator's state again;
        any other use of a generator leaves it unknown from here on."""
        seed = _seed(text, scalars)
        if seed is not None:
            self._state = np.random.RandomState(seed)
        elif self._mention.search(text):
            self._state = None

    def draw(self, node: ast.Call, value: Evaluate) -> Drawn:
        """The numbers ``np.random.NAME(...)`` draws next, exactly; NotFollowed when the
        generator or any argument is not known exactly (the caller then calls
        ``unfollowed`` for the statement, which leaves the generator unknown)."""
        if self._state is None:
            raise NotFollowed("generator not seeded, or lost")
        name = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if name in ("randn", "rand"):
            if node.keywords:
                raise NotFollowed(name)
            sizes = tuple(_integer(a, value) for a in node.args)
            _check_size(sizes)
            drawn = getattr(self._state, name)(*sizes)
        elif name in _PARAMETERS:
            drawn = getattr(self._state, name)(**_arguments(name, node, value))
        else:
            raise NotFollowed(name)
        return _exact(drawn)


def is_draw(node: ast.Call) -> bool:
    """Whether a call is one of ``np.random``'s (``numpy.random``'s)."""
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Attribute)
        and isinstance(func.value.value, ast.Name)
        and f"{func.value.value.id}.{func.value.attr}" in _RANDOM
    )


def _mentions(lines: Sequence[Line]) -> str:
    """Where a line may use a generator: the general words, and calls of the page's own
    functions and classes whose bodies do (``def init(n): return np.random.randn(n, n)``)."""
    general = re.compile(_MENTION)
    names: set[str] = set()
    code = [line.text for line in lines if not line.output]
    for index, text in enumerate(code):
        found = _DEFINITION.match(text)
        if found and _block_draws(code, index, len(found.group(1)), general):
            names.add(found.group(2))
    if not names:
        return _MENTION
    return _MENTION + "|" + "|".join(rf"\b{re.escape(n)}\b" for n in sorted(names))


def _block_draws(code: Sequence[str], index: int, depth: int, general: re.Pattern[str]) -> bool:
    """Whether the block under a ``def`` or ``class`` line uses a generator."""
    for text in code[index + 1 :]:
        if not text.strip():
            continue
        if len(text) - len(text.lstrip()) <= depth:
            return False
        if general.search(text):
            return True
    return False


def _seed(text: str, scalars: Mapping[str, object]) -> int | None:
    """The integer ``np.random.seed(N)`` sets, N a literal or a name set to an integer."""
    found = _SEED.match(text)
    if found is None:
        return None
    given = found.group(1)
    value = Fraction(given) if given.isdigit() else scalars.get(given)
    if isinstance(value, Fraction) and value.denominator == 1 and 0 <= value < 2**32:
        return int(value)
    return None


def _arguments(name: str, node: ast.Call, value: Evaluate) -> dict[str, object]:
    """The keyword arguments numpy receives, each known exactly: sizes and randint's bounds
    whole numbers, loc / scale / uniform's bounds written as number literals."""
    parameters = _PARAMETERS[name]
    given = dict(zip(parameters, node.args))
    if len(node.args) > len(parameters):
        raise NotFollowed("arguments")
    for keyword in node.keywords:
        if keyword.arg not in parameters or keyword.arg in given:
            raise NotFollowed("keyword")
        given[keyword.arg] = keyword.value
    out: dict[str, object] = {}
    for key, expression in given.items():
        if key == "size":
            out[key] = _size(expression, value)
        elif key in _REAL or name == "uniform":
            out[key] = _literal(expression)
        else:
            out[key] = _integer(expression, value)
    if name == "randint" and "low" not in out:
        raise NotFollowed("randint without low")
    return out


def _size(node: ast.expr, value: Evaluate) -> tuple[int, ...] | int | None:
    if isinstance(node, ast.Constant) and node.value is None:
        return None
    if isinstance(node, ast.Tuple):
        sizes = tuple(_integer(e, value) for e in node.elts)
        _check_size(sizes)
        return sizes
    size = _integer(node, value)
    _check_size((size,))
    return size


def _check_size(sizes: tuple[int, ...]) -> None:
    if len(sizes) > MAX_DIMENSIONS or any(s < 0 for s in sizes) or np.prod(sizes) > MAX_DRAWN:
        raise NotFollowed("size")


def _integer(node: ast.expr, value: Evaluate) -> int:
    """A whole number as Python has it: integer arithmetic of integer literals and names
    (a float anywhere, or a true division, might not be the page's number)."""
    if not _integral(node):
        raise NotFollowed("not an integer")
    number = value(node)
    if not isinstance(number, Fraction) or number.denominator != 1 or abs(number) > 2**62:
        raise NotFollowed("not an integer")
    return int(number)


def _integral(node: ast.expr) -> bool:
    """No float literal and no true division, except inside ``int(...)`` (which truncates a
    small quotient as exactly as code_arrays does)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int":
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return False
    return all(
        _integral(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)
    )


def _literal(node: ast.expr) -> float:
    """A real number written as a literal (``0.1``, ``-1``): the float Python passes."""
    sign = 1.0
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign = -1.0 if isinstance(node.op, ast.USub) else 1.0
        node = node.operand
    literal = node.value if isinstance(node, ast.Constant) else None
    if isinstance(literal, (int, float)) and not isinstance(literal, bool):
        return sign * float(literal)
    raise NotFollowed("not a literal")


def _exact(drawn: object) -> Drawn:
    """The drawn numbers as exact Fractions (every float64 is a binary fraction)."""
    if isinstance(drawn, np.ndarray):
        out = np.empty(drawn.shape, dtype=object)
        out.flat[:] = [_fraction(x) for x in drawn.flat]
        return out
    return _fraction(drawn)


def _fraction(x: object) -> Fraction:
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, (float, np.floating)) and np.isfinite(x):
        return Fraction(float(x))
    raise NotFollowed("not a finite number")
