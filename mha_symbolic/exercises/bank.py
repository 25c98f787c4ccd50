"""Exercise banks: randomized variants of a spec with nice numbers, student sheets, answer keys."""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from itertools import pairwise
from typing import Any

import jinja2
import sympy as sp

from mha_symbolic.errors import SpecError
from mha_symbolic.exact.derivation import Derivation, Step
from mha_symbolic.exact.evaluate import derive
from mha_symbolic.exercises.toml import to_toml
from mha_symbolic.solution import latex
from mha_symbolic.solution.blocks import build
from mha_symbolic.solution.render import environment, full_size_fractions, variables
from mha_symbolic.solution.view import Block, Given, Options, Solution, StepBlock
from mha_symbolic.spec import exact_numbers as exact
from mha_symbolic.spec.attention import AttentionSpec
from mha_symbolic.spec.catalogue import example_names
from mha_symbolic.spec.input_files import parse_toml, read_text
from mha_symbolic.text import decimal_text

if sys.version_info >= (3, 11):
    pass
else:  # pragma: no cover - Python 3.10
    pass

FORMATS = ("md", "tex", "pdf")
MAX_COUNT = 100_000
# The niceness rule. Entries the example writes as 0 stay 0 (its sparsity pattern is part of
# its structure, and is what keeps products short); every other entry is drawn from INTEGERS,
# or from HALVES when the example's matrix has a non-integer entry; after WIDE_DRAWS rejected
# draws (larger examples, whose sums of products grow fast), from UNITS. A draw is kept when, over
# every step's entries without symbols: no entry is wider than the example's widest or
# MIN_WIDTH, whichever is more, and never wider than MAX_WIDTH (latex.width, the renderer's
# measure: wider entries are written by name); no row of logits spans more than MAX_SPAN
# (largest minus smallest unmasked logit, so softmax needs at most e^MAX_SPAN); and, when some
# row has two or more unmasked keys, some such row has two different logits (else every
# weight is a uniform 1/L). Otherwise it is drawn again, at most MAX_DRAWS times.
INTEGERS: tuple[Fraction, ...] = tuple(Fraction(n) for n in (-1, 1, 2))
HALVES: tuple[Fraction, ...] = tuple(Fraction(n, 2) for n in (-2, -1, 1, 2))
UNITS: tuple[Fraction, ...] = (Fraction(-1), Fraction(1))
WIDE_DRAWS = 10
MIN_WIDTH = 8.0
MAX_WIDTH = latex.Settings().max_width
MAX_SPAN = 4
MAX_DRAWS = 200
DEFAULT_ASKED = ("scores", "weights", "output")  # per head, then the final output
# Each blank cell of a student sheet: a line to write on, in Markdown maths and in LaTeX.
# Each blank cell of a sheet: tall enough for a fraction written by hand, and as wide as the
# step's widest exact entry needs (an integer: 3em; e^{2}/(1 + e^{2}): about 6em).
BLANK = r"\rule{0pt}{2.4em}\underline{\hspace{6em}}"  # the width when the answer is unknown


def blank_width(step: Step) -> float:
    """How many em one blank of ``step``'s matrix takes: its widest exact entry's, and more,
    as handwriting is wider than print."""
    widest = max((latex.width(entry) for entry in step.value), default=1.0)
    return min(12.0, max(3.0, round(1.5 + 1.2 * widest, 1)))


def blank_cell(step: Step) -> str:
    """One blank of ``step``'s matrix, sized to its widest exact entry."""
    return rf"\rule{{0pt}}{{2.4em}}\underline{{\hspace{{{blank_width(step):g}em}}}}"


_INPUTS = ("x", "query", "key", "value")
# An answer key's decimals for the checker, out of the reader's sight: an HTML comment
# (md) or a LaTeX comment (tex), ``check: key = [[...]]``.
_PRINTED = re.compile(
    r"^(?:<!-- |% )check: (?P<key>[A-Za-z0-9_.]+) = (?P<value>\[[^\n]*?\])(?: -->)?$", re.M
)


@dataclass(frozen=True)
class ExerciseOptions:
    """How each variant is written (picklable: it travels to worker processes)."""

    fmt: str = "md"  # md, or tex (also for pdf: the combined PDF is compiled from tex)
    lang: str = "en"
    decimals: int = 2
    templates: str | None = None
    font: str | None = None  # tex in Bengali: the XeLaTeX font
    verify: bool = False  # check every answer key's printed decimals against its derivation

    def __post_init__(self) -> None:
        if self.fmt not in ("md", "tex"):
            raise SpecError(f"unknown variant format {self.fmt!r}; choose md or tex")

    @property
    def render(self) -> Options:
        return Options(decimals=self.decimals, lang=self.lang, templates=self.templates)


@dataclass(frozen=True)
class Niceness:
    """What the niceness rule measures on one derivation."""

    widest: float  # latex.width of the widest entry without symbols
    span: float  # widest row of unmasked logits (largest minus smallest)
    varied: bool  # some row with two or more unmasked keys has two different logits

    def nice(self, width_limit: float) -> bool:
        return self.widest <= width_limit and self.span <= MAX_SPAN and self.varied


# ------------------------------------------------------------------ reading specs
def load(path: str | None = None, example: str | None = None) -> dict[str, Any]:
    """The raw table of a spec file or a built-in example, validated by building its spec."""
    if example is not None:
        if example not in example_names():
            AttentionSpec.example(example)  # raises the usual unknown-example message
        folder = resources.files("mha_symbolic").joinpath("examples")
        text = folder.joinpath(f"{example}.toml").read_text(encoding="utf-8")
        source = f"example {example}"
    else:
        assert path is not None
        text, source = read_text(path, path), path
    raw = parse_toml(text, source)
    AttentionSpec.from_dict(raw, source=source)
    return raw


# ------------------------------------------------------------------ drawing numbers
def stream(seed: int, index: int) -> random.Random:
    """Variant ``index``'s random numbers: they depend on (seed, index) only."""
    digest = hashlib.sha256(f"mha-symbolic exercises {seed} {index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (int, Decimal, Fraction, float)) or (
        isinstance(value, str) and "\\begin" not in value and value != "symbolic"
    )


def _grid(value: Any, where: str) -> list[list[sp.Expr]] | None:
    """The entries of a matrix (rows of numbers, or LaTeX), a vector as one row; else None."""
    if isinstance(value, str) and "\\begin" in value:
        matrix = exact.to_matrix(value, where)
        return [list(matrix.row(i)) for i in range(matrix.rows)]
    if not isinstance(value, list) or not value:
        return None
    if all(_is_scalar(entry) for entry in value):
        return [[exact.to_number(entry, where) for entry in value]]
    if all(isinstance(row, list) and row and all(_is_scalar(e) for e in row) for row in value):
        return [[exact.to_number(entry, where) for entry in row] for row in value]
    return None


def _plain(number: Fraction) -> int | str:
    return number.numerator if number.denominator == 1 else str(number)


def _redraw(value: Any, rng: random.Random, wide: bool, where: str) -> Any:
    """``value`` with every nonzero number drawn again (nested lists of matrices kept)."""
    if value == "symbolic":
        return value
    grid = _grid(value, where)
    if grid is None:
        return [_redraw(part, rng, wide, f"{where}[{i}]") for i, part in enumerate(value, start=1)]
    whole = all(entry.is_Integer for row in grid for entry in row)
    pool = (INTEGERS if wide else UNITS) if whole else HALVES
    rows = [[_plain(rng.choice(pool)) if entry != 0 else 0 for entry in row] for row in grid]
    flat = isinstance(value, list) and all(_is_scalar(entry) for entry in value)
    return rows[0] if flat else rows


# What a document said of its own numbers: a variant's new numbers have no document.
_THE_DOCUMENTS = ("description", "claims", "assumed", "printed_transposed", "printed_shapes")


def draw(raw: Mapping[str, Any], rng: random.Random, wide: bool = True) -> dict[str, Any]:
    """One variant of the spec table ``raw``: same structure, new numbers, no claims."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key in _THE_DOCUMENTS:
            continue
        if key == "translations":  # the titles still fit; a description speaks of old numbers
            titles = {lang: {"title": t["title"]} for lang, t in value.items() if "title" in t}
            if titles:
                out[key] = titles
            continue
        if key in _INPUTS:
            out[key] = _redraw(value, rng, wide, key)
        elif key == "weights":
            out[key] = {name: _redraw(v, rng, wide, f"weights.{name}") for name, v in value.items()}
        else:
            out[key] = _portable(value)
    return out


def _portable(value: Any) -> Any:
    """TOML/JSON-ready: decimals written as text, so they read back exactly."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, list):
        return [_portable(v) for v in value]
    if isinstance(value, dict):
        return {k: _portable(v) for k, v in value.items()}
    return value


# ------------------------------------------------------------------ niceness
def _logits(d: Derivation) -> Iterator[Step]:
    """Each head's last step before its softmax (scaled, or masked when there is a mask)."""
    for before, step in pairwise(d.steps):
        if d.facts.is_a(step.kind, "weights"):
            yield before


def niceness(d: Derivation) -> Niceness:
    widest = max(
        (
            latex.width(entry)
            for step in d.steps
            for entry in step.value
            if not entry.free_symbols and entry != -sp.oo
        ),
        default=0.0,
    )
    span, rows, varied = 0.0, 0, False
    for step in _logits(d):
        for i in range(step.value.rows):
            row = [e for e in step.value.row(i) if e != -sp.oo]
            if len(row) < 2 or any(e.free_symbols for e in row):
                continue
            values = [float(e) for e in row]
            span = max(span, max(values) - min(values))
            rows += 1
            varied = varied or len(set(row)) > 1
    return Niceness(widest, span, varied or rows == 0)


def width_limit(example: Derivation) -> float:
    """The widest entry a variant of ``example`` may have."""
    return min(MAX_WIDTH, max(MIN_WIDTH, niceness(example).widest))


def nice_variant(raw: Mapping[str, Any], seed: int, index: int) -> tuple[dict, Derivation, int]:
    """(spec table, derivation, draws) of variant ``index``: the first nice draw."""
    limit = _width_limit(json.dumps(_portable(raw), sort_keys=True))
    rng = stream(seed, index)
    source = f"variant {index}"
    for draws in range(1, MAX_DRAWS + 1):
        table = draw(raw, rng, wide=draws <= WIDE_DRAWS)
        d = derive(AttentionSpec.from_dict(table, source=source))
        if niceness(d).nice(limit):
            return table, d, draws
    raise SpecError(
        f"no nice variant in {MAX_DRAWS} draws (seed {seed}, variant {index}); "
        "the example's numbers give long exact forms"
    )


@lru_cache(maxsize=8)
def _width_limit(raw_json: str) -> float:
    """Per process, the example is derived once (its table travels as JSON text)."""
    return width_limit(derive(AttentionSpec.from_dict(json.loads(raw_json))))


# ------------------------------------------------------------------ questions
def asked(raw: Mapping[str, Any], d: Derivation) -> list[Step]:
    """The steps a sheet asks for: those the document prints, claimed or assumed (inputs are
    given), in pipeline order; without such numbers, each head's scores, weights and output,
    and the output."""
    printed = [*raw.get("claims", {}), *raw.get("assumed", {})]
    keys = {str(key).split("[", 1)[0] for key in printed}
    # A stage asked of one head is asked of every head: even scaffolding (Q_1 beside Q_2).
    stages = {key.split(".", 1)[1] for key in keys if key.startswith("head") and "." in key}
    keys |= {f"head{h}.{stage}" for h in range(1, d.spec.heads + 1) for stage in stages}
    chosen = [s for s in d.steps if s.key in keys and s.kind != "input"]
    if chosen:
        return chosen
    default = {f"head{h}.{k}" for h in range(1, d.spec.heads + 1) for k in DEFAULT_ASKED}
    return [s for s in d.steps if s.key in default | {"output"}]


# Variants share many entries (e/(1+e), 1/2, ...): each is rounded once per process.
_decimal = lru_cache(maxsize=65536)(decimal_text)


def decimals_text(matrix: sp.MatrixBase, places: int) -> str | None:
    """``[[0.73, 0.27], [0.27, 0.73]]``: a claim as the checker reads it; None with symbols."""
    rows = []
    for i in range(matrix.rows):
        cells = [_decimal(matrix[i, j], places) for j in range(matrix.cols)]
        if None in cells:
            return None
        rows.append("[" + ", ".join(str(c) for c in cells) + "]")
    return "[" + ", ".join(rows) + "]"


def printed_claims(text: str) -> dict[str, str]:
    """The decimals an answer key prints (md or tex), as claims for :func:`check`."""
    return {m.group("key"): m.group("value") for m in _PRINTED.finditer(text)}


def _blank(step: Step, cols: int | None = None) -> str:
    rows, cols = step.shape[0], cols or step.shape[1]
    line = " & ".join([blank_cell(step)] * cols)
    return r"\begin{bmatrix} " + r" \\ ".join([line] * rows) + r" \end{bmatrix}"


# The blanks of one line of a sheet: a page is about 48em wide at 10pt, and a line a little
# wider is shrunk to fit (to 85%), better than cut into a group of one column.
_PAGE_EMS = 56.0


def _blank_groups(step: Step) -> tuple[tuple[int, int, str], ...]:
    """The blank matrix in groups of columns, each fitting the page at full size (a 4 x 6
    matrix of long fractions would be shrunk past writing in): ``(first, last, blank)``."""
    cols = step.shape[1]
    per = max(1, min(cols, int(_PAGE_EMS // (blank_width(step) + 1.0))))
    per = -(-cols // -(-cols // per))  # as many groups, as even: 3 + 3, not 4 + 2
    return tuple(
        (first + 1, min(first + per, cols), _blank(step, min(per, cols - first)))
        for first in range(0, cols, per)
    )


@dataclass(frozen=True)
class Question:
    """One asked step: what the sheet asks (title, formula, a blank) and the key answers."""

    number: int
    key: str
    title: str
    symbol: str  # LaTeX
    formula: str  # LaTeX, paper notation
    # The steps the formula uses that the sheet neither gives nor asked before, defined:
    # "Q_{1} = X W_{Q}^{1}" (LaTeX, "" when there are none).
    where: str
    shape: str
    blank: str  # a matrix of lines to write on
    blanks: tuple[tuple[int, int, str], ...]  # the same in groups of columns that fit a page
    exact: str  # LaTeX of the exact value
    approx: str | None  # LaTeX of its decimals
    decimals: str | None  # ``[[0.73, 0.27], ...]`` as the checker reads it; None with symbols


def _where(
    formula: sp.Basic, known: set[sp.Basic], formulas: Mapping[sp.Basic, sp.Basic]
) -> list[tuple[sp.Basic, sp.Basic]]:
    """The steps a formula uses that the student has not met (neither given nor asked
    before), each with its own formula, those it needs first: ``S'_1 = S_1/sqrt(d_k)``."""
    out: list[tuple[sp.Basic, sp.Basic]] = []

    def visit(expr: sp.Basic) -> None:
        for symbol in sorted(expr.atoms(sp.MatrixSymbol), key=str):
            if symbol in known or symbol not in formulas or formulas[symbol] == symbol:
                continue
            known.add(symbol)
            visit(formulas[symbol])
            out.append((symbol, formulas[symbol]))

    visit(formula)
    return out


def _questions(
    d: Derivation, steps: Sequence[Step], solution: Solution, options: ExerciseOptions
) -> list[Question]:
    """Each asked step: its title and formula, a blank, and (from the worked solution's own
    blocks, so nothing is computed twice) its exact value and decimals."""
    shown = solution.steps()
    out = []
    known = {s.symbol for s in d.steps if s.kind == "input"} | set(d.bindings)
    formulas = {s.symbol: s.formula for s in d.steps}
    for number, step in enumerate(steps, start=1):
        block = shown[step.key]
        known.add(step.symbol)
        where = _where(step.formula, known, formulas)
        out.append(
            Question(
                number=number,
                key=step.key,
                title=block.title,
                symbol=step.symbol.name,
                formula=latex.formula(step.formula),
                where=r",\; ".join(f"{sp.latex(a)} = {latex.formula(b)}" for a, b in where),
                shape=f"({step.shape[0]}, {step.shape[1]})",
                blank=_blank(step),
                blanks=_blank_groups(step),
                exact=block.exact or latex.formula(step.formula),  # O = C passed on: "C"
                approx=block.approx,
                decimals=decimals_text(step.value, options.decimals),
            )
        )
    return out


def _given(solution: Solution, spec: AttentionSpec, mask_title: str) -> list[Block]:
    """What a sheet gives: the inputs with their tokens, the weights, and a mask matrix."""
    given: list[Block] = [
        b
        for b in solution.blocks
        if isinstance(b, Given) or (isinstance(b, StepBlock) and b.kind == "input")
    ]
    if spec.mask_kind == "matrix":
        assert spec.mask is not None
        given.append(Given(mask_title, (rf"M_{{0/1}} = {latex.exact(spec.mask)}",)))
    return given


# ------------------------------------------------------------------ one variant
@lru_cache(maxsize=8)
def _environment(fmt: str, templates: str | None) -> jinja2.Environment:
    """One Jinja2 environment per process and format: templates are compiled once."""
    return environment(fmt, templates)


def split_document(tex: str) -> tuple[str, str]:
    """(preamble, body) of a standalone LaTeX document."""
    preamble, rest = tex.split("\\begin{document}\n", 1)
    return preamble, rest.rsplit("\\end{document}", 1)[0]


def variant_dir(index: int) -> str:
    return f"variant-{index:03d}"


def make_variant(
    spec: Mapping[str, Any], seed: int, index: int, options: ExerciseOptions
) -> dict[str, bytes]:
    """Variant ``index`` of the spec table ``spec``: its files by path relative to the bank.

    A pure function of its (picklable) arguments, so it runs the same in a worker process
    or on a cluster node: ``variant-001/spec.toml``, ``sheet.md`` and ``answers.md``
    (``.tex`` for options.fmt "tex").
    """
    table, d, _ = nice_variant(spec, seed, index)
    solution = build(d, options.render)
    questions = _questions(d, asked(spec, d), solution, options)
    env = _environment(options.fmt, options.templates)
    template = env.get_template(f"derivation.{options.fmt}.j2")
    text = template.render(variables(solution, options.font))
    words = _words(options)
    common = {
        "index": index,
        "seed": seed,
        "title": solution.title,
        "lang": options.lang,
        "decimals": options.decimals,
        "text": solution.text,
        "words": words,
        "setup": solution.setup,
        "questions": questions,
        "font": options.font,
    }
    sheet_context = {**common, "given": _given(solution, d.spec, words["mask"])}
    answers_context = {**common, "solution": text}
    if options.fmt == "tex":
        preamble, body = split_document(text)
        answers_context.update(preamble=preamble, solution=body.replace("\\maketitle\n", "", 1))
        sheet_context["preamble"] = preamble
    sheet = env.get_template(f"sheet.{options.fmt}.j2").render(sheet_context)
    answers = env.get_template(f"answers.{options.fmt}.j2").render(answers_context)
    if options.fmt == "tex":  # a matrix's fractions full size, as in a solution's PDF
        sheet, answers = full_size_fractions(sheet), full_size_fractions(answers)
    if options.verify:
        verify(d, answers, index)
    folder = variant_dir(index)
    return {
        f"{folder}/spec.toml": to_toml(table).encode("utf-8"),
        f"{folder}/sheet.{options.fmt}": sheet.encode("utf-8"),
        f"{folder}/answers.{options.fmt}": answers.encode("utf-8"),
    }


def _words(options: ExerciseOptions) -> dict[str, str]:
    from mha_symbolic.language.locales import load as load_locale

    return dict(load_locale(options.lang, options.templates)["exercises"])


def verify(d: Derivation, answers: str, index: int) -> None:
    """Every decimal the answer key prints holds for its own derivation."""
    from mha_symbolic.check.judge import check

    report = check(d, printed_claims(answers))
    wrong = [claim.key for claim in report.claims if not claim.holds]
    if wrong:
        raise SpecError(f"variant {index}: the answer key's {wrong[0]} does not hold")
