"""Python inputs: from_torch takes tensors, NumPy arrays and nested lists; compile()'s call
refuses complex numbers, NaN or +inf in additive masks, and empty sequences; locale text is
filled with plain names only."""

from __future__ import annotations

import numpy as np
import pytest

from mha_symbolic import AttentionSpec, compile, derive
from mha_symbolic.errors import SpecError
from mha_symbolic.language.locales import fill

X = [[1.0, 0.5, -0.25, 2.0], [0.0, 1.0, 0.75, -1.0], [0.5, -0.5, 1.0, 0.25]]


def _module():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    return torch, torch.nn.MultiheadAttention(4, 2).eval()


def _values(spec: AttentionSpec) -> dict:
    d = derive(spec)
    return {key: d[key] for key in ("x", "q", "output")}


# ------------------------------------------------------------------ from_torch
@pytest.mark.parametrize("kind", ["numpy", "list", "tuple", "float32 numpy", "batch of one"])
def test_from_torch_reads_arrays_and_lists_as_it_reads_tensors(kind):
    torch, module = _module()
    tensor = torch.tensor(X, dtype=torch.float64)
    given = {
        "numpy": np.array(X),
        "list": X,
        "tuple": tuple(tuple(row) for row in X),
        "float32 numpy": np.array(X, dtype=np.float32),  # every entry exact in float32
        "batch of one": np.array(X)[:, None, :],  # (L, 1, E): batch_first=False
    }[kind]
    assert _values(AttentionSpec.from_torch(module, given)) == _values(
        AttentionSpec.from_torch(module, tensor)
    )


def test_from_torch_reads_masks_given_as_arrays_and_lists():
    torch, module = _module()
    x = torch.tensor(X, dtype=torch.float64)
    blocked = [[False, True, False]] * 3
    from_tensor = AttentionSpec.from_torch(module, x, attn_mask=torch.tensor(blocked))
    from_array = AttentionSpec.from_torch(module, x, attn_mask=np.array(blocked))
    from_floats = AttentionSpec.from_torch(
        module, x, attn_mask=np.where(np.array(blocked), -np.inf, 0.0)
    )
    assert from_tensor.mask == from_array.mask == from_floats.mask
    assert from_array.mask.tolist() == [[1, 0, 1]] * 3
    padded = AttentionSpec.from_torch(module, x, key_padding_mask=[0, 0, 1])
    assert padded.mask.tolist() == [[1, 1, 0]] * 3


@pytest.mark.parametrize(
    ("given", "error", "message"),
    [
        (
            "abc",
            TypeError,
            "query must be a torch.Tensor, a NumPy array or a nested list of numbers, got str",
        ),
        (
            5,
            TypeError,
            "query must be a torch.Tensor, a NumPy array or a nested list of numbers, got int",
        ),
        (
            {"x": 1},
            TypeError,
            "query must be a torch.Tensor, a NumPy array or a nested list of numbers, got dict",
        ),
        (np.array(X) * 1j, TypeError, "query has complex dtype complex128; attention here is real"),
        (np.array([["a"] * 4] * 3), TypeError, "query must hold numbers, got dtype <U1"),
        (
            [[1.0, 2.0, 3.0, 4.0], [1.0]],
            SpecError,
            "from_torch: query: the rows of the nested list have different lengths",
        ),
        (
            np.zeros((2, 2, 2, 4)),
            SpecError,
            "from_torch: query has shape (2, 2, 2, 4); expected (L, E) or a batch of one",
        ),
    ],
)
def test_from_torch_refuses_other_inputs_saying_what_it_takes(given, error, message):
    _, module = _module()
    with pytest.raises(error) as raised:
        AttentionSpec.from_torch(module, given)
    assert str(raised.value) == message


def test_from_torch_refuses_a_complex_tensor_and_a_text_mask():
    torch, module = _module()
    with pytest.raises(TypeError) as raised:
        AttentionSpec.from_torch(module, torch.zeros(3, 4, dtype=torch.complex64))
    assert (
        str(raised.value) == "query is a complex tensor (torch.complex64); attention here is real"
    )
    with pytest.raises(TypeError) as raised:
        AttentionSpec.from_torch(module, X, attn_mask="causal")
    assert str(raised.value) == (
        "attn_mask must be a torch.Tensor, a NumPy array or a nested list of numbers, got str"
    )


# ------------------------------------------------------------------ compile()'s call
SPEC = AttentionSpec.example("two-tokens")
EYE = np.eye(2)
REFUSALS = [
    (
        "complex query",
        (EYE * (1 + 1j),),
        {},
        "query has complex dtype complex128; attention here is real",
    ),
    (
        "complex key",
        (EYE, EYE.astype(np.complex64)),
        {},
        "key has complex dtype complex64; attention here is real",
    ),
    ("text query", (np.array([["a", "b"]]),), {}, "query is not an array of numbers (dtype <U1)"),
    (
        "empty query",
        (np.zeros((0, 2)),),
        {},
        "query has shape (0, 2): an empty sequence (0 tokens); attention needs at least one token",
    ),
    (
        "empty key",
        (EYE, np.zeros((0, 2))),
        {},
        "key has shape (0, 2): an empty sequence (0 tokens); attention needs at least one token",
    ),
    (
        "empty batch of sequences",
        (np.zeros((3, 0, 2)),),
        {},
        "query has shape (3, 0, 2): an "
        "empty sequence (0 tokens); attention needs at least one token",
    ),
    (
        "NaN mask",
        (EYE,),
        {"mask": np.array([[0.0, np.nan], [0.0, 0.0]])},
        "mask holds NaN; an additive mask holds 0, -inf (blocked) or finite biases",
    ),
    (
        "+inf mask",
        (EYE,),
        {"mask": np.array([[0.0, np.inf], [0.0, 0.0]])},
        "mask holds +inf; an additive mask holds 0, -inf (blocked) or finite biases",
    ),
    (
        "complex mask",
        (EYE,),
        {"mask": np.zeros((2, 2), dtype=complex)},
        "mask has complex dtype complex128; attention here is real",
    ),
    (
        "complex weight",
        (EYE,),
        {"w_o": np.eye(4, 2) * 1j},
        "w_o has complex dtype complex128; attention here is real",
    ),
]


@pytest.mark.parametrize(
    ("args", "kwargs", "message"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_compiled_numpy_call_refuses_with_a_clear_value_error(args, kwargs, message):
    f = compile(SPEC, backend="numpy")
    with pytest.raises(ValueError) as raised:
        f(*args, **kwargs)
    assert str(raised.value) == message


def test_compiled_numpy_call_still_takes_finite_biases_and_blocked_keys():
    f = compile(SPEC, backend="numpy")
    plain = f(EYE)
    assert np.isfinite(f(EYE, mask=np.array([[0.0, -np.inf], [0.5, 0.0]]))).all()
    assert np.allclose(f(EYE, mask=np.zeros((2, 2))), plain)


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("complex", "query has complex dtype torch.complex128; attention here is real"),
        (
            "empty",
            "query has shape (0, 2): an empty sequence (0 tokens); attention needs "
            "at least one token",
        ),
        ("nan", "mask holds NaN; an additive mask holds 0, -inf (blocked) or finite biases"),
        ("inf", "mask holds +inf; an additive mask holds 0, -inf (blocked) or finite biases"),
    ],
)
def test_compiled_torch_call_refuses_with_a_clear_value_error(case, message):
    torch = pytest.importorskip("torch")
    eye = torch.eye(2, dtype=torch.float64)
    call = {
        "complex": ((eye.to(torch.complex128),), {}),
        "empty": ((torch.zeros(0, 2, dtype=torch.float64),), {}),
        "nan": ((eye,), {"mask": torch.tensor([[0.0, float("nan")], [0.0, 0.0]])}),
        "inf": ((eye,), {"mask": torch.tensor([[0.0, float("inf")], [0.0, 0.0]])}),
    }[case]
    f = compile(SPEC, backend="torch")
    with pytest.raises(ValueError) as raised:
        f(*call[0], **call[1])
    assert str(raised.value) == message


# ------------------------------------------------------------------ locale text
def test_fill_substitutes_plain_names_and_braces():
    assert fill("Head {head}: {{x}} {head}", head=2) == "Head 2: {x} 2"
    assert fill("$W_{{{letter}h,ij}}$", letter="Q") == "$W_{Qh,ij}$"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "{head.__class__}",
            "en.toml: [text] head: placeholder {head.__class__} is not a plain "
            "name; locale text may only use {name}",
        ),
        (
            "{head[0]}",
            "en.toml: [text] head: placeholder {head[0]} is not a plain name; locale "
            "text may only use {name}",
        ),
        (
            "{head!r}",
            "en.toml: [text] head: placeholder {head!r} is not a plain name; locale "
            "text may only use {name}",
        ),
        (
            "{head:>{width}}",
            "en.toml: [text] head: placeholder {head:>{width}} is not a plain "
            "name; locale text may only use {name}",
        ),
        ("{nope}", "en.toml: [text] head: unknown placeholder {nope}; it may use {head}"),
        ("{head", "en.toml: [text] head: expected '}' before end of string in '{head'"),
        ("head}", "en.toml: [text] head: Single '}' encountered in format string in 'head}'"),
    ],
)
def test_fill_refuses_anything_but_a_plain_name(text, message):
    with pytest.raises(SpecError) as raised:
        fill(text, "en.toml: [text] head", head=1)
    assert str(raised.value) == message
    with pytest.raises(SpecError):
        fill(5, "en.toml: [text] head")
