"""Names a value does or does not get from the code around it: a value passed to a function
(``attention(np.array([[...]]), ...)``) is whichever argument its numbers say; a name whose
"=" another value follows first (``V = [[1, 2]] | [[0.6, 1.3]]``, a table's next cell) is not
this value's; a print in Rust, JavaScript or tf.js names what it prints below it; a summarised
print keeps only the name of V or of an output; the integers of ``x.permute(1, 0, 2)`` are axes,
no value named by ``q = x.permute(...)``."""

from __future__ import annotations

import re

# A print in Rust, JavaScript or tf.js: println!("{:.4}", weights); console.log(out);
# scores.print(); println!("{weights}") (group 1 is a label, the first other group the name).
LIBRARY_PRINT = re.compile(
    r"^(?:(?:console\.log|println!|print!|dbg!)\(\s*(?:[\"'](?:([^\"'{}]*?)\s*:?\s*)?"
    r"(?:\{(\w*)[^}]*\})?[\"']\s*,?\s*)?&?([A-Za-z_]\w*)?[^()]*\)|([A-Za-z_]\w*)\.print\(\))\s*;?$"
)
# Functions that only make an array of the numbers they are given (np.array, torch.tensor,
# torch.Tensor, torch.FloatTensor, tf.constant, jnp.asarray, ...): not a computation's argument.
_MAKER = (
    r"(?:(?:np|numpy|torch|tf|jnp|cp|mx\.nd|nd)\.)?(?:array|tensor|Tensor|\w*FloatTensor|"
    r"DoubleTensor|HalfTensor|as_tensor|asarray|constant|matrix|convert_to_tensor|arr[12]|"
    r"Tensor::(?:new|from_vec|from_slice))\(&?"
)
# A value passed to a function (not such a maker, nor print or softmax): which argument it
# is, its numbers say.
_ARGUMENT = re.compile(
    rf"(?<![\w.:])(?!{_MAKER}|[\w.]*(?:softmax|print|log|display|dbg)\w*!?\()"
    r"[A-Za-z_][\w.]*\((?:[^()]|\([^()]*\))*$"
)
# Calls whose integer arguments are axes or sizes: h.permute(1, 0, 2), w.transpose(0, 1),
# x.view(1, 4, 2), torch.ones(3, 3).
_DIMENSION_CALL = re.compile(
    r"(?:\.(?:permute|transpose|view|reshape|unsqueeze|squeeze|repeat|expand|flatten|swapaxes"
    r"|swapdims|movedim|tile|size|split|chunk)|(?<![\w.])(?:torch|np|numpy|jnp|tf)\.(?:ones"
    r"|zeros|empty|rand|randn|randint|eye|full|arange))\s*$"
)
# An axis or a size: ``.reshape(1, -1)`` and ``.transpose(-2, -1)`` count from the end.
_AXIS = re.compile(r"-?\d+")
_WRAPPER_END = re.compile(rf"(?:(?<![\w.:]){_MAKER}\s*)+$")
# Between the name's "=" and the value: another value's end and a cell or list separator
# ("V = [[1, 2]] | [[0.6, 1.3]]"), or a new line that calls a function of it
# ("Input:\nattention(np.array([[...]]), ...)"): the name is not this value's.
_OTHER_VALUE = re.compile(r"[\])]\s*[|,]\s*$")
_CALL_LINE = re.compile(rf"\n\s*(?!(?:{_MAKER}\s*)+$)\S")


def not_its_name(tail: str) -> bool:
    """Whether the text between a name's relation and the value says the name is another's."""
    return bool(_OTHER_VALUE.search(tail) or _CALL_LINE.search(tail))


def argument(line: str) -> bool:
    """Whether a value stands among a function's arguments (not np.array's, print's or
    softmax's) on its line."""
    return bool(_ARGUMENT.search(_WRAPPER_END.sub("", line)))


def summarised_role(columns_at: tuple[int, ...], role: str) -> bool:
    """Whether a value may keep the role its name gives: a summarised print (its middle
    columns left out) is only ever V or an output A V, never an input of a product."""
    return not columns_at or role in ("v", "head.output", "output", "unnamed")


def dimension_arguments(statement: str, kind: str, rows: tuple[tuple[str, ...], ...]) -> bool:
    """Whether a tuple of integers is the axes or sizes a call takes (``.permute(1, 0, 2)``),
    not a value: the name its statement gives is the call's result's."""
    integers = all(_AXIS.fullmatch(entry) for row in rows for entry in row)
    return kind == "tuple" and integers and bool(_DIMENSION_CALL.search(statement))
