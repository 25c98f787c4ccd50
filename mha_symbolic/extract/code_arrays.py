"""Arrays a document builds in code from constructors instead of printing them:
``Wq = np.eye(d)``, ``Wk = 0.5 * np.eye(d)``, ``X = np.arange(18.).reshape(3, 6)``,
``mask = torch.tril(torch.ones(T, T))``, ``M = np.triu(np.full((4, 4), -np.inf), k=1)``.

Each is read as the exact matrix it builds (an Item of kind "list", as ``np.array([[...]])``
in code is), when every part of it is known: numpy / torch / jax constructors, integer sizes
given by literals or by names set to integer literals earlier on the page (``d = 4``,
``N, D = 3, 4``), scalar arithmetic, ``.reshape`` / ``.view`` / ``.T`` and dtype
conversions, and the entries set one by one right after it (``X[2, 4] = float("-inf")``).
Anything else — a random draw (but a seeded numpy generator's, seeded_draws), another array,
a list literal (the list finder reads those), an index assignment by a mask — leaves the
statement unread: a number is never guessed.
Bounded: one line per statement, at most ``MAX_ENTRIES`` entries, ``MAX_SOURCE`` characters.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import TypeAlias

import numpy as np

from mha_symbolic.extract.formats import Line
from mha_symbolic.extract.items import Item, Text
from mha_symbolic.extract.layer_weights import layer_weight
from mha_symbolic.extract.seeded_draws import DRAWN, Draws, is_draw

MAX_ENTRIES = 4_096  # a tutorial's input; a bigger constructed array is no worked example
MAX_SOURCE = 300  # characters of one statement read
MAX_BUILT = 100_000  # entries built on one page, at most (then the rest is left unread)
MAX_ITEMS = 2_000  # arrays built on one page, at most (the finder refuses more anyway)
_MODULES = frozenset({"np", "numpy", "torch", "jnp", "jax.numpy", "tf", "mx"})
_ASSIGN = re.compile(r"^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*=(?!=)\s*(.+?)\s*(?:#.*)?$")
_SET_ENTRY = re.compile(r"^([A-Za-z_]\w*)\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*=(?!=)\s*(.+?)\s*$")
_INDEXED = re.compile(r"^([A-Za-z_]\w*)\s*\[.*\]\s*[-+*/]?=(?!=)|^([A-Za-z_]\w*)\s*[-+*/@]=")
_INPLACE = re.compile(r"^([A-Za-z_]\w*)\.\w+_\(")  # torch's x.fill_(...), x.masked_fill_(...)
_INF = float("inf")
_CONSTRUCTOR = re.compile(r"\b(?:arange|eye|identity|ones|zeros|full|tril|triu)\s*\(")
_LITERALS = re.compile(r"[\s\d.,()+\-]+")  # "4", "3, 4", "(2, 3)", "-0.5"
_PLAIN = re.compile(r"[-+]?\d+(?:\.\d+)?")

Scalar: TypeAlias = Fraction | float  # a float only for ±inf
Value: TypeAlias = Fraction | float | np.ndarray  # arrays hold Scalars (dtype object)


class _Unknown(Exception):
    """The expression holds something not read exactly."""


def code_arrays(text: Text, lines: Sequence[Line]) -> list[Item]:
    """Every array built by constructors in the document's code (never in a notebook's
    printed output, never in an indented block such as a function's body)."""
    scalars: dict[str, Scalar] = {}
    items: list[Item] = []
    events = _events(lines)
    draws = Draws(lines)  # np.random's draws after np.random.seed(N), followed in order
    budget = MAX_BUILT
    number = 0
    while number < len(lines) and budget > 0 and len(items) <= MAX_ITEMS:
        index, line = number, lines[number]
        number += 1
        if line.output or not line.text:
            continue
        setter = layer_weight(lines, index)
        if len(line.text) > MAX_SOURCE or (line.text[0].isspace() and setter is None):
            draws.unfollowed(line.text, scalars)
            continue
        _forget(line.text, scalars)
        found = setter or _ASSIGN.match(line.text)
        value = (
            _evaluated(found.group(2), scalars, draws) if found and _worth(found.group(2)) else None
        )
        if found is None or value is None:
            draws.unfollowed(line.text, scalars)
            continue
        names = [name.strip() for name in found.group(1).split(",")]
        if len(names) > 1:  # "N, D = 3, 4": sizes (a tuple of arrays is not read)
            _unpack(names, value, scalars)
            continue
        if not isinstance(value, np.ndarray):
            scalars[names[0]] = value
            continue
        budget -= value.size
        value, number = _entries_set(names[0], value, lines, number)
        if value is None or value.ndim not in (1, 2) or _constant_array(value):
            continue  # a constant array (zeros to add into, ones) says nothing of a step
        if _changed_later(events.get(names[0], []), number):
            continue  # "X[mask] = 100" further down: the page's X is not what was built
        start = text.starts[index] + found.start(2)
        rows = tuple(tuple(_written(x) for x in row) for row in np.atleast_2d(value))
        statement, after = line.text[: found.start(2)], line.text[found.end(2) :]
        end = start + len(found.group(2))
        items.append(Item(rows, start, end, index, "list", statement, after))
    return items


def _worth(source: str) -> bool:
    """Whether an expression can build an array or a size at all (most code cannot: a quick
    look before parsing it)."""
    return bool(_CONSTRUCTOR.search(source) or _LITERALS.fullmatch(source) or DRAWN.search(source))


def _constant_array(value: np.ndarray) -> bool:
    first = value.flat[0]
    return all(x == first for x in value.flat)


def _events(lines: Sequence[Line]) -> dict[str, list[tuple[int, bool]]]:
    """Per name, the lines that set it again (False) or change it in place (True), in order:
    one pass over the page, so that asking about every array stays linear."""
    out: dict[str, list[tuple[int, bool]]] = {}
    for index, line in enumerate(lines):
        if line.output:
            continue
        text = line.text.lstrip()
        changed = _changed(text)
        if changed:
            out.setdefault(changed, []).append((index, True))
        elif found := _ASSIGN.match(text):
            for name in found.group(1).split(","):
                out.setdefault(name.strip(), []).append((index, False))
    return out


def _changed_later(events: list[tuple[int, bool]], number: int) -> bool:
    """Whether a statement from line ``number`` on changes the array in place before its name
    is set again."""
    at = bisect.bisect_left(events, (number, False))
    return at < len(events) and events[at][1]


def _changed(line: str) -> str | None:
    """The name a statement changes in place (``X[mask] = 100``, ``d += 1``, ``x.fill_(1)``)."""
    found = _INDEXED.match(line) or _INPLACE.match(line)
    return next((g for g in found.groups() if g), None) if found else None


def _forget(line: str, scalars: dict[str, Scalar]) -> None:
    """A name changed in place is no longer the number it was set to."""
    changed = _changed(line)
    if changed:
        scalars.pop(changed, None)


def _unpack(names: list[str], value: Value, scalars: dict[str, Scalar]) -> None:
    if isinstance(value, np.ndarray) and value.ndim == 1 and len(value) == len(names):
        scalars.update(zip(names, (x for x in value)))
    else:
        for name in names:
            scalars.pop(name, None)


def _entries_set(
    name: str, value: np.ndarray, lines: Sequence[Line], number: int
) -> tuple[np.ndarray | None, int]:
    """The array with the entries the next lines set one by one (``X[2, 4] = -np.inf``);
    None when a later line changes it in a way not read (``X[mask] = 100``)."""
    value = value.copy()
    while number < len(lines) and not lines[number].output:
        line = lines[number].text
        found = _SET_ENTRY.match(line)
        if found and found.group(1) == name and value.ndim == 2:
            entry = _evaluated(found.group(4), {})
            if entry is None or isinstance(entry, np.ndarray):
                return None, number
            try:
                value[int(found.group(2)), int(found.group(3))] = entry
            except IndexError:
                return None, number
            number += 1
            continue
        return (None if _changed(line) == name else value), number
    return value, number


def _written(x: Scalar) -> str:
    """An exact entry as the finders write a printed one: "3", "-0.25", "1/3", "-inf"."""
    if isinstance(x, float):
        return "-inf" if x < 0 else "inf"
    if x.denominator == 1:
        return str(x.numerator)
    denominator = x.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{x.numerator}/{x.denominator}"
    places = 0
    while (x * 10**places).denominator != 1:
        places += 1
    digits = f"{abs(x.numerator) * 10**places // x.denominator:0{places + 1}d}"
    sign = "-" if x < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


# ------------------------------------------------------------------ the evaluator
def _evaluated(source: str, scalars: dict[str, Scalar], draws: Draws | None = None) -> Value | None:
    """The exact value of a constructor expression, or None when any part is not known."""
    if "[" in source or len(source) > MAX_SOURCE:
        return None  # a list literal is the list finder's; an index is not a constructor
    if _PLAIN.fullmatch(source):
        return Fraction(source)
    try:
        tree = ast.parse(source, mode="eval")
        value = _Evaluator(scalars, draws and draws.usable(source)).value(tree.body)
    except (_Unknown, SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        return None
    except (ArithmeticError, IndexError):  # ZeroDivisionError and OverflowError among them
        return None
    if isinstance(value, np.ndarray):
        if value.size > MAX_ENTRIES or not all(_exact(x) for x in value.flat):
            return None
        return value
    return value if _exact(value) else None


def _exact(x: object) -> bool:
    return isinstance(x, Fraction) or (isinstance(x, float) and abs(x) == _INF)


class _Evaluator:
    def __init__(self, scalars: dict[str, Scalar], draws: Draws | None = None) -> None:
        self.scalars = scalars
        self.constructed = False
        self.draws = draws

    def value(self, node: ast.expr) -> Value:
        if isinstance(node, ast.Constant):
            return _constant(node.value)
        if isinstance(node, ast.Name):
            if node.id in self.scalars:
                return self.scalars[node.id]
            raise _Unknown(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            operand = self.value(node.operand)
            return -operand if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.BinOp):
            return _binary(node.op, self.value(node.left), self.value(node.right))
        if isinstance(node, ast.Tuple):
            return _vector([self.value(e) for e in node.elts])
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        raise _Unknown(type(node).__name__)

    def _attribute(self, node: ast.Attribute) -> Value:
        if node.attr == "inf" and _module(node.value) in (*_MODULES, "math"):
            return _INF
        if node.attr == "T":
            return _matrix(self.value(node.value)).T
        raise _Unknown(node.attr)

    def _call(self, node: ast.Call) -> Value:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("float", "int") and len(node.args) == 1:
            return _cast(func.id, self.value_or_text(node.args[0]))
        if not isinstance(func, ast.Attribute):
            raise _Unknown("call")
        if self.draws is not None and is_draw(node):
            return self.draws.draw(node, self.value)
        if _module(func.value) in _MODULES:
            return _construct(func.attr, self, node)
        target = _matrix(self.value(func.value))
        if func.attr in _CONVERSIONS:
            return _converted(target, node)
        return _method(func.attr, target, [self.value(a) for a in node.args])

    def value_or_text(self, node: ast.expr) -> Value | str:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        return self.value(node)


def _module(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return ""


def _constant(value: object) -> Scalar:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Unknown("constant")
    if isinstance(value, float):
        return value if abs(value) == _INF else Fraction(repr(value))
    return Fraction(value)


def _cast(kind: str, value: Value | str) -> Scalar:
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("inf", "+inf", "infinity"):
            return _INF
        if word in ("-inf", "-infinity"):
            return -_INF
        raise _Unknown(value)
    if isinstance(value, np.ndarray):
        raise _Unknown("array")
    if kind == "int":
        if isinstance(value, float):
            raise _Unknown("int of inf")
        return Fraction(int(value))
    return value


def _binary(op: ast.operator, left: Value, right: Value) -> Value:
    if isinstance(op, ast.Add):
        return left + right
    if isinstance(op, ast.Sub):
        return left - right
    if isinstance(op, ast.Mult):
        return left * right
    if isinstance(op, ast.Div):
        return _divided(left, right)
    if isinstance(op, ast.Pow) and _small_integer(right):
        return left ** int(right)
    raise _Unknown(type(op).__name__)


def _divided(left: Value, right: Value) -> Value:
    if isinstance(right, (np.ndarray, float)):
        raise _Unknown("division by an array")
    if right == 0:
        raise ZeroDivisionError
    return left / right


def _small_integer(x: Value) -> bool:
    return isinstance(x, Fraction) and x.denominator == 1 and 0 <= x <= 8


def _vector(values: list[Value]) -> np.ndarray:
    if any(isinstance(v, np.ndarray) for v in values):
        raise _Unknown("nested")
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _matrix(value: Value) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        raise _Unknown("not an array")
    return value


def _size(value: Value) -> int:
    if isinstance(value, Fraction) and value.denominator == 1 and 0 < value <= MAX_ENTRIES:
        return int(value)
    raise _Unknown("size")


def _shape(args: list[Value]) -> tuple[int, ...]:
    if len(args) == 1 and isinstance(args[0], np.ndarray):
        sizes = tuple(_size(x) for x in args[0])
    else:
        sizes = tuple(_size(x) for x in args)
    if not 1 <= len(sizes) <= 2 or int(np.prod(sizes)) > MAX_ENTRIES:
        raise _Unknown("shape")
    return sizes


def _keywords(node: ast.Call) -> dict[str, ast.expr]:
    return {k.arg: k.value for k in node.keywords if k.arg is not None}


def _filled(shape: tuple[int, ...], value: Scalar) -> np.ndarray:
    out = np.empty(shape, dtype=object)
    out.fill(value)
    return out


def _construct(name: str, evaluator: _Evaluator, node: ast.Call) -> np.ndarray:
    """numpy's / torch's constructors of known entries."""
    keywords = _keywords(node)
    args = [evaluator.value(a) for a in node.args]
    if name in ("ones", "zeros"):
        return _filled(_shape(args), Fraction(1 if name == "ones" else 0))
    if name == "full" and len(args) == 2:
        fill = args[1]
        if isinstance(fill, np.ndarray):
            raise _Unknown("fill")
        return _filled(_shape([args[0]]), fill)
    if name in ("eye", "identity") and len(args) == 1:
        size = _shape([args[0], args[0]])[0]  # at most MAX_ENTRIES entries in all
        out = _filled((size, size), Fraction(0))
        for i in range(size):
            out[i, i] = Fraction(1)
        return out
    if name == "arange" and 1 <= len(args) <= 3:
        return _arange(args)
    if name in ("tril", "triu") and len(args) >= 1:
        offset = _offset(evaluator, args[1:], keywords)
        return _triangle(name, _matrix(args[0]), offset)
    raise _Unknown(name)


def _offset(evaluator: _Evaluator, rest: list[Value], keywords: dict[str, ast.expr]) -> int:
    given = rest[0] if rest else None
    for key in ("k", "diagonal"):
        if key in keywords:
            given = evaluator.value(keywords[key])
    if given is None:
        return 0
    if isinstance(given, Fraction) and given.denominator == 1 and abs(given) <= MAX_ENTRIES:
        return int(given)
    raise _Unknown("offset")


def _arange(args: list[Value]) -> np.ndarray:
    bounds = [a for a in args if isinstance(a, Fraction)]
    if len(bounds) != len(args):
        raise _Unknown("arange")
    start, stop, step = Fraction(0), bounds[0], Fraction(1)
    if len(bounds) >= 2:
        start, stop = bounds[0], bounds[1]
    if len(bounds) == 3:
        step = bounds[2]
    if step == 0 or (stop - start) / step > MAX_ENTRIES:
        raise _Unknown("arange size")
    values: list[Value] = []
    x = start
    while (x < stop) if step > 0 else (x > stop):
        values.append(x)
        x += step
    if not values:
        raise _Unknown("empty")
    return _vector(values)


def _triangle(name: str, value: np.ndarray, offset: int) -> np.ndarray:
    if value.ndim != 2:
        raise _Unknown("triangle of a vector")
    out = value.copy()
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            if (name == "tril" and j - i > offset) or (name == "triu" and j - i < offset):
                out[i, j] = Fraction(0)
    return out


_CONVERSIONS = frozenset({"float", "double", "astype", "to", "clone", "copy", "numpy", "type"})
_INTEGRAL = re.compile(r"\b(?:u?int\d*|long|short|bool|byte)\b", re.IGNORECASE)


def _converted(array: np.ndarray, node: ast.Call) -> np.ndarray:
    """``.float()``, ``.astype(np.float32)``, ``.to(device)``: the same entries; a conversion to
    an integer type keeps them only when they are whole numbers."""
    said = " ".join(ast.unparse(a) for a in [*node.args, *(k.value for k in node.keywords)])
    if _INTEGRAL.search(said) and any(x.denominator != 1 for x in array.flat if _finite(x)):
        raise _Unknown("integer conversion of fractions")
    return array


def _finite(x: Scalar) -> bool:
    return isinstance(x, Fraction)


def _method(name: str, array: np.ndarray, args: list[Value]) -> Value:
    """``.reshape(3, 6)``, ``.view(4, 3)``, ``.t()`` of a built array."""
    if name in ("reshape", "view"):
        shape = _shape(args)
        if int(np.prod(shape)) != array.size:
            raise _Unknown("reshape")
        return array.reshape(shape)
    if name == "t" and array.ndim == 2:
        return array.T
    raise _Unknown(name)
