"""Printed formats beyond plain text: a notebook's HTML table output (a pandas Styler shows its
numbers only there) read as a matrix with its labels, and judged as the step its numbers are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all


def _styler(name: str, rows: list[list[str]]) -> dict[str, object]:
    """``display(df.style.format(...))``: the HTML table, and a plain text with no number."""
    tokens = ["t1", "t2", "t3"][: len(rows)]
    head = "".join(f'<th class="col_heading">{t}</th>' for t in tokens)
    body = "".join(
        f'<tr><th class="row_heading">{t}</th>' + "".join(f"<td>{v}</td>" for v in row) + "</tr>"
        for t, row in zip(tokens, rows)
    )
    return {
        "output_type": "display_data",
        "data": {
            "text/html": f'<table id="T_{name}"><thead><tr><th class="blank">&nbsp;</th>'
            f"{head}</tr></thead><tbody>{body}</tbody></table>",
            "text/plain": "<pandas.io.formats.style.Styler>",
        },
        "metadata": {},
    }


def _stream(text: str) -> dict[str, object]:
    return {"output_type": "stream", "name": "stdout", "text": text}


def _cell(source: str, outputs: list[dict[str, object]]) -> dict[str, object]:
    return {"cell_type": "code", "source": source, "outputs": outputs, "metadata": {}}


SCALED = [["0.707", "0.707", "0.000"], ["0.000", "0.707", "0.707"], ["0.707", "1.414", "0.707"]]
WEIGHTS = [["0.401", "0.401", "0.198"], ["0.198", "0.401", "0.401"], ["0.248", "0.503", "0.248"]]


def _notebook(tmp_path: Path, weights: list[list[str]]) -> Path:
    cells = [
        {"cell_type": "markdown", "source": "# Attention from Q, K and V", "metadata": {}},
        _cell(
            "print(Q); print(K); print(V)",
            [
                _stream("Q =\n [[1. 0.]\n [0. 1.]\n [1. 1.]]\n"),
                _stream("K =\n [[1. 0.]\n [1. 1.]\n [0. 1.]]\n"),
                _stream("V =\n [[1. 0.]\n [0. 1.]\n [1. 1.]]\n"),
            ],
        ),
        _cell(
            "S = Q @ K.T / np.sqrt(2)\nA = softmax(S)",
            [
                _stream("S :\n [[0.707 0.707 0.   ]\n [0.    0.707 0.707]\n [0.707 1.414 0.707]]"),
                _stream("A :\n [[0.401 0.401 0.198]\n [0.198 0.401 0.401]\n [0.248 0.503 0.248]]"),
            ],
        ),
        _cell(
            'display(pd.DataFrame(S).style.format("{:.3f}"))\n'
            'display(pd.DataFrame(A).style.format("{:.3f}"))',
            [
                _stream("Scores S :\n"),
                _styler("S", SCALED),
                _stream("Weights A :\n"),
                _styler("A", weights),
            ],
        ),
    ]
    path = tmp_path / "page.ipynb"
    path.write_text(json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5}), "utf-8")
    return path


def test_a_styler_table_in_a_notebook_is_read_and_judged_as_the_step_it_prints(
    tmp_path: Path,
) -> None:
    path = _notebook(tmp_path, WEIGHTS)
    found = extract_all(path)[-1]
    mapping = [line for line in found.mapping if "cell 4" in line]
    assert mapping == [
        "S (cell 4, output line 2) -> claim head1.scaled[1]",
        "S (cell 4, output line 2) -> claim head1.scaled[2]",
        "S (cell 4, output line 2) -> claim head1.scaled[3]",
        "A (cell 4, output line 2) -> claim head1.weights[1]",
        "A (cell 4, output line 2) -> claim head1.weights[2]",
        "A (cell 4, output line 2) -> claim head1.weights[3]",
    ]


def test_a_slip_in_a_styler_table_is_reported_at_its_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    slipped = [WEIGHTS[0], WEIGHTS[1], ["0.248", "0.530", "0.248"]]
    path = _notebook(tmp_path, slipped)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "  [2]      claimed 0.530, exact 0.50349: wrong" in out.splitlines()
    assert out.splitlines()[-1] == f"{path}: 8 claims: 7 hold (0 exact, 7 rounded), 1 wrong"


FLOAT32 = """# Attention in PyTorch

```python
torch.set_printoptions(precision=8)
Q = torch.tensor([[1.0, 0.5], [0.2, 1.0], [0.3, 0.3]])
K = torch.tensor([[0.9, 0.1], [0.4, 0.8], [0.5, 0.5]])
V = torch.tensor([[1.0, 2.0], [0.5, 1.5], [2.0, 0.1]])
scores = Q @ K.T / math.sqrt(2)
weights = torch.softmax(scores, dim=-1)
output = weights @ V
```

```
tensor([[0.67175144, 0.56568545, 0.53033012],
        [0.19798990, 0.62225395, 0.42426410],
        [0.21213205, 0.25455844, 0.21213205]])
tensor([[0.36133841, 0.32497522, 0.31368634],
        [0.26438347, 0.40410092, 0.33151558],
        [0.32858640, 0.34282711, 0.32858640]])
tensor([[1.15119863, 1.24150825],
        [1.12946510, 1.16806984],
        [1.15717268, 1.20427203]])
```
"""


def _page(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_float32_prints_of_a_torch_page_hold_with_float32_rounding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, FLOAT32)
    found = extract_all(path)[0]
    assert found.spec.dtype == "float32"
    assert (
        'dtype = "float32"  # line 5: `torch.tensor(`, the page computes in float32: claims allow'
        in found.toml
    )
    assert sorted(found.spec.claims) == ["head1.output", "head1.scaled", "head1.weights"]
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 3 claims: 3 hold (0 exact, 0 rounded, 3 within the printed precision)"
    )


def test_a_slip_in_a_float32_print_is_still_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, FLOAT32.replace("0.40410092", "0.40510092"))
    assert main(["check", str(path)]) == 1
    assert "  (2, 2)   claimed 0.40510092, exact 0.4041009405: wrong" in capsys.readouterr().out


def test_a_page_that_asks_for_float64_keeps_exact_judging(tmp_path: Path) -> None:
    text = FLOAT32.replace(
        "torch.set_printoptions(precision=8)", "torch.set_default_dtype(torch.float64)"
    )
    assert extract_all(_page(tmp_path, text))[0].spec.dtype == "exact"


TOKENS = """# Self-attention on three words

{vectors}

Q = K = V = the word vectors (no projections). Scaled scores:

scores = [[1.1547, 0.0000, 1.1547], [0.0000, 2.3094, 1.1547], [1.1547, 1.1547, 1.7321]]

Attention weights:

weights = [[0.4319, 0.1361, 0.4319], [0.0702, 0.7070, 0.2228], [0.2645, 0.2645, 0.4711]]

Output:

output = [[0.8639, 0.7042, 0.8639], [0.2930, 1.6368, 0.2930], [0.7355, 1.0000, 0.7355]]
"""


@pytest.mark.parametrize(
    "vectors",
    [
        '```python\nemb = {"I": [1.0, 0.0, 1.0], "like": [0.0, 2.0, 0.0],\n'
        '       "tea": [1.0, 1.0, 1.0]}\n```',
        "- I: [1.0, 0.0, 1.0]\n- like: [0.0, 2.0, 0.0]\n- tea: [1.0, 1.0, 1.0]",
        "x_I = [1.0, 0.0, 1.0]\n\nx_like = [0.0, 2.0, 0.0]\n\nx_tea = [1.0, 1.0, 1.0]",
    ],
)
def test_vectors_named_by_their_tokens_are_the_rows_of_x_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], vectors: str
) -> None:
    path = _page(tmp_path, TOKENS.format(vectors=vectors))
    spec = extract_all(path)[0].spec
    assert spec.query.tolist() == [[1, 0, 1], [0, 2, 0], [1, 1, 1]] and spec.self_attention
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 3 claims: 3 hold (0 exact, 3 rounded)"
    )


def test_vectors_named_by_roles_are_not_stacked_as_tokens(tmp_path: Path) -> None:
    text = TOKENS.format(
        vectors="q = [1.0, 0.0, 1.0]\n\nk = [0.0, 2.0, 0.0]\n\nv = [1.0, 1.0, 1.0]"
    )
    reading = extract_all(_page(tmp_path, text))[0]
    assert all(line.split(" -> ")[-1] != "x" for line in reading.mapping)


CALL = """# Scaled dot-product attention in code

```python
{a} = np.array([[1.0, 0.5], [0.2, 1.0]])
{b} = np.array([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
{c} = np.array([[1.0, 2.0, 0.0], [0.0, 1.0, 1.0], [3.0, 0.0, 1.0]])
out, attn = {call}
print(attn)
print(out)
```

```
[[0.4555 0.2246 0.3199]
 [0.4235 0.3677 0.2088]]
[[1.4151 1.1357 0.5445]
 [1.05   1.2147 0.5765]]
```
"""


@pytest.mark.parametrize(
    ("names", "call"),
    [
        (("a", "b", "c"), "attention(a, b, c)"),
        (("x1", "x2", "x3"), "F.scaled_dot_product_attention(x1, x2, x3, attn_mask=None)"),
    ],
)
def test_the_arguments_of_an_attention_call_are_q_k_and_v_whatever_their_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], names: tuple[str, str, str], call: str
) -> None:
    a, b, c = names
    path = _page(tmp_path, CALL.format(a=a, b=b, c=c, call=call))
    spec = extract_all(path)[0].spec
    assert spec.stage == "qkv"
    assert [m.shape for m in (*(spec.q or ()), *(spec.k or ()), *(spec.v or ()))] == [
        (2, 2),
        (3, 2),
        (3, 3),
    ]
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 2 claims: 2 hold (0 exact, 2 rounded)"
    )


def test_a_definitions_parameters_are_no_call(tmp_path: Path) -> None:
    text = CALL.format(a="a", b="b", c="c", call="None\ndef attention(a, b, c):\n    return a")
    found = extract_all(_page(tmp_path, text))[0]
    assert not any(line.startswith(("b (", "c (")) for line in found.mapping)


REPRINTED = """# One query over two keys, no scaling

q = [1, 0]

K = [[1, 0], [0, 1]]

V = [[1, 2], [3, 4]]

weights = [0.73, 0.27]

output = [1.54, 2.54]

## Recap

The weights [0.73, 0.27] give the output [1.54, 2.54].
"""


def test_numbers_printed_again_are_judged_like_their_first_print(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, REPRINTED)
    assert len(extract_all(path)) == 1  # extract writes the example; check judges the copy too
    found = extract_all(path, reprints=True)
    assert len(found) == 2 and found[1].spec.claims == {"head1.weights[1]": "[0.73, 0.27]"}
    assert found[1].notes[0] == (
        "the steps printed again at line 15, each judged against the same example as its first "
        "print"
    )
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{path}: 1 claim: 1 holds (0 exact, 1 rounded)"
    )


def test_a_slip_printed_again_is_wrong_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _page(tmp_path, REPRINTED.replace("0.73, 0.27", "0.75, 0.25"))
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out.count("  [1]      claimed 0.75, exact 0.7311: wrong") == 2
    assert out[-1] == f"{path}: 1 claim: 0 hold (0 exact, 0 rounded), 1 wrong"
