"""An independent float64 NumPy multi-head attention, written from the raw spec dict."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np


def _num(value: Any) -> float:
    return float(Fraction(value)) if isinstance(value, str) else float(value)


def _arr(value: Any) -> np.ndarray:
    return np.array([[_num(v) for v in row] for row in value], dtype=np.float64)


def _vec(value: Any) -> np.ndarray:
    return np.array([_num(v) for v in value], dtype=np.float64)


def mha(raw: dict[str, Any]) -> np.ndarray:
    """softmax(s (X_q W_q)(X_k W_k)^T + mask)(X_v W_v) per head, concatenated, times W_O."""
    h = raw.get("heads", 1)
    layout = raw.get("layout", "per_head")
    transpose = raw.get("convention", "xW") == "xWT"
    w = raw.get("weights", {})
    if "x" in raw:
        xq = xk = xv = _arr(raw["x"])
    else:
        xq, xk = _arr(raw["query"]), _arr(raw["key"])
        xv = _arr(raw.get("value", raw["key"]))

    def weight(name: str, i: int | None, rows: int) -> np.ndarray:
        if name not in w:
            return np.eye(rows)
        m = _arr(w[name] if i is None else w[name][i])
        return m.T if transpose else m

    def bias(name: str, i: int | None, width: int) -> np.ndarray:
        if name not in w:
            return np.zeros(width)
        flat = _vec(w[name])
        if i is None or layout == "fused":
            return flat
        return flat[i * width : (i + 1) * width]

    heads_qkv = []
    if layout == "fused":
        full = {}
        for n, x in zip("qkv", (xq, xk, xv)):
            p = x @ weight(f"w_{n}", None, x.shape[1])
            full[n] = p + bias(f"b_{n}", None, p.shape[1])
        for i in range(h):
            heads_qkv.append(tuple(np.split(full[n], h, axis=1)[i] for n in "qkv"))
    else:
        for i in range(h):
            parts = []
            for n, x in zip("qkv", (xq, xk, xv)):
                xi = np.split(x, h, axis=1)[i] if layout == "split" else x
                p = xi @ weight(f"w_{n}", i, xi.shape[1])
                parts.append(p + bias(f"b_{n}", i, p.shape[1]))
            heads_qkv.append(tuple(parts))

    outputs = []
    for q, k, v in heads_qkv:
        scale = raw.get("scale", "sqrt_dk")
        s = {"sqrt_dk": 1 / np.sqrt(q.shape[1]), "none": 1.0}.get(scale)
        logits = (q @ k.T) * (s if s is not None else _num(scale))
        mask = raw.get("mask", "none")
        if mask == "causal":
            allowed = np.tril(np.ones(logits.shape, dtype=bool))
        elif mask == "none":
            allowed = np.ones(logits.shape, dtype=bool)
        else:
            allowed = np.array(mask, dtype=bool)
        logits = np.where(allowed, logits, -np.inf)
        logits = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        outputs.append((p / p.sum(axis=1, keepdims=True)) @ v)
    concat = np.concatenate(outputs, axis=1)
    if "w_o" not in w:
        return concat
    wo = _arr(w["w_o"])
    out = concat @ (wo.T if transpose else wo)
    return out + bias("b_o", None, out.shape[1])
