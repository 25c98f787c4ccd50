"""Examples that start past the inputs, compiled (the given stages are arguments, the spec's by
default) and differentiated (exactly and compiled), against oracles written here; the draft
TOML writer writes their keys."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, check, compile, derive
from mha_symbolic.cli import main
from mha_symbolic.extract.draft import Draft
from mha_symbolic.extract.draft_toml import to_toml
from mha_symbolic.spec.input_files import parse_toml

QS = [[[1, 0], ["0.5", 1]], [[0, 1], [1, 1]]]
KS = [[[1, 0], [0, 1], [1, 1]], [[1, 1], [0, 1], [2, 0]]]
VS = [[[1], [2], [3]], [[3, 1], [4, 1], [0, 2]]]  # d_v 1 and 2, d_k 2
W_O = [[1, 0], [0, 1], [1, 1]]
MASK = [[1, 0, 1], [0, 0, 0]]  # row 2 masks every key: equal weights with a finite fill

SPECS = {
    "qkv": {"q": QS, "k": KS, "v": VS, "heads": 2, "weights": {"w_o": W_O}},
    "qkv masked_fill": {
        "q": QS,
        "k": KS,
        "v": VS,
        "heads": 2,
        "mask": MASK,
        "mask_fill": "-1e9",
        "weights": {"w_o": W_O},
    },
    "scores and v": {"scores": [[1, 2, 0], [3, 4, "0.5"]], "v": [[1, 0], [0, 1], [2, 2]]},
    "attention weights and v": {
        "attention_weights": [["0.25", "0.75", 0], [0, 0, 1]],
        "v": [[4, 0], [0, 8], [1, 1]],
        "weights": {"w_o": [[1], [1]]},
    },
}


def _floats(matrix: sp.MatrixBase) -> np.ndarray:
    return np.array([[float(sp.N(e, 30)) for e in row] for row in matrix.tolist()])


def _oracle(name: str) -> np.ndarray:
    """float64 attention written out here, masked_fill as PyTorch writes it."""
    raw = SPECS[name]
    if "attention_weights" in raw:
        a = np.array(raw["attention_weights"], dtype=float)
        return a @ np.array(raw["v"], float) @ np.array(raw["weights"]["w_o"], float)
    if "scores" in raw:
        s = np.array(raw["scores"], dtype=float)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True) @ np.array(raw["v"], float)
    heads = []
    for q, k, v in zip(raw["q"], raw["k"], raw["v"]):
        s = np.array(q, dtype=float) @ np.array(k, dtype=float).T / np.sqrt(2)
        if "mask" in raw:
            s = np.where(np.array(raw["mask"]) == 0, -1e9, s)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        heads.append(e / e.sum(axis=1, keepdims=True) @ np.array(v, float))
    return np.concatenate(heads, axis=1) @ np.array(W_O, float)


@pytest.mark.parametrize("name", SPECS)
def test_exact_and_compiled_numpy_match_the_oracle(name: str) -> None:
    spec = AttentionSpec(**SPECS[name])
    np.testing.assert_allclose(_floats(derive(spec)["output"]), _oracle(name), rtol=1e-13)
    f = compile(spec, backend="numpy")
    assert f.signature.startswith("f(*, mask=None, ")
    np.testing.assert_allclose(f(), _oracle(name), rtol=1e-13)


@pytest.mark.parametrize("name", SPECS)
def test_compiled_torch_matches_the_oracle(name: str) -> None:
    pytest.importorskip("torch", reason="torch is optional")
    f = compile(AttentionSpec(**SPECS[name]), backend="torch")
    np.testing.assert_allclose(f().numpy(), _oracle(name), rtol=1e-13)


def test_given_stages_are_arguments_with_the_spec_as_default() -> None:
    f = compile(AttentionSpec(**SPECS["qkv"]), backend="numpy")
    assert f.signature == "f(*, mask=None, q=..., k=..., v=..., w_o=...)"
    other = [np.zeros((2, 2)), np.zeros((2, 2))]  # every score 0: the values averaged
    out = f(q=other)
    means = np.concatenate([np.array(v, float).mean(axis=0) for v in VS])
    np.testing.assert_allclose(out, np.tile(means, (2, 1)) @ np.array(W_O, float), rtol=1e-14)
    with pytest.raises(ValueError) as caught:
        f(q=[np.zeros((2, 3)), np.zeros((2, 2))])
    assert str(caught.value) == "q[1] has shape (2, 3) but the spec's is (2, 2)"


def test_masked_fill_matches_torch_sdpa_with_a_float_mask() -> None:
    torch = pytest.importorskip("torch", reason="torch is optional")
    raw = SPECS["qkv masked_fill"]
    d = derive(AttentionSpec(**raw))
    for head, (q, k, v) in enumerate(zip(raw["q"], raw["k"], raw["v"]), start=1):
        t = [
            torch.tensor([[float(e) for e in r] for r in m], dtype=torch.float64) for m in (q, k, v)
        ]
        s = t[0] @ t[1].T / 2**0.5
        filled = s.masked_fill(torch.tensor(MASK) == 0, -1e9)
        bias = filled - s  # a float mask that gives masked_fill's scores
        out = torch.nn.functional.scaled_dot_product_attention(*t, attn_mask=bias)
        weights = torch.softmax(filled, dim=-1)
        np.testing.assert_allclose(_floats(d[f"head{head}.weights"]), weights.numpy(), rtol=1e-12)
        np.testing.assert_allclose(_floats(d[f"head{head}.output"]), out.numpy(), rtol=1e-12)
    assert d["head1.weights"].row(1) == sp.ImmutableMatrix([[sp.Rational(1, 3)] * 3])


def _torch_gradients(torch: object, name: str) -> dict[str, list[np.ndarray]]:
    """dL/dQ, dL/dK, dL/dV (L = the output's sum) by torch autograd of attention written here."""
    raw = SPECS[name]
    leaves = {
        key: [
            torch.tensor(
                [[float(e) for e in r] for r in m], dtype=torch.float64, requires_grad=True
            )
            for m in raw[key]
        ]
        for key in ("q", "k", "v")
    }
    heads = []
    for q, k, v in zip(leaves["q"], leaves["k"], leaves["v"]):
        s = q @ k.T / 2**0.5
        if "mask" in raw:
            s = s.masked_fill(torch.tensor(raw["mask"]) == 0, -1e9)
        heads.append(torch.softmax(s, dim=-1) @ v)
    out = torch.cat(heads, dim=1) @ torch.tensor(W_O, dtype=torch.float64)
    out.sum().backward()
    return {key: [t.grad.numpy() for t in ts] for key, ts in leaves.items()}


@pytest.mark.parametrize("name", ["qkv", "qkv masked_fill"])
def test_gradients_exact_and_compiled_match_torch_autograd(name: str) -> None:
    torch = pytest.importorskip("torch", reason="torch is optional")
    expected = _torch_gradients(torch, name)
    spec = AttentionSpec(**SPECS[name])
    d = derive(spec, gradients=True)
    for backend in ("numpy", "torch"):
        got = compile(spec, backend=backend, gradients=True)()
        for key in ("q", "k", "v"):
            for head in (1, 2):
                want = expected[key][head - 1]
                exact = _floats(d[f"grad.head{head}.{key}"])
                np.testing.assert_allclose(exact, want, rtol=1e-12, atol=1e-14)
                computed = np.asarray(got[key][head - 1])
                np.testing.assert_allclose(computed, want, rtol=1e-12, atol=1e-14)
        assert "x" not in got and sorted(got) == ["k", "loss", "q", "v", "w_o"]


def test_cli_derives_gradients_of_a_given_stage(tmp_path: Path, capsys) -> None:
    path = tmp_path / "qkv.toml"
    path.write_text(
        'q = [[1, 0], [0, 1]]\nk = [[1, 0], [0, 1]]\nv = [[1, 2, 3], [4, 5, 6]]\nmask = "causal"\n'
        'mask_fill = -1e9\n[loss]\nkind = "sum"\n',
        encoding="utf-8",
    )
    assert main(["derive", str(path), "--gradients", "--format", "md"]) == 0
    text = capsys.readouterr().out
    assert "Head 1's queries, given directly" in text and "grad.head1.q" in text


def test_the_draft_writer_writes_the_stage_keys_and_they_read_back() -> None:
    draft = Draft("doc.md", "Given Q, K and V")
    draft.set("heads", 2, "line 1")
    draft.set("q", QS, "line 3; line 4")
    draft.set("k", KS, "line 5; line 6")
    draft.set("v", VS, "line 7; line 8")
    draft.set("mask", MASK, "line 9")
    draft.set("mask_fill", "-1e9", "line 10: masked_fill(mask, -1e9)")
    draft.set("weights.w_o", W_O, "line 11")
    text = to_toml(draft)
    assert "mask_fill = -1e9  # line 10: masked_fill(mask, -1e9)" in text
    assert "    [[0, 1], [1, 1]], # head 2: line 4" in text
    spec = AttentionSpec.from_dict(parse_toml(text, "doc.toml"), source="doc.toml")
    reference = AttentionSpec(**SPECS["qkv masked_fill"])
    assert (spec.q, spec.k, spec.v) == (reference.q, reference.k, reference.v)
    assert spec.mask_fill == -(10**9) and spec.stage == "qkv"


@pytest.mark.parametrize("name", SPECS)
def test_check_holds_on_every_step_after_the_given_stage(name: str) -> None:
    """Each later step printed to 4 decimals from the oracle's floats: every claim holds."""
    d = derive(AttentionSpec(**SPECS[name]))
    later = [s.key for s in d.steps if s.kind != "input"]
    claims = {key: np.round(_floats(d[key]), 4).tolist() for key in later}
    report = check(d, claims)
    assert [c.key for c in report.claims] == later
    assert report.ok, [(c.key, c.verdict) for c in report.claims]
