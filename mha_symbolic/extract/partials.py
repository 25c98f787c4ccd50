"""Printed partial results claimed on steps of their own: a page that works the softmax by hand
prints e^{s} of its scores (``head1.exp[i,j]``), their sum (``head1.sums[i]``) and each division
(``head1.weights[i,j]``); a page that works A V by hand prints a_ij v_j (``head1.weighted[i,j]``).
Which row and column each is comes from its numbers and from the score row printed above it."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import sympy as sp

from mha_symbolic.exact.derivation import Derivation
from mha_symbolic.extract.draft import Draft, Value, rows_text
from mha_symbolic.extract.formats import Document
from mha_symbolic.extract.reading import Seen
from mha_symbolic.extract.weighted_batches import weighted_batches

_NUMBER = r"-?\d+(?:\.\d+)?"
_IS = r"\s*(?:\\approx|\\simeq|≈|=)\s*"
_EXP = re.compile(r"(?:e\^\{?|\\exp\s*\(|\bexp\s*\()\s*(" + _NUMBER + r")\s*[})]?" + _IS)
_SUM = re.compile(r"(?<![\d.^{/])(" + _NUMBER + r"(?:\s*\+\s*" + _NUMBER + r")+)" + _IS)
_DIVISION = re.compile(
    r"(?:\\frac\s*\{\s*(" + _NUMBER + r")\s*\}\s*\{\s*(" + _NUMBER + r")\s*\}"
    r"|(?<![\d.])(" + _NUMBER + r")\s*/\s*(" + _NUMBER + r"))" + _IS
)
_AFTER = re.compile(_NUMBER + r"(?![\d.])")
_WORD = r"(?:[^\W\d]+\s*[:=]\s*)"  # "Value: ", "value="
_TERM = re.compile(
    r"(" + _NUMBER + r")\s*(?:(?:\*|×|·|\\times|\\cdot)\s*" + _WORD + r"?|\s+" + _WORD + r")"
    r"\[([^\]]*)\]\s*(?:=|\s" + _WORD + r")\s*$"
)  # "0.5 * [2, 8, 0] = ", "0.15 × Value: [0.8 0.2] = ", "w=0.32  value=[10. 0.]  share="
_ROW_CLAIM = re.compile(r"head(\d+)\.(scaled|scores)\[(\d+)\]$")
_SHARE = 0.01  # a hand-worked e^s or sum from scores rounded to 2 digits is within 1 %


@dataclass
class _Row:
    """The score row a hand-worked softmax is about, and what the page printed for it."""

    head: int
    row: int
    logits: list[float]
    exps: dict[int, float] = field(default_factory=dict)  # column (1-based) -> printed e^s
    total: float | None = None


def place_partials(
    draft: Draft, document: Document, seen: Sequence[Seen], derive: Callable[[], Derivation]
) -> None:
    """Claim the softmax's printed pieces and the printed a_ij v_j of this example's lines
    (``derive`` gives the example's derivation, made only when there is something to place)."""
    if not seen:
        return
    _rows_of_claimed(draft, seen)
    lines = [s.item.line for s in seen]
    span = (min(lines), max(lines))
    texts = [document.lines[n].text for n in range(span[0], span[1] + 1)]
    pieces = any(_EXP.search(t) for t in texts)
    terms = any(s.role == "operand" or _TERM.search(s.item.statement) for s in seen)
    batches = any(len(s.item.batch_shape) == 1 for s in seen)
    _printed_parts(draft, seen)
    if not (pieces or terms or batches):
        return
    values = {s.key: s.value for s in derive().steps}
    if pieces:
        _softmax_pieces(draft, document, seen, values, span)
    if terms:
        _weighted_rows(draft, seen, values)
        _written_terms(draft, seen, values)
    if batches:
        weighted_batches(draft, seen, values)


_PARTS = {  # role -> its step
    "exp": "exp",
    "exp_sums": "sums",
    "weight_sums": "weight_sums",
    "kept_sums": "kept_sums",
}


def _printed_parts(draft: Draft, seen: Sequence[Seen]) -> None:
    """The numerators e^s and their row sums the numbers found printed whole (a matrix, a
    column): claimed on the softmax's own parts."""
    for s in seen:
        if s.role in _PARTS and not s.item.batch_shape:
            step = f"head{s.head or 1}.{_PARTS[s.role]}"
            _claim(draft, step, rows_text(s.item.rows), s.where)


def _softmax_pieces(
    draft: Draft,
    document: Document,
    seen: Sequence[Seen],
    values: Mapping[str, sp.MatrixBase],
    span: tuple[int, int],
) -> None:
    starts = _row_starts(draft, seen, values)
    current: _Row | None = None
    for number in range(span[0], span[1] + 1):
        if number in starts:
            current = starts[number]
        if current is None:
            continue
        text = document.lines[number].text
        found = [(m.start(), kind, m) for kind, rx in _KINDS for m in rx.finditer(text)]
        for _, kind, match in sorted(found, key=lambda f: f[0]):
            said = _AFTER.match(text, match.end())
            if said is not None:
                _READERS[kind](draft, current, match, said.group(), document.lines[number].where)


def _row_starts(
    draft: Draft, seen: Sequence[Seen], values: Mapping[str, sp.MatrixBase]
) -> dict[int, _Row]:
    """The line of each score row claimed on its own (0-based) -> that row."""
    line_of = {s.where: s.item.line for s in seen}
    out: dict[int, _Row] = {}
    for claim in draft.claims:
        found = _ROW_CLAIM.match(claim.key)
        where = str(claim.where[0]) if claim.where else ""
        line = next((n for w, n in line_of.items() if where.startswith(w)), None)
        if found is None or line is None:
            continue
        head, row = int(found.group(1)), int(found.group(3))
        logits = _logits(values, head)
        if logits is None or any(not e.is_finite for e in logits.row(row - 1)):
            continue
        out[line] = _Row(head, row, [float(e) for e in logits.row(row - 1)])
    return out


def _logits(values: Mapping[str, sp.MatrixBase], head: int) -> sp.MatrixBase | None:
    """What the head's softmax takes (a mask aside): its scores after the scale and a bias,
    whichever of them the scores row printed stands for (e^10 on a page that scales 10 to 5
    is the unscaled scores' numerator, not this softmax's)."""
    for step in ("bias", "scaled", "scores"):
        if f"head{head}.{step}" in values:
            return values[f"head{head}.{step}"]
    return None


def _exp(draft: Draft, row: _Row, match: re.Match[str], said: str, where: str) -> None:
    """``e^{0.71} ≈ 2.034``: the first column of the row whose score the exponent prints."""
    exponent = match.group(1)
    for col, logit in enumerate(row.logits, start=1):
        if col not in row.exps and _within(exponent, logit):
            row.exps[col] = float(said)
            _claim(draft, f"head{row.head}.exp[{row.row},{col}]", said, where)
            return


def _sum(draft: Draft, row: _Row, match: re.Match[str], said: str, where: str) -> None:
    """``2.034 + 1 + 2.034 ≈ 5.068``: the row's e^s, one per score, added."""
    terms = sorted(float(t) for t in match.group(1).split("+"))
    exact = sorted(sp.exp(sp.Float(s)) for s in row.logits)
    if len(terms) == len(exact) and all(_near(t, float(e)) for t, e in zip(terms, exact)):
        row.total = float(said)
        if not _rounded_sum(match.group(1), said, exact):
            _claim(draft, f"head{row.head}.sums[{row.row}]", said, where)


def _rounded_sum(terms: str, said: str, exact: list[sp.Expr]) -> bool:
    """``1.284 + 2.718 + 1.051 = 5.053`` (5.0536 exactly): each term e^s rounded right and the
    value their sum, off the exact one only by their rounding: right arithmetic (the page's
    arithmetic check reads it), no slip of the softmax's denominator to claim."""
    printed = sorted((t.strip() for t in terms.split("+")), key=float)
    right = all(_within(t, float(e), half=True) for t, e in zip(printed, exact, strict=True))
    total = sum(float(t) for t in printed)
    return right and _within(said, total, half=True) and not _within(said, float(sum(exact)), True)


def _division(draft: Draft, row: _Row, match: re.Match[str], said: str, where: str) -> None:
    """``2.034 / 5.068 ≈ 0.401``: an e^s of the row over its sum, the weight of that column."""
    top, bottom = match.group(1) or match.group(3), match.group(2) or match.group(4)
    if row.total is None or not _near(float(bottom), row.total):
        return
    for col, logit in enumerate(row.logits, start=1):
        if _near(float(top), float(sp.exp(sp.Float(logit)))):
            key = f"head{row.head}.weights[{row.row},{col}]"
            if not any(c.key == key for c in draft.claims):
                _claim(draft, key, said, where)
                return


_KINDS = (("exp", _EXP), ("sum", _SUM), ("division", _DIVISION))
_READERS: dict[str, Callable[[Draft, _Row, re.Match[str], str, str], None]] = {
    "exp": _exp,
    "sum": _sum,
    "division": _division,
}


def _weighted_rows(draft: Draft, seen: Sequence[Seen], values: Mapping[str, sp.MatrixBase]) -> None:
    """A printed row a weight times a value row makes (``0.40 × [0,2] = [0, 0.80]``): the term
    a_ij v_j of query i's weighted sum, the query that of the output row printed next."""
    for index, s in enumerate(seen):
        if s.role != "operand" or len(s.item.rows) != 1 or not _decimal(s.item.rows[0]):
            continue
        printed = s.item.rows[0]
        query = _next_output(seen[index + 1 :], values)
        terms = [t for t in _terms(values, len(printed)) if _mostly_rounded(printed, t[3])]
        terms.sort(key=lambda t: (t[0], t[1]) != query)
        for head, i, j, _ in terms:
            key = f"head{head}.weighted[{i},{j}]"
            if not any(c.key == key for c in draft.claims):
                _claim(draft, key, rows_text((printed,)), s.where)
                break


def _terms(
    values: Mapping[str, sp.MatrixBase], width: int
) -> list[tuple[int, int, int, list[sp.Expr]]]:
    """Every a_ij v_j (head, query i, key j, the row) of values ``width`` wide."""
    out = []
    head = 1
    while f"head{head}.weights" in values:
        weights, v = values[f"head{head}.weights"], values.get(f"head{head}.v")
        if v is not None and v.cols == width and v.rows == weights.cols:
            for i in range(weights.rows):
                for j in range(weights.cols):
                    if weights[i, j] != 1:  # 1 times v_j is v_j: a reprint says no weight
                        out.append((head, i + 1, j + 1, list(weights[i, j] * v.row(j))))
        head += 1
    return out


def _next_output(after: Sequence[Seen], values: Mapping[str, sp.MatrixBase]) -> tuple[int, int]:
    """(head, query) of the output row printed after a run of terms, or (0, 0)."""
    for s in after:
        if s.role == "operand":
            continue
        if s.role not in ("head.output", "output") or len(s.item.rows) != 1:
            break
        head = 1
        while f"head{head}.output" in values:
            output = values[f"head{head}.output"]
            for i in range(output.rows):
                if output.cols == len(s.item.rows[0]) and _agrees(s.item.rows[0], output.row(i)):
                    return (head, i + 1)
            head += 1
        break
    return (0, 0)


def _claim(draft: Draft, key: str, value: str, where: str) -> None:
    if any(c.key == key for c in (*draft.claims, *draft.assumed)):
        return
    draft.claims.append(Value(key, value, f"{where}: {value}", where=(where,)))


def _decimal(row: Sequence[str]) -> bool:
    return any("." in e for e in row)


def _fraction(row: Sequence[str]) -> bool:
    """A number that is not whole among them: whole numbers ([0.0, 1.0, 1.0]) repeat by
    chance as rows of scores or of one-hot inputs and say nothing of which row they are."""
    try:
        return any(not float(e.replace("−", "-")).is_integer() for e in row)
    except ValueError:
        return False


def _agrees(printed: Sequence[str], exact: Sequence[sp.Expr]) -> bool:
    try:
        return all(_within(p, float(e)) for p, e in zip(printed, exact, strict=True))
    except (TypeError, ValueError):
        return False


def _mostly_rounded(printed: Sequence[str], exact: Sequence[sp.Expr]) -> bool:
    """Every entry within a unit of its last digit and most of them its rounding: a row with
    one slip is still this row, [0.5, 0.3, 0.9] is not [0.6, 0.4, 0.9]."""
    if not _agrees(printed, exact):
        return False
    rounded = sum(_within(p, float(e), half=True) for p, e in zip(printed, exact, strict=True))
    return 2 * rounded > len(printed)


def _within(printed: str, exact: float, half: bool = False) -> bool:
    """Whether a printed number is the exact one to within one unit of its last digit."""
    text = printed.replace("−", "-")
    decimals = len(text.partition(".")[2])
    unit = (10.0**-decimals if decimals else 1e-9) * (0.5 if half else 1.0)
    return abs(float(text) - exact) <= unit + 1e-12


def _times(product: str, factor: str, value: str) -> bool:
    """Whether a printed product is the printed factor times the value, allowing for the
    factor's rounding (0.1503 x 0.8 printed 0.1202495, from the weight's unrounded digits)."""
    decimals = len(factor.replace("−", "-").partition(".")[2])
    slack = 0.5 * 10.0**-decimals * abs(float(value)) if decimals else 0.0
    try:
        exact = float(factor) * float(value)
        return _within(product, exact) or abs(float(product.replace("−", "-")) - exact) <= slack
    except ValueError:
        return False


def _near(printed: float, exact: float) -> bool:
    return abs(printed - exact) <= _SHARE * max(abs(exact), 1e-12)


def _written_terms(draft: Draft, seen: Sequence[Seen], values: Mapping[str, sp.MatrixBase]) -> None:
    """``0.5 * [2, 8, 0] = [1.0, 4.0, 0.0]``, one line per key: the printed weight times value
    row j, whatever the weight's digits (a stand-in weight's product is judged against the
    true a_ij v_j). The query is the one whose weights fit the printed ones of every term of
    the run of lines; none when several do."""
    runs: list[list[tuple[Seen, int, str]]] = []
    for s in seen:
        found = _TERM.search(s.item.statement)
        term = _term(s, found, values) if found is not None else None
        if term is None:
            continue
        if runs and runs[-1][-1][0].item.line >= s.item.line - 1:
            runs[-1].append((s, *term))
        else:
            runs.append([(s, *term)])
    for run in runs:
        weights = values["head1.weights"]
        queries = set(range(1, weights.rows + 1))
        for _, j, factor in run:
            queries &= {i for i in queries if _within(factor, float(weights[i - 1, j - 1]))}
        if len(queries) == 1:
            (i,) = queries
            for s, j, _ in run:
                _claim(draft, f"head1.weighted[{i},{j}]", rows_text(s.item.rows), s.where)


def _term(
    s: Seen, found: re.Match[str], values: Mapping[str, sp.MatrixBase]
) -> tuple[int, str] | None:
    """(key j, the printed weight) of a row printed as weight times value row j; one head."""
    v, weights = values.get("head1.v"), values.get("head1.weights")
    if v is None or weights is None or "head2.weights" in values or len(s.item.rows) != 1:
        return None
    factor, printed = found.group(1), re.findall(_NUMBER, found.group(2))
    result = s.item.rows[0]
    if len(printed) != v.cols or len(result) != v.cols or v.rows != weights.cols:
        return None
    if not all(_times(p, factor, e) for p, e in zip(result, printed, strict=True)):
        return None
    rows = [j for j in range(1, v.rows + 1) if _agrees(printed, list(v.row(j - 1)))]
    return (rows[0], factor) if len(rows) == 1 else None


_INNER = re.compile(r"\[([^\[\]]*)\]")


def _rows_of_claimed(draft: Draft, seen: Sequence[Seen]) -> None:
    """A vector printed without its token whose numbers are, digit for digit, one row of a
    matrix the example claims (a token's weights shown again, wrong digits and all): that row
    of that step, judged there as the matrix is."""
    placed = {c.where for c in (*draft.claims, *draft.assumed)}
    matrices = [c for c in draft.claims if "[" not in c.key and str(c.value).startswith("[[")]
    for s in seen:
        row = s.item.rows[0] if len(s.item.rows) == 1 else ()
        if s.row is not None or s.col is not None or (s.where,) in placed or not _fraction(row):
            continue
        found = [
            f"{claim.key}[{n}]"
            for claim in matrices
            for n, printed in enumerate(_INNER.findall(str(claim.value)), start=1)
            if [e.strip() for e in printed.split(",")] == list(row)
        ]
        if len(found) == 1:
            _claim(draft, found[0], rows_text((row,)), s.where)
