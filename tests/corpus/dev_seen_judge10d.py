"""A development document found for the tenth held-out batch and kept out of it (check gave no
answer within the scorer's 60 s on it; studied in session 31 as a dev page): an English numpy
notebook (sentence-transformer token
states projected by seeded random matrices into Q, K, V; attention weights so peaked they print
down to 1e-73). Truth computed with numpy from the printed Q, K and V; see
tests/corpus/truth_dev.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from tests.corpus.heldout_help import Rows, Truth, given, one, other, settled, values
from tests.corpus.helpers import grid, softmax
from tests.corpus.model import Arrays, Doc, Printed

_MINILM_FILE = (
    Path(__file__).resolve().parents[1]
    / "data/corpus/dev/en-notebook-numpy-minilm-states-seeded-qkv-one-hot-weights.ipynb"
)
_FLOAT = re.compile(r"-?\d+\.\d*(?:e[-+]\d+)?")


def _outputs() -> list[str]:
    cells = json.loads(_MINILM_FILE.read_text(encoding="utf-8"))["cells"]
    texts = []
    for cell in cells:
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text") or output["data"]["text/plain"]))
    return texts


def _grid(text: str, width: int) -> Rows:
    return grid(" ".join(_FLOAT.findall(text)), width)


_OUT = _outputs()
_QKV = _OUT[3].split("array(")[1:]
_Q, _K, _V = (_grid(part, 32) for part in _QKV)


def _weights(x: Arrays) -> np.ndarray:
    return softmax(x["q"] @ x["k"].T / np.sqrt(32))


def _output(x: Arrays) -> np.ndarray:
    return _weights(x) @ x["v"]


def _settled(compute: Truth, printed: Rows) -> Truth:
    """Allow for the rounding of Q, K and V (8 significant digits, up to about 20 in size)."""
    return settled(compute, {"q": 1e-7, "k": 1e-7, "v": 1e-7}, printed)


_OUTPUT_ROWS = _grid(_OUT[4], 32)
_WEIGHT_ROWS = _grid(_OUT[5], 20)
_IT_ROW = _grid(_OUT[9], 20)

EN_MINILM = Doc(
    file="dev/en-notebook-numpy-minilm-states-seeded-qkv-one-hot-weights.ipynb",
    url="https://github.com/itsrajsharma/Self-Attention-from-Scratch-in-NumPy/blob/main/attention.ipynb",
    kind="notebook-numpy",
    language="en",
    inputs={"q": values(_Q), "k": values(_K), "v": values(_V)},
    printed=(
        other(_grid(_OUT[0], 4), "sentence embedding (384 values, not attention)"),
        other(one("0.5471", "0.0856"), "cosine similarities"),
        given(_Q, "Q (20 x 32)"),
        given(_K, "K"),
        given(_V, "V"),
        Printed(_OUTPUT_ROWS, _settled(_output, _OUTPUT_ROWS), "output"),
        Printed(_WEIGHT_ROWS, _settled(_weights, _WEIGHT_ROWS), "attention_weights"),
        Printed(_IT_ROW, _settled(lambda x: _weights(x)[12], _IT_ROW), "attention_weights[12]"),
        Printed(
            one("1.0000", "0.0000", "0.0000", "0.0000", "0.0000"),
            lambda x: np.sort(_weights(x)[12])[::-1][:5],
            "top five weights of 'it'",
        ),
        Printed(
            one(*(["0."] * 6 + ["1."] + ["0."] * 13)),
            lambda x: _weights(x)[12],
            "np.round(attention_weights[12], 4)",
        ),
        other(one("8.251990440919122e-11", "2.995732273553991"), "entropies"),
    ),
    notes=(
        "An English numpy notebook: a sentence encoded by a small sentence-transformer (its "
        "384-value embedding and two cosine similarities are not attention), its 20 token "
        "states projected by seeded random matrices into Q, K, V (20 x 32, printed in "
        "e-notation), softmax(QK^T / sqrt(32)) with the row maximum subtracted, the output "
        "(20 x 32) and the weights (20 x 20, so peaked that entries print down to 6e-73), the "
        "row of the token 'it' (index 12), its top five weights to four decimals and the row "
        "rounded; entropies are not attention. All right."
    ),
)

DEV_SEEN_JUDGE10D: list[Doc] = [EN_MINILM]
