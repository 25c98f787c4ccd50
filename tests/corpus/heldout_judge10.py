"""The tenth batch of held-out documents, their truth computed with numpy from the printed
inputs: a Russian numpy notebook (a sequence of five numbers embedded by one random row, and a
softmax worked in a code comment). See tests/corpus/truth_heldout.py."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import block, given, one, settled, values
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- Russian numpy notebook: five numbers embedded, a softmax in a comment ------------------------

_SEQUENCE = block("[[0.1]\n [0.2]\n [0.3]\n [2. ]\n [0.4]]")
_W_EMBED = block("[[-0.40864155  1.24500152 -0.35641933  0.5953186 ]]")
_EMBEDDED = block(
    "[[-0.04086415  0.12450015 -0.03564193  0.05953186]\n"
    " [-0.08172831  0.2490003  -0.07128387  0.11906372]\n"
    " [-0.12259246  0.37350045 -0.1069258   0.17859558]\n"
    " [-0.8172831   2.49000303 -0.71283867  1.1906372 ]\n"
    " [-0.16345662  0.49800061 -0.14256773  0.23812744]]"
)


def _embedded(x: Arrays) -> np.ndarray:
    return x["sequence"] @ x["w_embed"]


RU_SCALAR_SEQUENCE = Doc(
    file="heldout/ru-notebook-numpy-scalar-sequence-embedding-softmax-comment.ipynb",
    url="https://github.com/Yurkmez/Experiment_fine-tuning/blob/main/Transformer-like%20attention.ipynb",
    kind="notebook-numpy",
    language="ru",
    inputs={
        "sequence": values(_SEQUENCE),
        "w_embed": values(_W_EMBED),
        "x": np.array([2.0, 1.0, 0.1]),
    },
    printed=(
        given(_SEQUENCE, "sequence"),
        given(_W_EMBED, "W_embed (unseeded randn)"),
        Printed(
            _EMBEDDED,
            settled(_embedded, {"w_embed": 5e-9}, _EMBEDDED),
            "embedded = sequence @ W_embed",
        ),
        given(one("2.0", "1.0", "0.1"), "x (comment)"),
        Printed(one("0.659", "0.242", "0.098"), lambda x: softmax(x["x"]), "softmax(x) (comment)"),
    ),
    notes=(
        "A Russian numpy notebook: five numbers (one feature each) projected to four dimensions "
        "by one unseeded random row W_embed (printed to 8 decimals, the product as well), then "
        "Q, K, V, the scaled scores, the weights and the output computed but never printed. A "
        "code comment works softmax([2.0, 1.0, 0.1]) = [0.659, 0.242, 0.098]. One mistake as "
        "published: the last weight is 0.09856..., 0.099 to three decimals, not 0.098 (cut, not "
        "rounded; 1 entry wrong)."
    ),
)

JUDGE_DOCS_10: list[Doc] = [RU_SCALAR_SEQUENCE]
