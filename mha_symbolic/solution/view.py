"""The view model of a worked solution: how it is written (Options) and its typed blocks.

Every field is text a template prints as it is: prose (with ``$...$`` maths) or LaTeX. The
blocks are built by :mod:`mha_symbolic.solution.blocks`; the templates read them by attribute
and tell them apart by ``block.type``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from mha_symbolic.errors import SpecError
from mha_symbolic.solution import latex
from mha_symbolic.spec.bounds import MAX_DECIMALS, MAX_ENCLOSE_DIGITS, MAX_SHOWN, whole_number
from mha_symbolic.spec.step_decimals import places

if TYPE_CHECKING:
    from mha_symbolic.solution.plot import Plot

DETAILS = ("matrix", "token")


@dataclass(frozen=True)
class Options:
    """How a solution is written: rounding, detail, language, elision and template folder."""

    decimals: int = 2
    # A step's own places (step key or name -> places, see spec/step_decimals.py): a spec's
    # table, used where --decimals (or decimals=...) says nothing.
    step_decimals: Mapping[str, int] = field(default_factory=dict)
    detail: str = "matrix"
    lang: str = "en"
    max_size: int = 8
    max_width: float = 16
    templates: str | None = None
    # Step key -> printed numbers that do not hold (from check's Report.marks()), shown in place.
    marks: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)
    # Step entries drawn against a parameter (plot.figure), shown after the steps.
    plots: Sequence[Plot] = ()
    # JSON only: every entry also as an arb ball to this many digits (None: no balls), and
    # whether the exact LaTeX is written (False: balls and decimals alone, for model scale).
    enclose: int | None = None
    exact: bool = True
    columns: int = 100  # text only: the page's width in characters (a terminal's own width)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "decimals", whole_number(self.decimals, "decimals", 0, MAX_DECIMALS)
        )
        object.__setattr__(self, "max_size", whole_number(self.max_size, "max_size", 0, MAX_SHOWN))
        for key, number in self.step_decimals.items():
            whole_number(number, f"decimals.{key}", 0, MAX_DECIMALS)
        if self.detail not in DETAILS:
            raise SpecError(f"unknown detail {self.detail!r}; choose one of {', '.join(DETAILS)}")
        if self.max_size < 2:
            raise SpecError("max_size must be at least 2")
        if self.columns < 40:
            raise SpecError(f"columns must be at least 40, got {self.columns}")
        if self.enclose is not None:
            digits = whole_number(self.enclose, "enclose", 1, MAX_ENCLOSE_DIGITS)
            object.__setattr__(self, "enclose", digits)
        if not self.exact and self.enclose is None:
            raise SpecError("exact=False leaves only the balls: give enclose (digits) as well")

    @property
    def settings(self) -> latex.Settings:
        return latex.Settings(self.decimals, self.max_size, self.max_width)

    def places(self, key: str) -> int:
        """The decimal places step ``key`` prints."""
        return places(key, self.decimals, self.step_decimals)

    def settings_for(self, key: str) -> latex.Settings:
        return latex.Settings(self.places(key), self.max_size, self.max_width)


# ---------------------------------------------------------------------- parts of blocks
@dataclass(frozen=True)
class TokenRow:
    """One token's row of a matrix, as the documents write vectors: ``[1, 0]``."""

    index: int  # 1-based
    label: str
    row: str  # LaTeX


@dataclass(frozen=True)
class Mark:
    """A number a document prints that does not hold, shown at its step."""

    key: str  # the claim's key: ``head1.output[1]``
    kind: str  # "wrong", or "follows": what the document's own assumed numbers give
    title: str  # "The document prints a wrong number here." (or: it follows an assumption)
    claimed: str  # as the document printed it
    verdict: str
    exact_is: str  # the words before the exact value
    exact: str  # LaTeX of the exact value
    approx: str | None  # LaTeX of its decimals
    diagnosis: str | None  # why it does not hold, in plain words, when that is known
    claimed_math: str | None = None  # LaTeX of ``claimed`` when it is a plain list of numbers
    sentence: str | None = None  # the whole note in one sentence, said in place of the rest


@dataclass(frozen=True)
class Assumption:
    """A number the document assumes rather than computes, and what the inputs really give."""

    key: str  # the assumed entry's key: ``head2.output``
    symbol: str  # LaTeX of what is assumed: ``\mathrm{head}_{2}`` or ``Z[1]``
    assumed: str  # LaTeX of the assumed value, as the document prints it
    lines: tuple[str, ...]  # prose: what the inputs give, and what it would take
    defined: bool = False  # a definition the document states (O = Concat(...) W_O), not a number


@dataclass(frozen=True)
class Part:
    """One stage of a query's token-by-token working: a sentence and its equations."""

    text: str
    lines: tuple[str, ...] = ()
    step: str = ""  # the key of the step this stage works out (``head1.scores``)


@dataclass(frozen=True)
class SummaryRow:
    step: int
    operation: str
    shapes: str  # LaTeX, in letters: ``(L, E) \to (L, h, d)``
    here: str  # LaTeX, in this example's numbers


@dataclass(frozen=True)
class Summary:
    """The closing table of shapes, and each head's formula in closed form."""

    columns: tuple[str, ...]
    rows: tuple[SummaryRow, ...]
    closed_form: tuple[str, ...]


@dataclass(frozen=True)
class Limit:
    """The heading of a solution whose values are limits."""

    heading: str
    note: str


# ---------------------------------------------------------------------- blocks
@dataclass(frozen=True)
class Heading:
    type: ClassVar[str] = "heading"
    text: str
    level: int = 2


@dataclass(frozen=True)
class StepBlock:
    """One step of the derivation: what it is, its formula, its value and what is said of it."""

    type: ClassVar[str] = "step"
    key: str  # the stable step key (an anchor, and what claims name)
    kind: str
    head: int | None
    title: str
    caption: str
    insight: str | None  # said at the first step of its kind only
    without: str | None  # "what if we didn't?", likewise
    tokens: tuple[TokenRow, ...]  # an input's rows, token by token
    symbol: str  # LaTeX name of the value: ``Q_{1}``
    formula: str | None  # paper notation; None for an input
    substituted: str | None  # the formula with its operands' values written in
    exact: str | None  # LaTeX of the exact value (entries too long are written by name);
    # None for a value passed on unchanged and too long to print again (O = C)
    approx: str | None  # LaTeX of its decimals, None when they would add nothing
    shape: str  # ``(8, 2) \times (2, 2) = (8, 2)``
    entry: str | None  # the first entry in full, when the value is written by name
    notes: tuple[str, ...]
    marks: tuple[Mark, ...]
    assumptions: tuple[Assumption, ...] = ()
    analogy: str | None = None  # a picture of the step, in the spirit of seed 004's
    chosen: str | None = None  # LaTeX: the value at the numbers chosen for its symbols
    chosen_said: str | None = None  # the words before it, when not "With the chosen numbers:"
    # --detail token: every query's working of this step, stage by stage, in place of its
    # matrix working
    by_token: tuple[Part, ...] = ()
    # (LaTeX of a matrix written into ``substituted``, its name): a matrix too wide for the
    # text format's page is cut into groups labelled with the name ("columns 1–2 of A_1:")
    operands: tuple[tuple[str, str], ...] = ()

    @property
    def lines(self) -> tuple[str, ...]:
        """The chain ``symbol = formula = substituted = exact``, without what is missing or
        what repeats the line before (unscaled scores: S' = Q K^T = S's value, once), nor a
        formula that is the step's own name (scores named by their product, Q_1 K_1^T)."""
        chain = [t for t in (self.formula, self.substituted, self.exact) if t is not None]
        if chain and chain[0] == self.symbol:
            chain = chain[1:]
        return tuple(t for i, t in enumerate(chain) if i == 0 or t != chain[i - 1])


@dataclass(frozen=True)
class FusedStep:
    """The fused layout's reshape (L, E) -> (L, h, d) or transpose to (h, L, d)."""

    type: ClassVar[str] = "fused"
    part: str  # "reshape" or "transpose"
    title: str
    caption: str
    insight: str
    without: str
    rows_title: str | None
    tokens: tuple[TokenRow, ...]  # Q's rows cut into heads (reshape only)


@dataclass(frozen=True)
class Given:
    """Numbers the spec gives (weights, a mask): one LaTeX equation per line."""

    type: ClassVar[str] = "given"
    title: str
    lines: tuple[str, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TokenWork:
    """``--detail token``: one head's working, query by query (or why it is left out)."""

    type: ClassVar[str] = "tokens"
    head: int
    title: str
    parts: tuple[Part, ...]  # each query's stages, query 1's first
    note: str | None  # said instead of the queries when their entries are too long


@dataclass(frozen=True)
class Heatmap:
    type: ClassVar[str] = "heatmap"
    head: int
    src: str | None  # file name or data URI; None when the weights have symbols
    caption: str


@dataclass(frozen=True)
class Figure:
    """A plot of step entries against a parameter."""

    type: ClassVar[str] = "plot"
    src: str
    caption: str


Block = Heading | StepBlock | FusedStep | Given | TokenWork | Heatmap | Figure


@dataclass(frozen=True)
class Solution:
    """A whole worked solution, in the order a template prints it."""

    lang: str
    title: str
    description: str
    setup: tuple[str, ...]
    limit: Limit | None
    blocks: tuple[Block, ...]
    summary: Summary
    text: Mapping[str, Any]  # the locale's [text] words (headings, labels)
    decimals_note: str
    lets: tuple[str, ...] = ()  # "Let a = e^{...}": names the exact values below are written with

    def steps(self) -> dict[str, StepBlock]:
        """Each step's block by its key."""
        return {b.key: b for b in self.blocks if isinstance(b, StepBlock)}
