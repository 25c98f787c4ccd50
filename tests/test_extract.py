"""extract on the five seed documents: the specs they give equal the built-in examples made
from them by hand (derivations, claims, verdicts), and each guess and note is the expected one."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic import AttentionSpec, check, derive
from mha_symbolic.check.claims import read_claims
from mha_symbolic.exact.derivation import unknown_key_message
from mha_symbolic.extract import extract, extract_all

SEEDS = Path(__file__).resolve().parent.parent.parent.parent / "shared" / "seeds"
LOCAL = Path(__file__).resolve().parent / "data" / "seeds"


def seed(number: str) -> Path:
    """The seed document (a copy is kept in tests/data/seeds for CI)."""
    return next(LOCAL.glob(f"{number}_*.txt"))


def entries(spec: AttentionSpec, table: dict) -> dict[tuple[str, int, int], str]:
    """Every claimed number as (step, row, column) -> the digits printed."""
    d = derive(spec)
    shapes = {s.key: s.shape for s in d.steps}
    out = {}
    for claim in read_claims(table, shapes, lambda k: unknown_key_message(k, list(shapes))):
        for i, row in enumerate(claim.sides[-1].rows):
            for j, printed in enumerate(row):
                out[(claim.step, *claim.position(i, j))] = printed.text
    return out


def same_derivation(a: AttentionSpec, b: AttentionSpec) -> None:
    da, db = derive(a), derive(b)
    assert [s.key for s in da.steps] == [s.key for s in db.steps]
    for key in da:
        assert da[key] == db[key], key


def test_000_equals_two_tokens_and_its_w_o_is_transposed_with_a_note() -> None:
    spec, notes = extract(seed("000"), "md")
    example = AttentionSpec.example("two-tokens")
    same_derivation(spec, example)
    assert spec.scale == "none" and spec.tokens == ("I", "love")
    # The prose's "a final embedding of [0.5, 0.5]" (line 170) is one more claim, on output row 1
    assert spec.claims["output[1]"] == "[0.5, 0.5]"
    found = entries(spec, {k: v for k, v in spec.claims.items() if k != "output[1]"})
    wanted = entries(example, dict(example.claims))
    assert {k: found[k] for k in wanted} == wanted
    assert notes[0] == (
        "W^O (line 147) is printed 2x4 but concat has 4 columns; its transpose 4x2 is used"
    )
    assert check(spec).ok and len(spec.claims) == 24
    assert not spec.assumed
    assert spec.printed_transposed == example.printed_transposed == {"w_o"}  # noted at W_O


def test_000_scale_comes_from_the_printed_numbers() -> None:
    (found,) = extract_all(seed("000"), "md")
    line = next(x for x in found.toml.splitlines() if x.startswith("scale"))
    assert line == (
        'scale = "none"  # the text does not say; 32 printed numbers hold with scale none, '
        "7 with sqrt_dk"
    )


def test_001_equals_one_token_with_the_head_outputs_as_assumptions() -> None:
    spec, notes = extract(seed("001"), "md")
    example = AttentionSpec.example("one-token")
    same_derivation(spec, example)
    assert dict(spec.claims) == {"concat[1]": "[0.5, 1.2, −0.4, 2.3]"}
    assert dict(spec.assumed) == {
        "head1.output[1]": "[0.5, 1.2]",
        "head2.output[1]": "[−0.4, 2.3]",
    }
    # The built-in example marks the same two outputs as assumed, and claims only concat
    # (its third assumption, output = concat W_O, is a formula, as split-scaled's is).
    assert entries(spec, dict(spec.claims)) == entries(example, dict(example.claims))
    assumed = {k: v for k, v in example.assumed.items() if k != "output"}
    assert entries(spec, dict(spec.assumed)) == entries(example, assumed)
    assert "W_O is named (line 68) but never printed: left out" in notes
    (found,) = extract_all(seed("001"), "md")
    assert (
        '# w_o = "symbolic"  # PLACEHOLDER: W_O is named (line 68) but never printed; '
        "without it output = concat" in found.toml.splitlines()
    )
    scale = next(x for x in found.toml.splitlines() if x.startswith("scale"))
    assert scale.endswith("guess: none (no scaling) fits the printed numbers as well")


def test_003_equals_split_scaled_with_head_2_assumed() -> None:
    spec, _ = extract(seed("003"), "md")
    example = AttentionSpec.example("split-scaled")
    same_derivation(spec, example)
    assert dict(spec.assumed) == {"head2.output": "[[0.60, 0.40], [0.40, 0.60]]"}
    assumed = {"head2.output": example.assumed["head2.output"]}  # the other is a formula
    assert entries(spec, dict(spec.assumed)) == entries(example, assumed)
    found, wanted = entries(spec, dict(spec.claims)), entries(example, dict(example.claims))
    assert {k: found[k] for k in wanted} == wanted
    extra = sorted({k[0] for k in set(found) - set(wanted)})
    assert extra == ["head1.k", "head1.q", "head1.v"]  # Q_1 = K_1 = V_1 = [[1, 0], [0, 1]]
    # Its concat rows carry the assumed head 2 output: consistent with it, not wrong.
    follows = [v.claim.key for v in check(spec).claims if v.verdict == "follows"]
    assert follows == ["concat[1]", "concat[2]"]
    assert check(spec).ok


def test_002_is_split_with_symbolic_weights_and_every_shape() -> None:
    (found,) = extract_all(seed("002"), "md")
    spec = found.spec
    example = AttentionSpec.example("eight-tokens-split")
    same_derivation(spec, example)
    assert (spec.layout, spec.heads, spec.scale) == ("split", 2, "sqrt_dk")
    assert spec.symbolic == {"w_q", "w_k", "w_v", "w_o"}
    shapes = found.draft.shapes
    assert shapes[:5] == [
        "line 36: X (8, 4) -> x as derived",
        "line 53: W_Q (4, 2) -> weights.w_q but it is (2, 2)",
        "line 57: W_K (4, 2) -> weights.w_k but it is (2, 2)",
        "line 61: W_V (4, 2) -> weights.w_v but it is (2, 2)",
        "line 67: X_{\\text{head1}} (8, 2) -> head1.x as derived",
    ]
    assert "line 91: \\text{Output}_1 (8, 2) -> head1.output as derived" in shapes
    assert len(shapes) == 20
    # the stated (4, 2) the products do not use becomes a note at the weights, as in the example
    assert (
        spec.printed_shapes
        == example.printed_shapes
        == dict.fromkeys(("w_q", "w_k", "w_v"), (4, 2))
    )


def test_004_has_no_numbers_and_offers_the_layout_it_describes() -> None:
    spec, notes = extract(seed("004"), "md")
    assert notes[0] == "the document prints no numbers: nothing to check"
    assert (spec.layout, spec.convention, spec.heads, spec.scale) == ("fused", "xWT", 2, "sqrt_dk")
    assert spec.query.shape == (4, 6)
    assert spec.symbolic == {"w_q", "w_k", "w_v", "w_o"}
    assert str(spec.query[1, 2]) == "x_{2,3}"
    assert not spec.claims


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the shared seeds folder is not on this machine")
def test_the_kept_copies_are_the_seeds() -> None:
    for path in LOCAL.glob("*.txt"):
        assert path.read_bytes() == (SEEDS / path.name).read_bytes()


def test_a_row_read_from_the_text_above_says_where() -> None:
    (found,) = extract_all(seed("000"), "md")
    lines = found.toml.splitlines()
    assert '"head1.weights[2]" = "[0.27, 0.73]"  # line 80 (row 2 from line 76): softmax' in lines
    assert '"head2.k[2]" = "[1, 0]"  # line 105: K2' in lines
