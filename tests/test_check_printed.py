"""Claims as notebooks and documents print them: numpy, torch, percentages, names, float32."""

from __future__ import annotations

import pytest

from mha_symbolic import check, derive
from mha_symbolic.check.claims import read_number
from mha_symbolic.errors import SpecError
from mha_symbolic.spec.attention import AttentionSpec

# head1.weights of the two-tokens example: [[e/(1+e), 1/(1+e)], [1/(1+e), e/(1+e)]]
# (0.7310585786..., 0.2689414213...); head1.scores is the identity.
D = derive(AttentionSpec.example("two-tokens"))

# Printed verbatim by numpy 2 and torch 2.13 (float64 unless a dtype says otherwise).
NUMPY_REPR = """array([[0.73105858, 0.26894142],
       [0.26894142, 0.73105858]])"""
NUMPY_STR = """[[0.73105858 0.26894142]
 [0.26894142 0.73105858]]"""
NUMPY_FLOAT32 = """array([[0.7310586 , 0.26894143],
       [0.26894143, 0.7310586 ]], dtype=float32)"""
TORCH_GRAD = """tensor([[0.7311, 0.2689],
        [0.2689, 0.7311]], dtype=torch.float64, grad_fn=<SoftmaxBackward0>)"""
TORCH_FLOAT = """tensor([[0.7311, 0.2689],
        [0.2689, 0.7311]])"""
TORCH_BATCH_OF_ONE = """tensor([[[1., 0.],
         [0., 1.]]])"""
NOTEBOOK_CELL = """Out[7]:
array([[0.73105858, 0.26894142],
       [0.26894142, 0.73105858]])"""


def verdict(key: str, value: object) -> str:
    return check(D, {key: value}).claims[0].verdict


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("head1.weights", NUMPY_REPR, "rounded"),
        ("head1.weights", NUMPY_STR, "rounded"),
        ("head1.weights", NUMPY_FLOAT32, "rounded"),
        ("head1.weights", TORCH_GRAD, "rounded"),
        ("head1.weights", TORCH_FLOAT, "rounded"),
        ("head1.scores", TORCH_BATCH_OF_ONE, "exact"),
        ("head1.weights", NOTEBOOK_CELL, "rounded"),
        ("head1.weights[1]", "[0.73105858 0.26894142]", "rounded"),
        ("head1.weights[1]", "[0.73105858 0.26894143]", "wrong"),  # 8 decimals: off by one
        ("head1.scores[1]", "[1.  0.]", "exact"),
        ("head1.weights[1,1]", "tensor(0.7311, dtype=torch.float64)", "rounded"),
        ("head1.weights[1,1]", "tensor(0.7312)", "wrong"),
        # numpy pads "0." to the array's precision: here 0 to one decimal holds for 0.0001...
        ("head1.weights[1]", "[0.7 0.3]", "rounded"),
    ],
)
def test_printed_arrays(key: str, value: str, expected: str) -> None:
    assert verdict(key, value) == expected


def test_array_wide_precision() -> None:
    """numpy's "0." beside "0.5" is 0 to one decimal, not a number with no decimals."""
    claim = check(D, {"head1.weights[1]": "[0.7 0. ]"}).claims[0]
    assert [e.claimed.exponent for e in claim.entries] == [-1, -1]
    assert [e.verdict for e in claim.entries] == ["rounded", "wrong"]
    wide = check(D, {"head1.weights[1]": "[0.7310586  0.26894142]"}).claims[0]
    assert [e.claimed.exponent for e in wide.entries] == [-8, -8]
    assert wide.verdict == "wrong"  # 0.73105860 is not 0.73105858 at eight decimals


def test_float32_print_is_judged_at_float32_precision() -> None:
    claim = check(D, {"head1.weights": NUMPY_FLOAT32}).claims[0]
    assert [e.claimed.exponent for e in claim.entries] == [-6, -6, -6, -6]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (r"\alpha_{\text{Hello}} = 0.7311", "rounded"),
        (r"\alpha_{12} = 0.7311", "rounded"),
        (r"\text{score}_{1,1} = 0.7311", "rounded"),
        (r"\mathrm{softmax}(1, 0)_1 \approx 0.7311", "rounded"),
        (r"73.11\%", "rounded"),
        (r"73.12\%", "wrong"),
        ("73.1%", "rounded"),
        ("~0.73", "rounded"),
        ("≈ 0.73", "rounded"),
        ("~1", "rounded"),  # approximately 1: to its last digit
        ("1", "wrong"),  # an integer is exact
        ("1e0", "wrong"),  # like "1": 0.7311 prints as 7e-1
        ("7e-1", "rounded"),
        ("7.31e-1", "rounded"),
    ],
)
def test_names_percentages_approximations(value: str, expected: str) -> None:
    assert verdict("head1.weights[1,1]", value) == expected


def test_unicode_minus() -> None:
    assert read_number("−0.25").value == read_number("-0.25").value
    assert verdict("head1.weights[1,2]", "−0.2689") == "wrong"
    assert verdict("head1.scores[1,2]", "−0") == "exact"


def test_scientific_decade() -> None:
    """Scientific notation claims its first digit's decade; values below it are finer."""
    assert read_number("1e0").significant
    assert not read_number("1.0").significant
    assert verdict("head1.weights[1,2]", "3e-1") == "rounded"  # 0.2689 -> 3e-1
    assert verdict("head1.weights[1,1]", "1.e+00") == "wrong"  # 0.7311 -> 7.e-01


def test_float32_scalars_are_judged_at_float32_precision() -> None:
    np = pytest.importorskip("numpy")
    assert verdict("head1.weights[1,1]", np.float32(0.73)) == "rounded"
    assert verdict("head1.weights[1,1]", np.float32(0.7310586)) == "rounded"
    assert verdict("head1.weights[1,1]", np.float32(0.7310620)) == "wrong"
    # float32 keeps six digits: 0.7310589 claims 0.731059; as a float64 it claims 7 decimals.
    assert verdict("head1.weights[1,1]", np.float32(0.7310589)) == "rounded"
    assert verdict("head1.weights[1,1]", np.float64(0.7310589)) == "wrong"
    weights = np.array([[0.7310586, 0.26894143], [0.26894143, 0.7310586]], dtype=np.float32)
    assert verdict("head1.weights", weights) == "rounded"


def test_torch_float32_tensor_claims() -> None:
    torch = pytest.importorskip("torch")
    weights = torch.softmax(torch.tensor([[1.0, 0.0], [0.0, 1.0]]), dim=-1)
    assert verdict("head1.weights", weights) == "rounded"
    assert verdict("head1.weights", weights.double() + 1e-6) == "wrong"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "tensor([[1., 0.], [0., 1.]], device=cuda:0)",
            "claim 'head1.scores': cannot read 'device=cuda:0' in the printed tensor",
        ),
        (
            "tensor([[[1., 0.], [0., 1.]], [[1., 0.], [0., 1.]]])",
            "claim 'head1.scores': a printed array of shape (2, 2, 2); claim one matrix per "
            "key (one head, one batch element), or a (heads, L, L) print under a key without its "
            "head ('weights')",
        ),
        (
            "[[1. 0.]\n [0.]]",
            "claim 'head1.scores': row 2 of \"[[1. 0.]\n [0.]]\" has 1 entries but row 1 has 2",
        ),
    ],
)
def test_bad_prints_are_named(value: str, message: str) -> None:
    with pytest.raises(SpecError) as error:
        check(D, {"head1.scores": value})
    assert str(error.value) == message


# torch 2.13's print of attention weights shaped (batch 1, heads 2, L, L).
TORCH_HEADS = """tensor([[[[0.7311, 0.2689],
          [0.2689, 0.7311]],

         [[0.7311, 0.2689],
          [0.2689, 0.7300]]]], dtype=torch.float64)"""


def test_a_print_by_head_is_one_claim_per_head() -> None:
    report = check(D, {"weights": TORCH_HEADS})
    assert [(c.key, c.verdict) for c in report.claims] == [
        ("head1.weights", "rounded"),
        ("head2.weights", "wrong"),
    ]
    assert [e.verdict for e in report.claims[1].entries] == ["rounded"] * 3 + ["wrong"]
    with pytest.raises(SpecError) as error:
        check(D, {"weights": "[[[[1., 0.], [0., 1.]]], [[[1., 0.], [0., 1.]]]]"})
    assert str(error.value) == (
        "claim 'weights': unknown step key 'weights'; did you mean 'head2.weights', "
        "'head1.weights'?"
    )
    with pytest.raises(SpecError) as error:
        check(D, {"scores": "[[[1., 0.], [0., 1.]], [[1., 0.], [0., 1.]], [[1., 0.], [0., 1.]]]"})
    assert str(error.value) == "claim 'scores': a print of 3 heads; the attention has 2"
