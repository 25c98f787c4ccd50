"""The one table of names documents give attention's matrices, and what each name means."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Role -> patterns over a normalized name (lower case; no spaces, braces, _ ^ \ or markup).
# A group, when it matched, is the head number ("WQ1", "Z_2", "head1_output").
# Order matters: the first role whose pattern matches wins.
ALIASES: tuple[tuple[str, str], ...] = (
    ("x", r"x|inputs?|inputmatrix|inputembeddings?|embeddings?|tokenembeddings?|wordembeddings?"),
    ("head.x", r"x(?:head|h)?(\d+)|xhead(\d+)|headinput(\d+)|head(\d+)input|inputhead(\d+)"),
    ("w_q", r"w(?:q|query|queries)(\d*)|w(\d+)q|wiq|querywe?ights?(\d*)|weightsforquery"),
    ("w_k", r"w(?:k|key|keys)(\d*)|w(\d+)k|wik|keywe?ights?(\d*)|weightsforkeys?"),
    ("w_v", r"w(?:v|value|values)(\d*)|w(\d+)v|wiv|valuewe?ights?(\d*)|weightsforvalues?"),
    ("w_o", r"wo|wout|woutput|w0|outputprojection|outputweights?|finalprojection(?:matrix)?"),
    ("q", r"q(\d*)|quer(?:y|ies|ys)(\d*)|q(?:head|h)(\d+)|querymatrix|queryvectors"),
    ("k", r"k(\d*)|keys?(\d*)|k(?:head|h)(\d+)|keymatrix|keyvectors"),
    ("v", r"v(\d*)|values?(\d*)|v(?:head|h)(\d+)|valuematrix|valuevectors"),
    ("scaled", r"s'(\d*)|s(\d+)'|scaledscores?(\d*)|scaled(?:attention)?scores?(\d*)|qkt/sqrtdk?"),
    (
        "scores",
        r"s(\d*)|scores?(\d*)|qkt|qktop|q(\d+)k\d*t(?:op)?|(?:raw)?attentionscores?(\d*)"
        r"|rawscores?|dotproducts?|similarit(?:y|ies)|logits|attnscores?|attnlogits|scoresmatrix",
    ),
    (
        "weights",
        r"a(\d*)|attention(\d*)|attentionweights?(\d*)|weights(\d*)|softmax(?:scores?|weights?)?|alpha"
        r"|attn(\d*)|attnweights?|attnscoressoftmax|attnprobs?|softmaxscores?|attentionprobabilities"
        r"|α|attentionmatrix(\d*)|attentionprobs?|probabilities",
    ),
    (
        "head.output",
        r"z(\d*)|head(\d+)outputs?|head(\d+)|attentionoutput(?:head)?(\d+)|headoutput(\d+)"
        r"|o(\d+)|h(\d+)|output(\d+)|head(\d+)out|attention(\d+)output",
    ),
    ("concat", r"concat(?:enated)?(?:heads?|outputs?)?|combined|multihead|concat.*|merged"),
    (
        "output",
        r"finaloutput|mhaoutput|mha|multiheadoutput|multiheadattentionoutput|finalembeddings?"
        r"|result|out|o|y|finalresult|outputprojection\w*|attentionoutputs?|outputs?|contextvectors?",
    ),
)
_COMPILED = tuple((role, re.compile(pattern)) for role, pattern in ALIASES)
_MARKUP = re.compile(
    r"\\(?:text|mathrm|mathbf|mathit|boldsymbol|operatorname|mathsf|mathtt|bm)\b|\\left|\\right"
)
_SUBSCRIPT_DIGITS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_DROPPED = re.compile(r"[\s{}\\_^*$`\"“”‘’()]|&#?\w+;")
# A leading word of prose before the name ("Let's make W_Q2", "New Q2", "the input matrix").
_FILLER = re.compile(r"^(?:let'?s|let’s|make|new|the|so|then|now|and|our|we|have|compute|get)$")
_ROLE_WORDS = {"q": "quer", "k": "key", "v": "value"}  # the words that name a symbol's role
_ROW = re.compile(r"(?:token|row|word|position|input|query)[\s_]*(\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class Role:
    """What a printed name means: a role (``w_q``, ``head.output``, ...) and its head, if named."""

    role: str
    head: int | None
    name: str  # as printed


def normalize(name: str) -> str:
    text = _MARKUP.sub("", name)
    text = text.replace("\\top", "t").replace("ᵀ", "t").replace("^T", "t").replace("^t", "t")
    text = text.replace("′", "'").replace("\\prime", "'")
    text = text.translate(_SUBSCRIPT_DIGITS)  # "q₁" is "q_1"
    return _DROPPED.sub("", text).lower()


def resolve(name: str) -> Role | None:
    """The role of a printed name, trying the whole name, then without leading prose words."""
    words = name.split()
    while words:
        found = _lookup(" ".join(words), " ".join(words))
        if found:
            return found
        if not _FILLER.match(words[0].lower()) and len(words) > 3:
            return _said_symbol(words)
        words = words[1:]
    return None


def _said_symbol(words: list[str]) -> Role | None:
    """A symbol that a sentence names as what it is ("take the query vector Q", "given key
    vectors K1"): the last word, when the words before it say its role."""
    found = _lookup(words[-1], words[-1])
    said = _ROLE_WORDS.get(found.role) if found else None
    before = " ".join(words[:-1]).lower()
    return found if said and re.search(rf"\b{said}", before) else None


def _lookup(text: str, printed: str) -> Role | None:
    key = normalize(_ROW.sub("", text))
    if not key or len(key) > 40:
        return None
    for role, pattern in _COMPILED:
        match = pattern.fullmatch(key)
        if match:
            digits = next((g for g in match.groups() if g), None)
            return Role(role, int(digits) if digits else None, printed.strip())
    return None


def row_marker(text: str) -> int | None:
    """A token or row number named in ``text`` ("Token1 output", "Row 2")."""
    found = _ROW.findall(text)
    return int(found[-1]) if found else None


def row_count(text: str) -> int:
    """How many different token or row numbers ``text`` names."""
    return len({int(n) for n in _ROW.findall(text)})


_TOKEN_LABEL = re.compile(r"token\s*(\d+)\s*[:=]\s*[“\"']([^”\"'\n]{1,40})[”\"']", re.I)


def token_labels(body: str) -> tuple[str, ...]:
    """The labels a page gives its tokens ("Token 1: 'cat'"), in order; none unless 1..n."""
    labels: dict[int, str] = {}
    for number, label in _TOKEN_LABEL.findall(body):
        labels.setdefault(int(number), label.strip())
    ordered = [labels[i] for i in sorted(labels)]
    return tuple(ordered) if sorted(labels) == list(range(1, len(labels) + 1)) else ()
