"""The sixteenth batch of held-out documents, continued (tests/corpus/heldout_judge16.py holds
the first part and registers these in JUDGE_DOCS_16)."""

from __future__ import annotations

import numpy as np

from tests.corpus.heldout_help import block, given, one, other, settled, single_precision, values
from tests.corpus.helpers import softmax
from tests.corpus.model import Arrays, Doc, Printed

# --- Russian notebook (PyTorch): three inputs, the softmax typed in by hand as rounded guesses -

_DT_X = block("[[1, 0, 1, 0],\n [0, 2, 0, 2],\n [1, 1, 1, 1]]")
_DT_WK = block("[[0, 0, 1],\n [1, 1, 0],\n [0, 1, 0],\n [1, 1, 0]]")
_DT_WQ = block("[[1, 0, 1],\n [1, 0, 0],\n [0, 0, 1],\n [0, 1, 1]]")
_DT_WV = block("[[0, 2, 0],\n [0, 3, 0],\n [1, 0, 3],\n [1, 1, 0]]")


def _dt(x: Arrays, name: str) -> np.ndarray:
    return x["x"] @ x[name]


def _dt_weights(x: Arrays) -> np.ndarray:
    return softmax(_dt(x, "wq") @ _dt(x, "wk").T)


def _dt_weighted(x: Arrays) -> np.ndarray:
    # block i (value row i), row j (query j): values[i] * weights[j, i]
    v, w = _dt(x, "wv"), _dt_weights(x)
    return np.concatenate([np.outer(w[:, i], v[i]) for i in range(3)])


RU_ROUNDED_GUESSES = Doc(
    file="heldout/ru-notebook-torch-three-inputs-softmax-replaced-by-rounded-guesses.ipynb",
    url="https://github.com/Dmitrytsg/Attention-and-Self-attention/blob/main/self-attention.ipynb",
    kind="notebook",
    language="ru",
    inputs={"x": values(_DT_X), "wk": values(_DT_WK), "wq": values(_DT_WQ), "wv": values(_DT_WV)},
    printed=(
        given(one("4", "1", "2", "3", "4"), "title and step numbers in the headings"),
        given(_DT_X, "x"),
        given(_DT_WK, "w_key"),
        given(_DT_WQ, "w_query"),
        given(_DT_WV, "w_value"),
        Printed(
            block("[[0., 1., 1.],\n [4., 4., 0.],\n [2., 3., 1.]]"), lambda x: _dt(x, "wk"), "keys"
        ),
        Printed(
            block("[[1., 0., 2.],\n [2., 2., 2.],\n [2., 1., 3.]]"),
            lambda x: _dt(x, "wq"),
            "querys",
        ),
        Printed(
            block("[[1., 2., 3.],\n [2., 8., 0.],\n [2., 6., 3.]]"),
            lambda x: _dt(x, "wv"),
            "values",
        ),
        given(one("5"), "heading"),
        Printed(
            block("[[ 2.,  4.,  4.],\n [ 4., 16., 12.],\n [ 4., 12., 10.]]"),
            lambda x: _dt(x, "wq") @ _dt(x, "wk").T,
            "attn_scores = querys @ keys.T",
        ),
        given(one("-1"), "dim=-1"),
        Printed(
            block("[[0.0, 0.5, 0.5],\n [0.0, 1.0, 0.0],\n [0.0, 0.9, 0.1]]"),
            _dt_weights,
            "the softmax typed into the code by hand (one decimal)",
        ),
        Printed(
            block(
                "[[0.0000, 0.5000, 0.5000],\n [0.0000, 1.0000, 0.0000],\n [0.0000, 0.9000, 0.1000]]"
            ),
            _dt_weights,
            "attn_scores_softmax as printed",
        ),
        given(one("6"), "heading"),
        Printed(
            block(
                "[[0.0000, 0.0000, 0.0000],\n [0.0000, 0.0000, 0.0000],\n"
                " [0.0000, 0.0000, 0.0000]],\n[[1.0000, 4.0000, 0.0000],\n"
                " [2.0000, 8.0000, 0.0000],\n [1.8000, 7.2000, 0.0000]],\n"
                "[[1.0000, 3.0000, 1.5000],\n [0.0000, 0.0000, 0.0000],\n"
                " [0.2000, 0.6000, 0.3000]]"
            ),
            _dt_weighted,
            "weighted_values (from the typed weights)",
            follows=True,
        ),
        given(one("7", "0"), "heading, dim=0"),
        Printed(
            block(
                "[[2.0000, 7.0000, 1.5000],\n [2.0000, 8.0000, 0.0000],\n [2.0000, 7.8000, 0.3000]]"
            ),
            lambda x: _dt_weights(x) @ _dt(x, "wv"),
            "outputs (from the typed weights)",
            follows=True,
        ),
    ),
    notes=(
        "A Russian-headed Jupyter notebook in PyTorch (printed tensors; a retelling of a "
        "well-known illustrated walk-through with three inputs and integer weights): keys, "
        "queries and values, the scores Q K^T (no scaling), then the mistake: softmax(scores) "
        "is computed but thrown away and replaced by weights typed in by hand, [[0.0, 0.5, "
        "0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]], for the true 0.0634 0.4683 0.4683 / "
        "6.0e-06 0.9820 0.0180 / 2.95e-04 0.8805 0.1192. At the one decimal of the code only "
        "the first 0.0 is wrong (1 wrong, 8 right); printed as a tensor to four decimals they "
        "are wrong in 8 of 9 places (only the second row's 0.0000 is right). The weighted "
        "values (printed as three 3 x 3 blocks, one per value row) and their sums follow from "
        "the typed weights: where they differ from the true products they count as follows "
        "(9 wrong, 52 right and 29 follows in all)."
    ),
)

# --- Korean notebook (PyTorch): Bahdanau scores of five words, softmax weights, context vector -

_DJ_ENC = block(
    "[0.7, 0.2, 0.4, 0.6, 0.3, 0.1, 0.2, 0.4]\n[0.4, 0.5, 0.3, 0.5, 0.2, 0.3, 0.6, 0.1]\n"
    "[0.8, 0.6, 0.4, 0.5, 0.7, 0.2, 0.3, 0.5]\n[0.3, 0.8, 0.2, 0.3, 0.5, 0.4, 0.1, 0.6]\n"
    "[0.1, 0.4, 0.6, 0.7, 0.2, 0.5, 0.4, 0.3]"
)
_DJ_S = one("-0.1637", "-0.0967", "-0.1878", "-0.1567", "-0.0871")
_DJ_W = one("0.1949", "0.2084", "0.1902", "0.1962", "0.2104")
_DJ_C = one("0.4518", "0.4984", "0.3820", "0.5223", "0.3735", "0.3037", "0.3248", "0.3747")
_DJ_HALVES = {"s": 5e-5}


def _dj_weights(x: Arrays) -> np.ndarray:
    return softmax(x["s"])


KO_BAHDANAU = Doc(
    file="heldout/ko-notebook-torch-bahdanau-additive-scores-five-words-weights-context-vector.ipynb",
    url="https://github.com/Dongjin-1203/Study-code/blob/main/Attention.ipynb",
    kind="course-notebook",
    language="ko",
    inputs={"s": values(_DJ_S), "enc": values(_DJ_ENC)},
    printed=(
        given(one("1", "2", "3", "4", "8", "5"), "headings"),
        given(one("0", "1", "2", "3", "4", "0", "1", "2", "3"), "vocabularies in the code"),
        given(one("5", "4"), "vocabulary sizes"),
        given(one("0", "1", "2", "3", "4", "0", "1", "2", "3"), "vocabulary items"),
        given(one("0", "1", "2", "3", "4", "5", "0", "1", "2", "3", "4"), "indices, shape"),
        given(one("8", "8", "0", "1", "5", "8"), "code, shape"),
        given(
            block(
                "1.5495 -0.1794 -1.8874 1.7775 -1.3420 1.8191 2.1706 -1.6927\n"
                "2.3890e-03 -2.4928e+00 2.2205e+00 -6.9185e-01 -5.3041e-01 1.7850e-01 1.0534e+00"
                " -3.3853e-01\n0.5510 0.5596 -0.7170 -0.3088 0.8270 -0.3231 0.8788 1.3114\n"
                "-0.3083 1.2410 -2.3244 -1.4596 0.4800 0.9140 0.1214 -2.4894\n"
                "1.4897 -0.7375 0.5847 -0.1397 -1.0452 -0.1769 0.6986 -0.7107"
            ),
            "word embeddings (random, not used by the attention)",
        ),
        given(_DJ_ENC, "encoder_outputs in the code (assumed)"),
        given(one("0.5", "0.4", "0.6", "0.3", "0.7", "0.2", "0.4", "0.5"), "encoder_hidden"),
        given(one("0.4", "0.5", "0.3", "0.6", "0.2", "0.7", "0.4", "0.3"), "encoder_cell"),
        given(one("0", "1", "5", "8", "1", "1", "8", "1", "1", "8"), "shapes"),
        given(
            block(
                "0.7000 0.2000 0.4000 0.6000 0.3000 0.1000 0.2000 0.4000\n"
                "0.4000 0.5000 0.3000 0.5000 0.2000 0.3000 0.6000 0.1000\n"
                "0.8000 0.6000 0.4000 0.5000 0.7000 0.2000 0.3000 0.5000\n"
                "0.3000 0.8000 0.2000 0.3000 0.5000 0.4000 0.1000 0.6000\n"
                "0.1000 0.4000 0.6000 0.7000 0.2000 0.5000 0.4000 0.3000"
            ),
            "encoder outputs printed per word",
        ),
        given(one("0", "1", "1", "8"), "first decoder input, shape"),
        given(one("2", "1", "16", "8", "8", "1"), "layer sizes"),
        given(one("0", "1", "1", "1", "8", "1", "1", "8", "1", "5", "8", "1", "5", "16"), "shapes"),
        given(one("-1", "1", "5", "8", "1", "5"), "shapes"),
        given(_DJ_S, "attention scores (additive: random layers, never printed)"),
        given(one("1", "1", "5"), "shape"),
        Printed(_DJ_W, settled(_dj_weights, _DJ_HALVES, _DJ_W), "attention_weights"),
        given(one("1", "1", "5"), "shape"),
        Printed(_DJ_W, settled(_dj_weights, _DJ_HALVES, _DJ_W), "attention_weights_expanded"),
        given(one("1", "1", "8"), "shape"),
        Printed(
            _DJ_C,
            settled(lambda x: _dj_weights(x) @ x["enc"], _DJ_HALVES, _DJ_C),
            "context_vector",
        ),
        given(one("2", "1", "1", "16"), "code, shape"),
        given(
            one(
                "-1.8764",
                "1.1168",
                "0.8706",
                "-0.6572",
                "0.2029",
                "0.3944",
                "0.0770",
                "1.2548",
                *_DJ_C[0],
            ),
            "decoder_input_combined (embedding, then the context vector)",
        ),
        given(one("1", "1", "8"), "shape"),
        other(
            one("0.1153", "0.2179", "-0.1035", "0.0122", "-0.1161", "-0.0481", "-0.1033", "0.0405"),
            "decoder_output (LSTM)",
        ),
        given(one("1", "1", "8"), "shape"),
        other(
            one("0.1153", "0.2179", "-0.1035", "0.0122", "-0.1161", "-0.0481", "-0.1033", "0.0405"),
            "decoder_hidden",
        ),
        given(one("1", "1", "8"), "shape"),
        other(
            one("0.2324", "0.3622", "-0.1409", "0.0710", "-0.2013", "-0.0952", "-0.1370", "0.0856"),
            "decoder_cell",
        ),
        given(one("2", "1", "1", "1", "-1", "-1", "1", "16"), "code, shape"),
        given(
            one(
                "0.1153",
                "0.2179",
                "-0.1035",
                "0.0122",
                "-0.1161",
                "-0.0481",
                "-0.1033",
                "0.0405",
                *_DJ_C[0],
            ),
            "combined_output (decoder output, then the context vector)",
        ),
        given(one("1", "4"), "shape"),
        other(one("-0.0983", "0.2324", "-0.0131", "-0.1537"), "output_vector (logits)"),
        given(one("1", "4"), "shape"),
        other(one("0.2259", "0.3144", "0.2460", "0.2137"), "output_probs (next-word softmax)"),
        given(one("4", "1", "5"), "predicted index"),
    ),
    notes=(
        "A Korean course exercise notebook in PyTorch (printed shapes and tensors, Korean "
        "labels): an English sentence of five words, random embeddings, encoder outputs and "
        "states typed in by hand (one decimal), Bahdanau (additive) attention whose score "
        "layers are random and never printed, so the five scores are taken as given; checked: "
        "the softmax weights (printed twice, once expanded to 1 x 1 x 5) and the context "
        "vector, the weights times the assumed encoder outputs. The concatenations that repeat "
        "the context vector are given; the decoder LSTM states, the output logits and the "
        "next-word probabilities are not attention. The truth allows for the scores' rounding "
        "to four decimals. All right: 18 right."
    ),
)

# --- Thai-commented notebook (Keras Dot layers): four decoder states, a hand sum with a typo ----

_NT_E = block(
    "[[0.707, 0.616, 0.852],\n [0.19 , 0.113, 0.123],\n [0.757, 0.022, 0.236],\n"
    " [0.54 , 0.923, 0.412]]"
)
_NT_D = block(
    "[[0.786, 0.634, 0.873],\n [0.796, 0.949, 0.872],\n [0.704, 0.314, 0.912],\n"
    " [0.293, 0.075, 0.73 ]]"
)
_NT_DOT = block(
    "[[1.690042  , 0.328361  , 0.81497806, 1.3692981 ],\n"
    " [1.8903    , 0.365733  , 0.82924205, 1.6650311 ],\n"
    " [1.468176  , 0.281418  , 0.755068  , 1.0457261 ],\n"
    " [0.875311  , 0.153935  , 0.39573103, 0.52820504]]"
)
_NT_SOFT = block(
    "[[0.416897  , 0.1068214 , 0.17377742, 0.30250424],\n"
    " [0.42335096, 0.09216999, 0.1465173 , 0.3379617 ],\n"
    " [0.40803555, 0.12453617, 0.19998579, 0.26744244],\n"
    " [0.3556369 , 0.17286903, 0.22015466, 0.2513394 ]]"
)


def _nt_dot(x: Arrays) -> np.ndarray:
    return x["d"] @ x["e"].T


def _nt_values(x: Arrays) -> np.ndarray:
    return softmax(_nt_dot(x)) @ x["e"]


TH_KERAS_DOT = Doc(
    file="heldout/th-notebook-keras-dot-layers-four-decoder-states-hand-sum-typo-float32.ipynb",
    url="https://github.com/Nantakxrn007/Deep-learning/blob/main/Attention_compute.ipynb",
    kind="notebook",
    language="th",
    inputs={"e": values(_NT_E), "d": values(_NT_D)},
    printed=(
        given(one("4", "3", "4", "3"), "E and D: 4 time steps, 3 features"),
        given(_NT_E, "E (encoder outputs)"),
        given(_NT_D, "D (decoder hidden states)"),
        given(one("2", "2", "2", "1"), "Dot axes in the code"),
        given(one("1", "1", "1"), "comment"),
        given(one("0.786", "0.707", "0.634", "0.616", "0.873", "0.852"), "d1, e1 in the hand sum"),
        Printed(one("1.690042"), lambda x: _nt_dot(x)[:1, :1], "d1*e1 by hand"),
        given(one("0.786", "0.19", "0.634", "0.113", "0.873", "0.123"), "d1, e2 in the hand sum"),
        Printed(one("0.32861"), lambda x: _nt_dot(x)[:1, 1:2], "d1*e2 by hand"),
        given(one("1", "1", "1", "2", "1", "3", "1", "4", "1", "5"), "d1*e1 ... d1*e5"),
        given(one("2", "2", "2"), "code and comment"),
        given(one("1", "4", "4"), "tf.Tensor shape"),
        Printed(_NT_DOT, single_precision(_nt_dot, _NT_DOT), "Dot(axes=(2, 2))([D, E]), float32"),
        given(one("1"), "batch in the diagram"),
        given(_NT_D, "D in the diagram"),
        given(one("1", "2", "2", "2", "2"), "code"),
        given(one("1", "4", "4"), "tf.Tensor shape"),
        Printed(
            _NT_SOFT,
            single_precision(lambda x: softmax(_nt_dot(x)), _NT_SOFT),
            "Activation('softmax')(dot), float32",
        ),
        given(one("3", "3", "3", "3"), "np.round(..., 3) in the code"),
        Printed(
            block(
                "[[1.69  0.328 0.815 1.369]\n [1.89  0.366 0.829 1.665]\n"
                " [1.468 0.281 0.755 1.046]\n [0.875 0.154 0.396 0.528]]"
            ),
            _nt_dot,
            "Dot-product, rounded",
        ),
        Printed(
            block(
                "[[0.417 0.107 0.174 0.303]\n [0.423 0.092 0.147 0.338]\n"
                " [0.408 0.125 0.2   0.267]\n [0.356 0.173 0.22  0.251]]"
            ),
            lambda x: softmax(_nt_dot(x)),
            "Score, rounded",
        ),
        Printed(
            block(
                "[[0.61  0.552 0.534]\n [0.61  0.586 0.546]\n [0.608 0.517 0.52 ]\n"
                " [0.587 0.475 0.48 ]]"
            ),
            _nt_values,
            "Attention values, rounded",
        ),
        Printed(
            block(
                "[[0.61  0.552 0.534 0.786 0.634 0.873]\n [0.61  0.586 0.546 0.796 0.949 0.872]\n"
                " [0.608 0.517 0.52  0.704 0.314 0.912]\n [0.587 0.475 0.48  0.293 0.075 0.73 ]]"
            ),
            lambda x: np.concatenate([_nt_values(x), x["d"]], axis=1),
            "Attentional hidden states = [values, D], rounded",
        ),
        given(
            one("0", "0", "0", "0", "0", "3", "0", "1", "0", "0", "1", "3", "0", "2", "0", "0"),
            "indices in the check",
        ),
        given(one("2", "3", "0", "3", "3", "0", "2"), "indices and decimals in the check"),
        Printed(one("0.61", "0.55", "0.53"), lambda x: _nt_values(x)[:1], "check of the first row"),
    ),
    notes=(
        "A student's Colab notebook with Thai code comments, in TensorFlow/Keras (tf.Tensor "
        "reprs of float32, numpy prints rounded to three decimals): encoder outputs E and "
        "decoder states D (4 x 3 each, typed in), Dot(axes=(2, 2)) for the products D E^T "
        "(no scaling), Activation('softmax') per row, Dot(axes=(2, 1)) for the values and a "
        "Concatenate of values and D; then everything rounded, and a check of the first row "
        "from rounded products summed to two decimals. The mistake: the hand sum in the code "
        "cell's docstring gives d1*e2 = 0.786*0.19 + 0.634*0.113 + 0.873*0.123 = 0.32861 "
        "where it is 0.328361 (a dropped digit; the tensor right below prints 0.328361); d1*e1 "
        "= 1.690042 is right. The truth allows for single precision in the float32 prints: "
        "1 wrong, 104 right."
    ),
)

# --- Korean-commented notebook (PyTorch): a random two-token attention, then three integer heads -

_JA_N = block("[[-0.4015, -0.5934,  1.6885],\n [ 0.5554, -0.9433, -0.6758]]")
_JA_V = block("[[-2.4831,  0.2334,  1.9331],\n [ 2.1000,  4.8312, -1.2138]]")
_JA_A = block("[[0.9842, 0.0158],\n [0.4623, 0.5377]]")
_JA_RES = block("[[-2.4109,  0.3059,  1.8835],\n [-0.0189,  2.7056,  0.2411]]")
_JA_HEADS = block(
    "[[[ 30.,  50.],\n [ 60., 100.]],\n[[120.,  80.],\n [240., 160.]],\n"
    "[[110.,  90.],\n [220., 180.]]]"
)
_JA_LAYER2 = block(
    "[[[-1.0292, -1.0502],\n [-0.9706, -0.9497]],\n[[-4.1170,  1.9121],\n [-3.8826,  2.0877]],"
    "\n[[-3.1086, -7.0792],\n [-2.8910, -6.9200]]]"
)


def _ja_heads(x: Arrays) -> np.ndarray:
    return np.concatenate([x["inp"] @ x["w"][2 * i : 2 * i + 2] for i in range(3)])


KO_THREE_HEADS = Doc(
    file="heldout/ko-notebook-torch-random-two-token-attention-then-three-integer-heads.ipynb",
    url="https://github.com/jaragos0s/NLP/blob/main/attention_torch.ipynb",
    kind="notebook",
    language="ko",
    inputs={
        "a": values(_JA_A),
        "v": values(_JA_V),
        "inp": values(block("[[10, 10], [20, 20]]")),
        "w": values(block("[[1, 2], [2, 3]], [[4, 5], [8, 3]], [[4, 1], [7, 8]]")),
    },
    printed=(
        given(one("777", "777"), "seeds"),
        given(one("0", "1", "0", "1", "1", "2", "3"), "code"),
        given(_JA_N, "n = torch.randn(2, 3)"),
        given(_JA_V, "v (random projections, never printed)"),
        given(_JA_A, "A = softmax(q k^T / sqrt(d), dim=1) (q and k are never printed)"),
        Printed(
            _JA_RES,
            settled(lambda x: x["a"] @ x["v"], {"a": 5e-5, "v": 5e-5}, _JA_RES),
            "Attention(n) = A v",
        ),
        given(one("1", "2", "1", "2", "1", "1", "1", "2", "1", "1"), "code"),
        given(one("1", "2", "2"), "torch.randn(1, 2, 2)"),
        given(block("[[[1, 2], [2, 3]], [[4, 5], [8, 3]], [[4, 1], [7, 8]]]"), "a, the weights"),
        given(one("6", "2", "2", "2", "2", "2", "2", "2", "2", "2", "0.2", "3"), "code"),
        given(one("1", "2", "10", "10", "20", "20", "0"), "inp and code"),
        Printed(_JA_HEADS, _ja_heads, "K per head (inp times a[i])"),
        Printed(_JA_HEADS, _ja_heads, "V per head"),
        Printed(_JA_HEADS, _ja_heads, "Q per head"),
        given(one("3", "2", "2", "3", "2", "2", "3", "2", "2"), "shapes"),
        given(one("2", "2", "2", "2", "2", "2"), "head shapes"),
        given(
            block("[[ 148.3409, -210.9272],\n [ 148.3409, -210.9272]]"),
            "heads concatenated times a random W_o (never printed)",
        ),
        given(one("1", "2", "2"), "shape"),
        given(_JA_LAYER2, "K of the second layer (its input is never printed)"),
        given(_JA_LAYER2, "V of the second layer"),
        given(_JA_LAYER2, "Q of the second layer"),
        given(one("3", "2", "2", "3", "2", "2", "3", "2", "2"), "shapes"),
        given(one("2", "2", "2", "2", "2", "2"), "head shapes"),
        given(block("[[2.2141, 2.2722],\n [2.2167, 2.2713]]"), "second layer after W_o"),
        given(one("1", "2", "2"), "shape"),
        other(block("[[[ 0.9909, -1.0016],\n [ 1.0090, -0.9983]]]"), "encoder output (layer norm)"),
    ),
    notes=(
        "A study notebook in PyTorch with a few Korean comments (printed tensors, several per "
        "print): a bare attention function on two random 3-dimensional tokens whose random "
        "projections are never printed, so only the output A v can be checked from the printed "
        "weights A and values v; then a two-layer encoder with three heads whose key, query "
        "and value projections are all the same integer matrices a[i], so the printed K, V and "
        "Q of the first layer are inp a[i] (checked, three times). The method is called as "
        "attention(K, V, Q) though it is defined as attention(q, k, v), which changes nothing "
        "here since K = V = Q. The head outputs are never printed and the output projection, "
        "the second layer's input and the feed-forward weights are random and never printed "
        "(given); the final layer-norm output is not attention. The truth allows for the "
        "rounding of A and v to four decimals. All right: 42 right."
    ),
)

JUDGE_DOCS_16B: list[Doc] = [
    RU_ROUNDED_GUESSES,
    KO_BAHDANAU,
    TH_KERAS_DOT,
    KO_THREE_HEADS,
]
