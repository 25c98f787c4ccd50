"""What the prose says about the layer: heads, sizes, scaling, convention and layout, each with
the line it was read from."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mha_symbolic.extract.aliases import resolve
from mha_symbolic.extract.formats import Document, Line

# The prose with markup dropped, so that "$d_{\text{model}} = 4$" reads "d_model = 4".
_MARKUP = re.compile(r"\\(?:text|mathrm|mathbf|operatorname)\b|[{}$*`]|\\(?=[a-z])")
_HEADS = (
    re.compile(r"\b(\d+)\s*(?:attention\s+)?heads?\b", re.I),
    re.compile(r"\b(?:h|num_heads|n_heads|heads|number of heads)\s*(?:=|:)\s*(\d+)", re.I),
)
_WIDTH = re.compile(
    r"\b(?:d_?model|embed(?:ding)?[ _]?dim(?:ension)?|model dimension|e)\s*(?:=|:|of)?\s*(\d+)",
    re.I,
)
_LENGTH = re.compile(r"\b(\d+)\s+tokens\b|\b(?:sequence length|seq_len|L)\s*(?:=|:)\s*(\d+)", re.I)
_SCALED = re.compile(
    r"\\sqrt\{?d|√\s*d|sqrt\(d|/\s*\\sqrt\{\s*\d|/\s*√\s*\d|/\s*sqrt\(\s*\d|\bscaled dot|"
    r"\bscaling\b|scale factor",
    re.I,
)
_UNSCALED = re.compile(
    r"\bno scaling\b|\bwithout scaling\b|\bunscaled\b|\bskip(?:ping)? (?:the )?scal|"
    r"\bignore (?:the )?scal|\bnot scaled\b|\bno scale\b",
    re.I,
)
_TRANSPOSED = re.compile(
    r"W_?\{?[qkvo]\}?\s*(?:\^\s*\{?\s*(?:T|\\top|⊤)\s*\}?|ᵀ|\.T\b)|\bnn\.Linear\b|\bF\.linear\b"
    r"|weight\.T\b|\bout\s*x\s*in\b|\(out,\s*in\)",
    re.I,
)
_FUSED = re.compile(r"\breshape\b|\.view\(|\btranspose\b|\bnum_heads\b", re.I)
_SPLIT = re.compile(r"X\s*\[\s*:\s*,\s*\d*\s*:\s*\d+\s*\]|\bX_?\{?\\?(?:text)?\{?head", re.I)
_OUTPUT_PROJECTION = re.compile(r"\bW\s*(?:\^|_)\s*\{?\s*[Oo]\s*\}?(?![a-z])|\bW[Oo]\b|out_proj")
_RANDOM = re.compile(r"\b(?:np\.random|torch\.randn?|torch\.manual_seed|random\.seed|rng\.)", re.I)


@dataclass
class Facts:
    """What the prose states, each value with the line it came from."""

    heads: list[tuple[int, str]] = field(default_factory=list)
    width: list[tuple[int, str]] = field(default_factory=list)
    length: list[tuple[int, str]] = field(default_factory=list)
    scaled: str | None = None  # where the text says the scores are divided by sqrt(d_k)
    unscaled: str | None = None  # where it says there is no scaling
    transposed: str | None = None  # where W^T / Wqᵀ / nn.Linear appears
    fused: str | None = None  # where reshape / transpose / view appears
    split: str | None = None  # where X[:, 0:2] or X_head1 appears
    output_projection: str | None = None  # where W_O is named
    random: str | None = None  # where weights come from a random generator


def read_facts(document: Document) -> Facts:
    facts = Facts()
    for line in document.lines:
        plain = _MARKUP.sub("", line.text)
        _numbers(facts, plain, line)
        for name, pattern, text in (
            ("scaled", _SCALED, line.text),
            ("unscaled", _UNSCALED, plain),
            ("transposed", _TRANSPOSED, line.text),
            ("fused", _FUSED, plain),
            ("split", _SPLIT, line.text),
            ("output_projection", _OUTPUT_PROJECTION, line.text),
            ("random", _RANDOM, line.text),
        ):
            if getattr(facts, name) is None and pattern.search(text):
                if name == "random" and _makes_input(text):
                    continue
                setattr(facts, name, line.where)
    return facts


_ASSIGNED = re.compile(r"^\s*([A-Za-z_]\w*)\s*=")
_INPUTS = ("x", "q", "k", "v")


def _makes_input(text: str) -> bool:
    """Whether a random generator's line makes the input or Q, K, V (``X = torch.rand(3, 4)``),
    not weights: the weights are then not random for it."""
    target = _ASSIGNED.match(text)
    role = resolve(target.group(1)) if target else None
    return role is not None and role.role in _INPUTS


def _numbers(facts: Facts, plain: str, line: Line) -> None:
    """The numbers of heads, the width and the length ``line`` states (where: only if any)."""
    for pattern in _HEADS:
        facts.heads.extend((int(n), line.where) for n in pattern.findall(plain) if n)
    facts.width.extend((int(n), line.where) for n in _WIDTH.findall(plain))
    for pair in _LENGTH.findall(plain):
        facts.length.extend((int(n), line.where) for n in pair if n)


def stated_heads(facts: Facts, width: int | None) -> tuple[int, str] | None:
    """The head count stated most often among those that divide the width (a page may state a
    large model's h = 8 before its example's h = 2, or say "with 1 head" in passing)."""
    fitting = [(h, w) for h, w in facts.heads if 0 < h <= 64 and (not width or width % h == 0)]
    if not fitting:
        return None
    counts = [h for h, _ in fitting]
    best = max(counts, key=lambda h: (counts.count(h), -counts.index(h)))
    return next(pair for pair in fitting if pair[0] == best)


def stated(values: list[tuple[int, str]]) -> tuple[int, str] | None:
    """The last stated value, if any (a worked example follows the general description)."""
    return values[-1] if values else None
