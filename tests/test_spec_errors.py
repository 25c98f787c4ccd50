"""Every bad input gets one line naming the file, the field and the shapes."""

from __future__ import annotations

import pytest

from mha_symbolic import AttentionSpec, SpecError

I2 = [[1, 0], [0, 1]]

CASES = [
    (dict(x=[[1, 2, 3, 4]], heads=3, layout="split"),
     "heads = 3 does not divide the width 4 of x (shape (1, 4))"),
    (dict(x=[[1, 2, 3, 4]], heads=3, layout="fused"),
     "heads = 3 does not divide d_model 4 (the width of Q = x W_Q)"),
    (dict(x=[[1, 2, 3, 4]], heads=3, weights={"w_q": "symbolic"}),
     "heads = 3 does not divide the width 4 of x (shape (1, 4))"),
    (dict(x=I2, heads=2, weights={"w_q": [I2]}),
     "w_q has 1 matrix but heads = 2; layout per_head needs one matrix per head"),
    (dict(x=I2, heads=2, weights={"w_q": I2}),
     "w_q is one matrix of shape (2, 2) but layout per_head needs a list of 2 matrices, "
     "one per head"),
    (dict(x=I2, heads=2, layout="fused", weights={"w_q": [I2, I2]}),
     "w_q is a list of 2 matrices but layout fused takes one matrix for all heads"),
    (dict(x=[[1, 0], [0]]), "x: row 2 has 1 entry but row 1 has 2"),
    (dict(x=[]), "x is empty"),
    (dict(x=[[]]), "x is empty (row 1 has no entries)"),
    (dict(x=I2, weights={"w_q": [[[1, 0], [0, 1, 2]]]}),
     "w_q[1]: row 2 has 3 entries but row 1 has 2"),
    (dict(x=[[1, "abc"]]),
     'x[1,2]: cannot read "abc" as a number (\'abc\' is not a declared parameter; declare it '
     "under [parameters], or put \\cdot between letters for a product)"),
    (dict(x=[[1, "1..2"]]), 'x[1,2] = "1..2": two decimal points in one number (1..2)'),
    (dict(x=[[1, "1/0"]]), 'x[1,2]: "1/0" divides by zero'),
    (dict(x=[[1, "\\infty"]]), 'x[1,2]: "\\infty" is not a finite number'),
    (dict(x=[[True]]), "x[1,1]: True is a boolean, not a number"),
    (dict(x=[[1]], head=2), "unknown key 'head' (did you mean 'heads'?)"),
    (dict(x=[[1]], weights={"wq": [[1]]}), "unknown key 'weights.wq' (did you mean 'w_q'?)"),
    (dict(x=[[1]], layout="perhead"),
     "unknown layout 'perhead' (did you mean 'per_head'?); choose one of per_head, split, fused"),
    (dict(x=[[1]], convention="xw"),
     "unknown convention 'xw' (did you mean 'xW'?); choose one of xW, xWT"),
    (dict(x=[[1]], scale="sqrtdk"),
     "unknown scale 'sqrtdk' (did you mean 'sqrt_dk'?); choose sqrt_dk, none or an exact number"),
    (dict(x=[[1]], scale=-1), "scale must be a positive number, got -1"),
    (dict(x=[[1]], mask="casual"),
     "unknown mask 'casual' (did you mean 'causal'?); choose one of none, causal"),
    (dict(x=[[1], [2]], mask=[[1, 1, 1]]),
     "mask has shape (1, 3) but the scores have shape (2, 2) (queries x keys)"),
    (dict(x=[[1], [2]], mask=[[1, 2], [1, 1]]),
     "mask[1,2] is 2; a mask holds 0 (blocked) or 1 (may attend)"),
    (dict(x=[[1], [2]], mask=[[1, 0], [0, 0]]),
     "mask row 2 blocks every key; softmax over no keys is undefined "
     "(allow at least one key per row)"),
    (dict(x=I2, heads=2, weights={"w_o": [[1, 0, 1, 0], [0, 1, 0, 1]]}),
     "w_o has shape (2, 4) but concat has 4 columns; its transpose (4, 2) would fit"),
    (dict(x=I2, heads=2, convention="xWT", weights={"w_o": [[1, 0], [0, 1], [1, 0], [0, 1]]}),
     "w_o has shape (4, 2) but concat has 4 columns (convention xWT multiplies by its "
     "transpose); its transpose (2, 4) would fit"),
    (dict(x=[[1, 0, 0]], weights={"w_q": [[[1, 0, 0], [0, 1, 0]]]}),
     "w_q[1] has shape (2, 3) but x has 3 columns; its transpose (3, 2) would fit"),
    (dict(x=[[1, 0, 0, 0]], heads=2, layout="split", weights={"w_q": [[[1, 0, 0]], I2]}),
     "w_q[1] has shape (1, 3) but head 1's slice of x has 2 columns"),
    (dict(x=I2, weights={"w_q": [[[1], [0]]], "w_k": [I2]}),
     "w_k[1] gives keys of width 2 but w_q[1] gives queries of width 1; "
     "scores need equal widths"),
    (dict(heads=1), "no input: give x (self-attention) or query and key (cross-attention)"),
    (dict(x=[[1]], query=[[1]]),
     "give either x (self-attention) or query/key/value, not both (found x and query)"),
    (dict(query=[[1]]), "cross-attention needs key (found query)"),
    (dict(query=[[1]], key=[[1], [2]], value=[[1]]),
     "value has shape (1, 1) but key has shape (2, 1); each key needs one value row"),
    (dict(x=[[1], [2]], tokens=["a"]), "tokens has 1 label but x has 2 rows"),
    (dict(x=[[1]], weights={"b_o": [1]}),
     "b_o is given but w_o is not; b_o belongs to the output projection"),
    (dict(x=[[1, 0]], weights={"w_q": [I2], "b_q": [1, 2, 3]}),
     "b_q has 3 entries but the heads' Q widths add up to 2"),
    (dict(x=[[1, 0, 1, 0]], heads=2, layout="split", weights={"b_v": [1, 2, 3]}),
     "b_v has 3 entries but the heads' V widths add up to 4 (2 + 2)"),
    (dict(query=[[1, 0]], key=[[1, 0, 0]], layout="fused"),
     "w_k is omitted, but the identity needs key's width 3 to equal d_model 2; give w_k"),
    (dict(x=[[1]], weights={"w_q": "symbolc"}),
     "w_q is the text 'symbolc'; give numbers or \"symbolic\""),
    (dict(x=[[1]], heads=0), "heads must be a positive integer, got 0"),
    (dict(x=[[1, 0]], heads=2, weights={"w_q": [I2, [[1], [0]]]}),
     "w_k is omitted, but the identity gives keys of width 2 and w_q gives queries of width 1; "
     "give w_k"),
]  # fmt: skip


@pytest.mark.parametrize(("raw", "message"), CASES, ids=[m[:40] for _, m in CASES])
def test_error_message(raw, message):
    with pytest.raises(SpecError) as caught:
        AttentionSpec(**raw)
    assert str(caught.value) == f"<arguments>: {message}"
    assert "\n" not in str(caught.value)


def test_spec_error_is_a_value_error():
    assert issubclass(SpecError, ValueError)


def test_dict_source_is_named():
    with pytest.raises(SpecError, match=r"^<dict>: unknown key 'lay_out'"):
        AttentionSpec.from_dict({"x": [[1]], "lay_out": "fused"})


def test_missing_file(tmp_path):
    path = tmp_path / "nope.toml"
    with pytest.raises(SpecError) as caught:
        AttentionSpec.from_toml(path)
    assert str(caught.value) == f"{path}: no such file"


def test_invalid_toml(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("heads = \nx = [[1]]\n")
    with pytest.raises(SpecError) as caught:
        AttentionSpec.from_toml(path)
    assert str(caught.value).startswith(f"{path}: invalid TOML: ")
    assert "line 1" in str(caught.value)


def test_file_errors_name_the_file_and_field(tmp_path):
    path = tmp_path / "two.toml"
    path.write_text(
        "heads = 2\nx = [[1, 0], [0, 1]]\n[weights]\nw_o = [[1, 0, 1, 0], [0, 1, 0, 1]]\n"
    )
    with pytest.raises(SpecError) as caught:
        AttentionSpec.from_toml(path)
    assert str(caught.value) == (
        f"{path}: w_o has shape (2, 4) but concat has 4 columns; its transpose (4, 2) would fit"
    )


def test_unknown_example():
    with pytest.raises(SpecError) as caught:
        AttentionSpec.example("two-token")
    assert str(caught.value) == (
        "unknown example 'two-token' (did you mean 'two-tokens'?); known: alibi, causal-dropout, "
        "eight-tokens-split, one-token, pytorch-style, rope, split-scaled, temperature, two-tokens"
    )
