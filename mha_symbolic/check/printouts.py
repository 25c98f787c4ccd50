"""What notebooks print: numpy and torch arrays, percentages, approximations, read as claims.

numpy prints ``[0.  0.5 0.5]`` and ``array([[0.73105858, 0.26894142], ...])``; torch prints
``tensor([[0.7311, 0.2689]], dtype=torch.float64, grad_fn=<SoftmaxBackward0>)``. Both print
every entry of an array to one precision (numpy pads ``0.`` with spaces, it does not mean
"no decimals"), so an array's entries share the finest precision any of them shows.
"""

from __future__ import annotations

import re
import struct
from decimal import Decimal
from typing import Any

from mha_symbolic.errors import SpecError

# A notebook's output prompt ("Out[3]:") pasted with the value.
_PROMPT = re.compile(r"^\s*Out\s*\[\s*\d*\s*\]\s*:\s*")
# The wrappers numpy and torch print around an array, with their keyword arguments after it.
_WRAPPER = re.compile(r"^(?:np\.|numpy\.|torch\.)?(array|tensor)\(\s*(.*)\)$", re.DOTALL)
_KEYWORD = re.compile(r"\s*\w+\s*=\s*(?:<[^<>]*>|'[^']*'|\"[^\"]*\"|[\w.]+)\s*")
# Entries of a print: only digits, signs, points, exponents, brackets, commas and spaces.
_PRINTED_ONLY = re.compile(r"[\[\]\s,0-9eE+.\-]+")
_ENTRY = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_TOKEN = re.compile(r"\[|\]|,|\s+|[^\[\],\s]+")
# "Approximately": a leading ~, ≈, \approx, \simeq or \sim (a value printed to its precision).
_APPROX = re.compile(r"^\s*(?:~|≈|\\approx\b|\\simeq\b|\\sim\b)\s*")
_MINUS = {"\u2212": "-", "\u2013": "-", "\ufe63": "-", "\uff0d": "-"}


def clean(text: str) -> str:
    """Unicode minus signs as '-', a notebook prompt dropped."""
    for char, ascii_minus in _MINUS.items():
        text = text.replace(char, ascii_minus)
    return _PROMPT.sub("", text)


def approximate(text: str) -> tuple[str, bool]:
    """``text`` without a leading approximation sign, and whether it had one."""
    match = _APPROX.match(text)
    return (text[match.end() :], True) if match else (text, False)


def unwrap(text: str, where: str) -> tuple[str, bool, str | None]:
    """``array(...)``/``tensor(...)`` -> (the bracketed value, True when it was a print,
    "float32" (float16, bfloat16) when its dtype keyword says so)."""
    text = text.strip()
    match = _WRAPPER.match(text)
    if not match:
        return text, _is_bare_print(text), None
    inner = match.group(2)
    end = _value_end(inner)
    rest, dtype = inner[end:].strip(), None
    if rest.startswith(","):
        rest = rest[1:]
        keywords = [k for k in _split_top(rest) if k.strip()]
        bad = [k.strip() for k in keywords if not _KEYWORD.fullmatch(k)]
        if bad:
            raise SpecError(f"{where}: cannot read {bad[0]!r} in the printed {match.group(1)}")
        types = [k.split("=", 1)[1].strip() for k in keywords if k.strip().startswith("dtype")]
        dtype = next((name for name in _KEPT_DIGITS if types and types[0].endswith(name)), None)
    elif rest:
        raise SpecError(f"{where}: cannot read {rest!r} after the printed {match.group(1)}")
    return inner[:end].strip(), True, dtype


def _value_end(inner: str) -> int:
    """End of the value in ``array(VALUE, dtype=...)``: the first top-level comma."""
    depth = 0
    for index, char in enumerate(inner):
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            return index
    return len(inner)


def _split_top(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += (char in "([{<") - (char in ")]}>")
        if char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts


def numbers_only(text: str) -> bool:
    """Brackets, numbers, commas and spaces only: a list that can be read as a print."""
    return text.startswith("[") and bool(_PRINTED_ONLY.fullmatch(text))


def _is_bare_print(text: str) -> bool:
    """numpy's str() of an array: brackets and numbers with entries separated by spaces."""
    if not text.startswith("[") or not _PRINTED_ONLY.fullmatch(text):
        return False
    return "," not in text or bool(re.search(r"\d\s+[-+\d.]", text))


def nested(text: str, where: str) -> list[Any]:
    """A printed matrix as nested lists of entry texts, leading length-1 axes dropped."""
    value = tree(text, where)
    rows = value if isinstance(value, list) else []
    if any(isinstance(e, list) for row in rows if isinstance(row, list) for e in row):
        raise SpecError(
            f"{where}: a printed array of shape {_shape(value)}; claim one matrix per key "
            "(one head, one batch element), or a (heads, L, L) print under a key without "
            "its head ('weights')"
        )
    return value


def depth(value: Any) -> int:
    return 1 + depth(value[0]) if isinstance(value, list) and value else 0


def entries(value: Any) -> list[str]:
    """Every entry text of a nested print."""
    return [e for item in value for e in entries(item)] if isinstance(value, list) else [value]


def tree(text: str, where: str) -> Any:
    """A printed array of any depth as nested lists, leading length-1 axes dropped."""
    stack: list[list[Any]] = [[]]
    for token in _TOKEN.findall(text):
        if token == "[":
            stack.append([])
        elif token == "]":
            if len(stack) == 1:
                raise SpecError(f"{where}: unbalanced ']' in the printed array")
            done = stack.pop()
            stack[-1].append(done)
        elif token == "," or token.isspace():
            continue
        elif _ENTRY.fullmatch(token):
            stack[-1].append(token)
        else:
            raise SpecError(f"{where}: cannot read {token!r} in the printed array")
    if len(stack) != 1 or len(stack[0]) != 1:
        raise SpecError(f"{where}: the printed array is not one balanced [...]")
    value: Any = stack[0][0]
    while isinstance(value, list) and len(value) == 1 and isinstance(value[0], list):
        value = value[0]  # a batch or head axis of length one: (1, L, L) is (L, L)
    return value


def _shape(value: Any) -> tuple[int, ...]:
    shape = []
    while isinstance(value, list):
        shape.append(len(value))
        value = value[0] if value else None
    return tuple(shape)


def shared_exponent(entries: list[str]) -> int:
    """The unit (as a power of ten, of the mantissa) that every entry of a print shares."""
    return -max(_mantissa_decimals(entry) for entry in entries)


def _mantissa_decimals(entry: str) -> int:
    mantissa = re.split(r"[eE]", entry)[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else 0


def entry_exponent(entry: str, decimals: int) -> int | None:
    """The exponent of one printed entry when its array shows ``decimals`` mantissa digits;
    None for an entry without a point (an integer print: exact)."""
    parts = re.split(r"[eE]", entry)
    if "." not in parts[0]:
        return None
    return (int(parts[1]) if len(parts) > 1 else 0) - decimals


def percentage(text: str) -> str | None:
    """The number of ``22.91\\%`` (or ``22.91%``), or None when it is not a percentage."""
    match = re.fullmatch(r"(.+?)\s*\\?%", text.strip())
    return match.group(1).strip() if match else None


# ------------------------------------------------------------------ single-precision values
# Decimal digits a binary format keeps for sure (C's FLT_DIG): a float32 value claims no more.
_KEPT_DIGITS = {"float32": 6, "float16": 3, "bfloat16": 2}
_FORMATS = {"float32": "f", "float16": "e"}


def low_precision(value: Any) -> str | None:
    """ "float32" (float16, bfloat16) for numpy and torch values of that type, else None."""
    dtype = str(getattr(value, "dtype", ""))
    for name in ("bfloat16", "float16", "float32"):
        if dtype.endswith(name):
            return name
    return None


def shortest(number: float, dtype: str) -> str:
    """The shortest decimal that reads back as ``number`` in ``dtype`` (what was typed)."""
    code = _FORMATS.get(dtype)
    for digits in range(1, 18):
        text = f"{number:.{digits}g}"
        if code is None:
            if abs(float(text) - number) <= abs(number) * 2.0**-8:
                return text
        elif struct.unpack(code, struct.pack(code, float(text)))[0] == number:
            return text
    return repr(number)


def kept_exponent(text: str, dtype: str) -> int:
    """The power of ten of the last digit ``dtype`` keeps for the number printed ``text``."""
    leading = Decimal(text).adjusted()  # the power of ten of the first significant digit
    return leading - _KEPT_DIGITS[dtype] + 1
