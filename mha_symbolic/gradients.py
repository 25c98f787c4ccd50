"""Exact backpropagation through multi-head attention: the loss and the ``grad.*`` steps.

Notation: ``\\bar{Y}`` is the gradient dL/dY of the scalar loss L, a matrix of Y's shape.
Every backward step is one rule of the chain rule applied to a forward step (``Y = X W`` gives
``\\bar{X} = \\bar{Y} W^\\top`` and ``\\bar{W} = X^\\top \\bar{Y}``; the row softmax gives
``\\bar{s}_r = (\\operatorname{diag}(a_r) - a_r^\\top a_r)\\, \\bar{a}_r``), so its formula is a
structural matrix expression over the forward symbols and its value is exact.

Values are kept compact the way :mod:`mha_symbolic.ops` keeps the forward pass: an entry is a
sum over denominators (products of softmax row sums) of exps with collected coefficients, so a
softmax gradient reads ``-e / (2 (1 + e)^2)`` rather than a nest of quotients, and terms that
cancel give an exact 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp
from sympy import ImmutableMatrix as Matrix
from sympy.matrices.expressions.matexpr import MatrixExpr

from mha_symbolic import ops
from mha_symbolic.derivation import Derivation, Step
from mha_symbolic.locale import step_title
from mha_symbolic.spec import AttentionSpec, Loss

# ------------------------------------------------------------------ exact arithmetic
# A Form is one exact entry: {denominator: {exponent: coefficient}}, meaning
# sum over denominators D of (sum over exponents a of coefficient * e^a) / D.
Form = dict[sp.Expr, dict[sp.Expr, sp.Expr]]
Forms = list[list[Form]]

_ONE, _ZERO = sp.Integer(1), sp.Integer(0)


def constant(value: sp.Expr) -> Form:
    return {_ONE: {_ZERO: sp.sympify(value)}} if value != 0 else {}


def _add_into(total: Form, form: Form, factor: sp.Expr = _ONE) -> None:
    for denominator, terms in form.items():
        group = total.setdefault(denominator, {})
        for exponent, c in terms.items():
            group[exponent] = group.get(exponent, _ZERO) + factor * c


def _pruned(form: Form) -> Form:
    out = {}
    for denominator, terms in form.items():
        kept = {a: c for a, c in terms.items() if c != 0}
        if kept:
            out[denominator] = kept
    return out


def add(*forms: Form, factors: tuple[sp.Expr, ...] | None = None) -> Form:
    total: Form = {}
    for form, factor in zip(forms, factors or (_ONE,) * len(forms)):
        _add_into(total, form, factor)
    return _pruned(total)


def multiply(left: Form, right: Form) -> Form:
    total: Form = {}
    for d1, terms1 in left.items():
        for d2, terms2 in right.items():
            group = total.setdefault(d1 * d2, {})
            for a1, c1 in terms1.items():
                for a2, c2 in terms2.items():
                    exponent = a1 + a2
                    group[exponent] = group.get(exponent, _ZERO) + c1 * c2
    return _pruned(total)


def value(form: Form) -> sp.Expr:
    """The exact entry: per denominator, the exps summed with their contents factored out."""
    parts = []
    for denominator, terms in _common(form).items():
        pairs = [(sp.exp(a), _tidy(c)) for a, c in terms.items()]
        total = ops.linear_sum(pairs)
        if total.primitive == 0:
            continue
        whole = _ratio(total.primitive, denominator)
        if whole is not None:
            parts.append(total.content * whole)
        elif denominator == 1:
            parts.append(total.value)
        else:
            parts.append(sp.Mul(total.content, total.primitive, sp.Pow(denominator, -1)))
    return sp.Add(*parts) if parts else _ZERO


def _ratio(numerator: sp.Expr, denominator: sp.Expr) -> sp.Expr | None:
    """+-1 when the numerator is the denominator or its negative (multiplied out), else None."""
    if numerator == denominator:
        return _ONE
    expanded = sp.expand(denominator) if denominator.is_Pow or denominator.is_Mul else denominator
    if numerator == expanded:
        return _ONE
    if numerator == -expanded:
        return -_ONE
    return None


def _powers(denominator: sp.Expr) -> dict[sp.Expr, int]:
    return {} if denominator == 1 else dict(denominator.as_powers_dict())


def _common(form: Form) -> Form:
    """One fraction when one denominator holds every row sum of the others
    (``a/Z + b/Z^2 + c`` is written over ``Z^2``); otherwise a fraction per denominator."""
    if len(form) < 2:
        return form
    powers = {d: _powers(d) for d in form}
    widest = max(powers.values(), key=len)
    if not all(set(p) <= set(widest) for p in powers.values()):
        return form
    lcm = {base: max(p.get(base, 0) for p in powers.values()) for base in widest}
    common = sp.Mul(*(sp.Pow(base, k) for base, k in lcm.items()))
    total: Form = {}
    for denominator, terms in form.items():
        lifted: Form = {_ONE: terms}
        for base, k in lcm.items():
            for _ in range(k - powers[denominator].get(base, 0)):
                lifted = multiply(lifted, {_ONE: _numerator(base)})
        _add_into(total, {common: lifted.get(_ONE, {})})
    return _pruned(total)


def _numerator(expr: sp.Expr) -> dict[sp.Expr, sp.Expr]:
    """A sum of (rational multiples of) exps as {exponent: coefficient}."""
    out: dict[sp.Expr, sp.Expr] = {}
    for term in sp.Add.make_args(expr):
        c, atom = term.as_coeff_Mul()
        a, extra = _exponent(atom)
        out[a] = out.get(a, _ZERO) + c * extra
    return out


def _tidy(c: sp.Expr) -> sp.Expr:
    """A coefficient with symbols multiplied out (through Poly: much faster than expand)."""
    if not c.free_symbols:
        return c
    try:
        return sp.Poly(c, *sorted(c.free_symbols, key=str)).as_expr()
    except sp.PolynomialError:  # not a polynomial in its symbols (1/tau, say)
        return sp.expand(c)


def constants(matrix: sp.MatrixBase) -> Forms:
    return [[constant(matrix[i, j]) for j in range(matrix.cols)] for i in range(matrix.rows)]


def matmul(left: Forms, right: Forms) -> Forms:
    inner = len(right)
    cols = len(right[0]) if right else 0
    return [
        [add(*(multiply(row[k], right[k][j]) for k in range(inner))) for j in range(cols)]
        for row in left
    ]


def transpose(forms: Forms) -> Forms:
    return [list(col) for col in zip(*forms)]


def combine(left: Forms, right: Forms, factor: sp.Expr = _ONE) -> Forms:
    """left + factor * right, entrywise."""
    return [
        [add(a, b, factors=(_ONE, factor)) for a, b in zip(row_a, row_b)]
        for row_a, row_b in zip(left, right)
    ]


def times(forms: Forms, factor: sp.Expr) -> Forms:
    return [[add(f, factors=(factor,)) for f in row] for row in forms]


def hstack(blocks: list[Forms]) -> Forms:
    return [[f for block in blocks for f in block[i]] for i in range(len(blocks[0]))]


def columns(forms: Forms, start: int, stop: int) -> Forms:
    return [row[start:stop] for row in forms]


def column_sums(forms: Forms) -> Forms:
    """1^T Y: one row of column sums (the gradient of a bias added to every row)."""
    return [[add(*col) for col in zip(*forms)]]


def matrix(forms: Forms) -> Matrix:
    return Matrix([[value(f) for f in row] for row in forms])


def _exponent(e: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(a, c) with e = c * e^a, for an exp of the forward softmax."""
    if e == 1:
        return _ZERO, _ONE
    if e == sp.E:
        return _ONE, _ONE
    if isinstance(e, sp.exp):
        return e.args[0], _ONE
    return _ZERO, e


def softmax_forms(softmax: ops.Softmax) -> Forms:
    """The weights a_rj = e_rj / Z_r, each row over its own row sum Z_r."""
    rows = []
    for exps, total in zip(softmax.exps, softmax.sums):
        z = total.value
        row = []
        for e in exps:
            a, c = _exponent(e)
            row.append({z: {a: c}} if e != 0 else {})
        rows.append(row)
    return rows


def softmax_backward(weights: ops.Softmax, grad: Forms) -> Forms:
    """Row r: (diag(a_r) - a_r^T a_r) abar_r, i.e. a_j (abar_j - sum_k a_k abar_k), written as
    e_j (Z abar_j - sum_k e_k abar_k) / Z^2 so that equal terms cancel exactly.

    A blocked position has e_j = 0, so its gradient is exactly 0.
    """
    out = []
    for exps, total, g_row in zip(weights.exps, weights.sums, grad):
        z = total.value
        atoms = [{_ONE: dict([_exponent(e)])} if e != 0 else {} for e in exps]
        dot = add(*(multiply(e, g) for e, g in zip(atoms, g_row)))
        z_form = {_ONE: _numerator(z)}
        row = []
        for e, g in zip(atoms, g_row):
            inner = add(multiply(g, z_form), dot, factors=(_ONE, -_ONE))
            row.append(multiply({z**2: e[_ONE]} if e else {}, inner))
        out.append(row)
    return out


def squares(forms: Forms) -> Form:
    """The sum of the squared entries."""
    return add(*(multiply(f, f) for row in forms for f in row))


# ------------------------------------------------------------------ structural nodes
class SoftmaxBackward(MatrixExpr):
    """The row softmax's backward rule: ``A \\circ (\\bar{A} - (A \\circ \\bar{A}) 1 1^T)``."""

    def __new__(cls, weights: Any, grad: Any) -> SoftmaxBackward:
        return MatrixExpr.__new__(cls, weights, grad)

    @property
    def shape(self) -> tuple[Any, Any]:
        return self.args[0].shape

    def _latex(self, printer: Any) -> str:
        a, g = (printer._print(m) for m in self.args)
        ones = r"\mathbf{1}\mathbf{1}^{\top}"
        return rf"{a} \circ \left({g} - \left({a} \circ {g}\right) {ones}\right)"

    def _sympystr(self, printer: Any) -> str:
        a, g = (printer._print(m) for m in self.args)
        return f"softmax_backward({a}, {g})"


class HalfSquaredNorm(sp.Expr):
    """``\\frac{1}{2} \\lVert M \\rVert^2``, the sum of the squared entries halved."""

    def __new__(cls, arg: Any) -> HalfSquaredNorm:
        return sp.Expr.__new__(cls, arg)

    def _latex(self, printer: Any) -> str:
        return rf"\frac{{1}}{{2}} \left\lVert {printer._print(self.args[0])} \right\rVert^{{2}}"

    def _sympystr(self, printer: Any) -> str:
        return f"half_squared_norm({printer._print(self.args[0])})"


def _ones_t(rows: int) -> sp.Basic:
    """1^T, the row of ``rows`` ones that sums a matrix's columns."""
    return sp.Transpose(sp.OneMatrix(rows, 1))


def evaluate(expr: sp.Basic, values: Mapping[sp.Basic, Any]) -> Any:
    """A step formula evaluated with explicit matrices (``values``: symbol -> value).

    Used to compute the gradients numerically from stable forward values (see lambdify).
    """
    if isinstance(expr, sp.MatrixSymbol):
        return Matrix(values[expr])
    if isinstance(expr, sp.OneMatrix):
        return Matrix(sp.ones(*expr.shape))
    if isinstance(expr, sp.Transpose):
        return evaluate(expr.arg, values).T
    if isinstance(expr, sp.MatrixSlice):
        rows, cols = expr.rowslice, expr.colslice
        return Matrix(evaluate(expr.parent, values)[rows[0] : rows[1], cols[0] : cols[1]])
    if isinstance(expr, sp.BlockMatrix):
        return Matrix(sp.Matrix.hstack(*(evaluate(b, values) for b in expr.blocks)))
    if isinstance(expr, sp.MatMul):
        product: Any = _ONE
        for arg in expr.args:
            factor = evaluate(arg, values)
            product = product * factor
        return Matrix(product)
    if isinstance(expr, sp.MatAdd):
        parts = [evaluate(arg, values) for arg in expr.args]
        return Matrix(sum(parts[1:], parts[0]))
    if isinstance(expr, SoftmaxBackward):
        a, g = (evaluate(arg, values) for arg in expr.args)
        dots = [sum(a[r, k] * g[r, k] for k in range(a.cols)) for r in range(a.rows)]
        return Matrix(a.rows, a.cols, lambda r, j: a[r, j] * (g[r, j] - dots[r]))
    if isinstance(expr, HalfSquaredNorm):
        m = evaluate(expr.args[0], values)
        return Matrix([[sum(e**2 for e in m) / 2]])
    return expr.xreplace({k: v for k, v in values.items() if not isinstance(v, sp.MatrixBase)})


# ------------------------------------------------------------------ the backward pass
def loss_of(spec: AttentionSpec) -> Loss:
    """The spec's loss; without a [loss] table, the sum of the output's entries."""
    return spec.loss if spec.loss is not None else Loss()


class _Backward:
    """Walks the forward steps backwards, appending one exact step per chain-rule rule."""

    def __init__(self, d: Derivation) -> None:
        self.d = d
        self.spec = d.spec
        self.steps: list[Step] = []
        self.bindings: dict[sp.Basic, Any] = {}
        self.leaves = {str(symbol): symbol for symbol in d.bindings}
        self.heads = self.spec.heads
        self.softmaxes = [self.softmax(n) for n in self._numbers()]
        self.weights = [softmax_forms(softmax) for softmax in self.softmaxes]
        self.values = [constants(d[f"head{n}.v"]) for n in self._numbers()]
        self.own: dict[str, tuple[sp.MatrixSymbol, Forms]] = {}

    def _numbers(self) -> range:
        return range(1, self.heads + 1)

    def softmax(self, n: int) -> ops.Softmax:
        logits = f"head{n}.masked" if f"head{n}.masked" in self.d else f"head{n}.scaled"
        return ops.row_softmax(self.d[logits])

    def sym(self, key: str) -> sp.MatrixSymbol:
        return self.own[key][0] if key in self.own else self.d.step(key).symbol

    def add(
        self, key: str, name: str, formula: sp.Basic, forms: Forms, head: int | None = None
    ) -> tuple[sp.MatrixSymbol, Forms]:
        value = matrix(forms)
        symbol = sp.MatrixSymbol(name, value.rows, value.cols)
        kind = "loss" if key == "loss" else "grad"
        self.steps.append(Step(key, step_title(key, head), kind, symbol, formula, value, head))
        self.own[key] = (symbol, forms)
        return symbol, forms

    # ---------------------------------------------------------------- output side
    def run(self) -> Derivation:
        heads = [matmul(a, v) for a, v in zip(self.weights, self.values)]
        concat = hstack(heads)
        output = self.output_forms(concat)
        o_bar = self.loss(output)
        c_bar = self.output_projection(concat, o_bar)
        grads = [self.head(n, c_bar) for n in self._numbers()]
        if self.spec.layout == "fused":
            self.fused(grads)
        else:
            self.per_head(grads)
        return Derivation(
            self.spec,
            self.d.steps + tuple(self.steps),
            {**self.d.bindings, **self.bindings},
        )

    def output_forms(self, concat: Forms) -> Forms:
        if not self.spec.has_output_projection:
            return concat
        out = matmul(concat, constants(self.spec.effective("w_o")))
        if "b_o" in self.spec.weights:
            bias = constants(sp.ones(len(out), 1) * self.spec.weights["b_o"][0])
            out = combine(out, bias)
        return out

    def loss(self, output: Forms) -> Forms:
        loss = loss_of(self.spec)
        o = self.sym("output")
        rows, cols = o.shape
        if loss.kind == "sum":
            total = [[add(*(f for row in output for f in row))]]
            formula = sp.MatMul(_ones_t(rows), o, sp.OneMatrix(cols, 1))
            self.add("loss", "L", formula, total)
            ones = constants(sp.ones(rows, cols))
            return self.add("grad.output", r"\bar{O}", sp.OneMatrix(rows, cols), ones)[1]
        assert loss.target is not None
        t = sp.MatrixSymbol("T", rows, cols)
        self.bindings[t] = loss.target
        residual = combine(output, constants(loss.target), -_ONE)
        difference = sp.MatAdd(o, sp.MatMul(-1, t))
        half = add(squares(residual), factors=(sp.Rational(1, 2),))
        self.add("loss", "L", HalfSquaredNorm(difference), [[half]])
        return self.add("grad.output", r"\bar{O}", difference, residual)[1]

    def output_projection(self, concat: Forms, o_bar: Forms) -> Forms:
        o_sym, c_sym = self.sym("grad.output"), self.sym("concat")
        if not self.spec.has_output_projection:
            return self.add("grad.concat", r"\bar{C}", o_sym, o_bar)[1]
        w = self.leaves["W_{O}"]
        xwt = self.spec.convention == "xWT"
        w_bar = matmul(transpose(concat), o_bar)
        if "w_o" not in self.spec.omitted:
            formula = sp.MatMul(o_sym.T, c_sym) if xwt else sp.MatMul(c_sym.T, o_sym)
            self.add("grad.w_o", r"\bar{W}_{O}", formula, transpose(w_bar) if xwt else w_bar)
        if "b_o" in self.spec.weights:
            self.add(
                "grad.b_o",
                r"\bar{b}_{O}",
                sp.MatMul(_ones_t(len(o_bar)), o_sym),
                column_sums(o_bar),
            )
        effective = constants(self.spec.effective("w_o").T)
        formula = sp.MatMul(o_sym, w) if xwt else sp.MatMul(o_sym, w.T)
        return self.add("grad.concat", r"\bar{C}", formula, matmul(o_bar, effective))[1]

    # ---------------------------------------------------------------- one head
    def head(self, n: int, c_bar: Forms) -> dict[str, Forms]:
        """dL/dQ_n, dL/dK_n, dL/dV_n through head n's attention."""
        i = n - 1
        width = self.d[f"head{n}.output"].cols
        start = sum(self.d[f"head{m}.output"].cols for m in range(1, n))
        c_sym = self.sym("grad.concat")
        h_sym, h_bar = self.add(
            f"grad.head{n}.output",
            rf"\overline{{\mathrm{{head}}}}_{{{n}}}",
            c_sym[:, start : start + width],
            columns(c_bar, start, start + width),
            n,
        )
        a_sym, v_sym = self.sym(f"head{n}.weights"), self.sym(f"head{n}.v")
        a, v = self.weights[i], self.values[i]
        v_bar = matmul(transpose(a), h_bar)
        self.add(f"grad.head{n}.v", rf"\bar{{V}}_{{{n}}}", sp.MatMul(a_sym.T, h_sym), v_bar, n)
        a_bar_sym, a_bar = self.add(
            f"grad.head{n}.weights",
            rf"\bar{{A}}_{{{n}}}",
            sp.MatMul(h_sym, v_sym.T),
            matmul(h_bar, transpose(v)),
            n,
        )
        logits_bar = softmax_backward(self.softmaxes[i], a_bar)
        jacobian = SoftmaxBackward(a_sym, a_bar_sym)
        if self.spec.mask is not None:
            masked, _ = self.add(
                f"grad.head{n}.masked", rf"\bar{{\tilde{{S}}}}_{{{n}}}", jacobian, logits_bar, n
            )
            scaled, _ = self.add(
                f"grad.head{n}.scaled", rf"\bar{{S}}'_{{{n}}}", masked, logits_bar, n
            )
        else:
            scaled, _ = self.add(
                f"grad.head{n}.scaled", rf"\bar{{S}}'_{{{n}}}", jacobian, logits_bar, n
            )
        factor_formula, factor = self.scale(n)
        s_sym, s_bar = self.add(
            f"grad.head{n}.scores",
            rf"\bar{{S}}_{{{n}}}",
            sp.MatMul(factor_formula, scaled) if factor != 1 else scaled,
            logits_bar if factor == 1 else times(logits_bar, factor),
            n,
        )
        q_sym, k_sym = self.sym(f"head{n}.q"), self.sym(f"head{n}.k")
        q, k = constants(self.d[f"head{n}.q"]), constants(self.d[f"head{n}.k"])
        q_bar = self.add(
            f"grad.head{n}.q", rf"\bar{{Q}}_{{{n}}}", sp.MatMul(s_sym, k_sym), matmul(s_bar, k), n
        )[1]
        k_bar = self.add(
            f"grad.head{n}.k",
            rf"\bar{{K}}_{{{n}}}",
            sp.MatMul(s_sym.T, q_sym),
            matmul(transpose(s_bar), q),
            n,
        )[1]
        return {"q": q_bar, "k": k_bar, "v": v_bar}

    def scale(self, n: int) -> tuple[sp.Expr, sp.Expr]:
        """(formula factor, exact value) of head n's score scaling, read off the forward step."""
        step = self.d.step(f"head{n}.scaled")
        factors = [a for a in step.formula.args if not getattr(a, "is_Matrix", False)]
        formula = sp.Mul(*factors) if isinstance(step.formula, sp.MatMul) else _ONE
        exact = formula.xreplace({k: v for k, v in self.d.bindings.items() if k.is_Symbol})
        return formula, exact

    # ---------------------------------------------------------------- projections
    def projection(
        self,
        key: str,
        source: sp.MatrixSymbol,
        x: Matrix,
        y_key: str,
        y_bar: Forms,
        weight: str,
        head: int | None,
    ) -> None:
        """dL/dW and dL/db of ``Y = X W + 1 b`` (W in the shape the user gave it)."""
        letter = weight[-1].upper()
        suffix = "" if head is None else f"^{{{head}}}"
        y_sym = self.sym(y_key)
        if weight not in self.spec.omitted:
            w_bar = matmul(transpose(constants(x)), y_bar)
            if self.spec.convention == "xWT":
                formula = sp.MatMul(y_sym.T, source)
                w_bar = transpose(w_bar)
            else:
                formula = sp.MatMul(source.T, y_sym)
            self.add(
                f"{key}w_{letter.lower()}", rf"\bar{{W}}_{{{letter}}}{suffix}", formula, w_bar, head
            )
        if "b" + weight[1:] in self.spec.weights:
            self.add(
                f"{key}b_{letter.lower()}",
                rf"\bar{{b}}_{{{letter}}}{suffix}",
                sp.MatMul(_ones_t(len(y_bar)), y_sym),
                column_sums(y_bar),
                head,
            )

    def back_through(self, weight: str, head: int | None, y_key: str, y_bar: Forms) -> tuple:
        """(formula, forms) of Y's share of its input's gradient: Y-bar W^T (xW) or Y-bar W."""
        letter = weight[-1].upper()
        name = f"W_{{{letter}}}" + ("" if head is None else f"^{{{head}}}")
        w = self.leaves[name]
        effective = self.spec.effective(weight, 0 if head is None else head - 1)
        formula = sp.MatMul(self.sym(y_key), w if self.spec.convention == "xWT" else w.T)
        return formula, matmul(y_bar, constants(effective.T))

    def input_of(self, source: str, head: int | None) -> tuple[sp.MatrixSymbol, Matrix]:
        """The symbol and value that the projection of ``source`` multiplies."""
        if self.spec.layout == "split":
            key = f"head{head}.x" if self.spec.self_attention else f"head{head}.{source}"
        else:
            key = "x" if self.spec.self_attention else source
        return self.sym(key), self.d[key]

    def per_head(self, grads: list[dict[str, Forms]]) -> None:
        shares: dict[str, list[tuple]] = {"query": [], "key": [], "value": []}
        for n, grad in zip(self._numbers(), grads):
            slice_shares: dict[str, list[tuple]] = {"query": [], "key": [], "value": []}
            for name, source in zip("qkv", ("query", "key", "value")):
                x_sym, x = self.input_of(source, n)
                y_key = f"grad.head{n}.{name}"
                self.projection(f"grad.head{n}.", x_sym, x, y_key, grad[name], f"w_{name}", n)
                share = self.back_through(f"w_{name}", n, y_key, grad[name])
                (slice_shares if self.spec.layout == "split" else shares)[source].append(share)
            if self.spec.layout == "split":
                self.slice_gradients(n, slice_shares)
        if self.spec.layout == "split":
            self.concat_slices()
        else:
            self.input_gradients(shares)

    def slice_gradients(self, n: int, shares: dict[str, list[tuple]]) -> None:
        if self.spec.self_attention:
            parts = shares["query"] + shares["key"] + shares["value"]
            self._sum(f"grad.head{n}.x", rf"\bar{{X}}_{{{n}}}", parts, n)
            return
        for source in ("query", "key", "value"):
            name = rf"\bar{{X}}_{{{source[0]},{n}}}"
            self._sum(f"grad.head{n}.{source}", name, shares[source], n)

    def concat_slices(self) -> None:
        sources = ("x",) if self.spec.self_attention else ("query", "key", "value")
        for source in sources:
            keys = [f"grad.head{n}.{source}" for n in self._numbers()]
            blocks = [self.own[key][1] for key in keys]
            formula = sp.BlockMatrix([[self.sym(key) for key in keys]])
            self.add(f"grad.{source}", _input_bar(source), formula, hstack(blocks))

    def input_gradients(self, shares: dict[str, list[tuple]]) -> None:
        if self.spec.self_attention:
            parts = shares["query"] + shares["key"] + shares["value"]
            self._sum("grad.x", _input_bar("x"), parts, None)
            return
        for source in ("query", "key", "value"):
            self._sum(f"grad.{source}", _input_bar(source), shares[source], None)

    def _sum(self, key: str, name: str, parts: list[tuple], head: int | None) -> None:
        formula = parts[0][0] if len(parts) == 1 else sp.MatAdd(*(p[0] for p in parts))
        total = parts[0][1]
        for part in parts[1:]:
            total = combine(total, part[1])
        self.add(key, name, formula, total, head)

    def fused(self, grads: list[dict[str, Forms]]) -> None:
        shares: dict[str, list[tuple]] = {"query": [], "key": [], "value": []}
        for name, source in zip("qkv", ("query", "key", "value")):
            keys = [f"grad.head{n}.{name}" for n in self._numbers()]
            formula = sp.BlockMatrix([[self.sym(key) for key in keys]])
            y_bar = hstack([grad[name] for grad in grads])
            self.add(f"grad.{name}", rf"\bar{{{name.upper()}}}", formula, y_bar)
            x_sym, x = self.input_of(source, None)
            self.projection("grad.", x_sym, x, f"grad.{name}", y_bar, f"w_{name}", None)
            shares[source].append(self.back_through(f"w_{name}", None, f"grad.{name}", y_bar))
        self.input_gradients(shares)


def _input_bar(source: str) -> str:
    return r"\bar{X}" if source == "x" else rf"\bar{{X}}_{{{source[0]}}}"


def backward(d: Derivation) -> Derivation:
    """``d`` with the loss and every ``grad.*`` step appended, exactly."""
    return _Backward(d).run()
