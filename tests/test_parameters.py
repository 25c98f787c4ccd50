"""Declared parameters, exact limits of every step, and plots against a parameter."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest
import sympy as sp
from sympy import ImmutableMatrix as Matrix

from mha_symbolic import AttentionSpec, compile, derive
from mha_symbolic.cli import main
from mha_symbolic.errors import SpecError
from mha_symbolic.solution.plot import parse_range, sweep
from mha_symbolic.spec.exact_numbers import declared, from_text
from mha_symbolic.spec.parameters import declare

R = sp.Rational
E = sp.E
TAU = sp.Symbol("tau", positive=True)


def two_tokens(**changes):
    """Seed 000's two-tokens example with scale 1/tau instead of none."""
    spec = AttentionSpec.example("two-tokens")
    raw = {
        "tokens": ["I", "love"],
        "heads": 2,
        "x": [[1, 0], [0, 1]],
        "scale": "1/tau",
        "parameters": {"tau": "positive"},
        "weights": {
            "w_q": [[[1, 0], [0, 1]], [[0, 1], [1, 0]]],
            "w_k": [[[1, 0], [0, 1]], [[0, 1], [1, 0]]],
            "w_v": [[[1, 0], [0, 1]], [[0, 1], [1, 0]]],
            "w_o": [["1/2", 0], [0, "1/2"], ["1/2", 0], [0, "1/2"]],
        },
    }
    raw.update(changes)
    assert spec.heads == raw["heads"]
    return derive(AttentionSpec.from_dict(raw))


@pytest.fixture(scope="module")
def two():
    return two_tokens()


@pytest.fixture(scope="module")
def temperature():
    return derive(AttentionSpec.example("temperature"))


# ------------------------------------------------------------------ parsing
def test_declared_names_read_as_one_symbol_with_assumptions():
    with declared(declare({"tau": "positive", "T": "real"})):
        assert from_text("1/tau", "scale") == 1 / TAU
        assert from_text(r"\frac{1}{\tau}", "scale") == 1 / TAU
        assert from_text("2 tau", "w") == 2 * TAU
        assert from_text(r"\frac{1}{\sqrt{tau}}", "w") == 1 / sp.sqrt(TAU)
        assert from_text("T + 1", "w") == sp.Symbol("T", real=True) + 1
        assert from_text("tau", "w").is_positive


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1/tauu", "w: cannot read \"1/tauu\" as a number "
                   "('tauu' is not declared; did you mean 'tau'?)"),
        ("alpha", "w: cannot read \"alpha\" as a number "
                  "('alpha' is not declared; the parameters are tau)"),
        ("2tau", 'w = "2tau": a letter right after a number (2tau); write 2 \\cdot tau'),
    ],
)  # fmt: skip
def test_undeclared_names_are_refused(text, message):
    with declared(declare({"tau": "positive"})), pytest.raises(SpecError) as caught:
        from_text(text, "w")
    assert str(caught.value) == message


def test_without_parameters_a_name_is_still_refused():
    with pytest.raises(SpecError) as caught:
        AttentionSpec(x=[[1, 0], [0, 1]], scale="1/tau")
    assert str(caught.value) == (
        "<arguments>: scale: cannot read \"1/tau\" as a number ('tau' is not a declared "
        "parameter; declare it under [parameters], or put \\cdot between letters for a product)"
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"parameters": {"tau": "postive"}},
         "parameters.tau is 'postive' (did you mean 'positive'?); choose one of symbolic, real, "
         "positive, nonnegative, negative"),
        ({"parameters": {"e": "real"}},
         "parameters: 'e' already means a constant; choose another name"),
        ({"parameters": {"t1": "real"}},
         "parameters: 't1' is not a name (letters only, such as tau)"),
        ({"parameters": {"tau": "positive"}, "scale": "-1/tau"},
         "scale '-1/tau' is never positive for the declared parameters"),
        ({"parameters": {"tau": "positive"}, "scale": "1/x"},
         "scale '1/x' uses x, which is not a declared parameter "
         '(declare it: [parameters] x = "positive")'),
    ],
)  # fmt: skip
def test_parameter_errors_are_one_line(changes, message):
    with pytest.raises(SpecError) as caught:
        AttentionSpec(x=[[1, 0], [0, 1]], **changes)
    assert str(caught.value) == "<arguments>: " + message


def test_parameters_go_anywhere_a_number_goes():
    spec = AttentionSpec(
        x=[[1, "tau"], [0, 1]],
        parameters={"tau": "symbolic", "beta": "nonnegative"},
        scale="beta",
        weights={"w_q": [[["2 tau", 0], [0, 1]]], "b_v": ["tau", 0]},
    )
    tau, beta = sp.Symbol("tau"), sp.Symbol("beta", nonnegative=True)
    assert spec.parameters == {"tau": tau, "beta": beta}
    assert spec.scale == beta
    assert spec.weights["w_q"][0] == sp.Matrix([[2 * tau, 0], [0, 1]])
    assert spec.query == sp.Matrix([[1, tau], [0, 1]])
    assert spec.weights["b_v"][0] == sp.Matrix([[tau, 0]])


# ------------------------------------------------------------------ the exact derivation
def test_scaled_logits_stay_compact(two):
    assert two["head1.scaled"] == sp.Matrix([[1 / TAU, 0], [0, 1 / TAU]])
    assert str(two["head1.weights"][0, 0]) == "exp(1/tau)/(exp(1/tau) + 1)"
    d = derive(AttentionSpec(x=[[2, 0], [0, 1]], parameters={"tau": "positive"}, scale="1/tau"))
    # Logits 4/tau and 0, 0 and 1/tau: each row shifted by its smallest multiple of 1/tau.
    assert str(d["head1.weights"][0, 1]) == "1/(exp(4/tau) + 1)"
    e4, e1 = sp.exp(4 / TAU), sp.exp(1 / TAU)
    assert d["output"] == sp.Matrix(
        [[2 * e4 / (e4 + 1), 1 / (e4 + 1)], [2 / (e1 + 1), e1 / (e1 + 1)]]
    )


def test_compiled_function_takes_the_parameter(temperature):
    f = compile(temperature.spec)
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    exact = np.array(temperature["output"].subs(TAU, R(1, 2)).evalf(30), dtype=float)
    np.testing.assert_allclose(f(x, tau=0.5), exact, rtol=1e-13)
    with pytest.raises(ValueError, match=r"^tau is a parameter of the spec; pass tau= a number$"):
        f(x)


# ------------------------------------------------------------------ limits
def test_two_tokens_cold_limit_is_one_hot(two):
    cold = two.limit("tau", "0+")
    assert cold.taken.text == "tau -> 0+"
    assert cold["head1.scaled"] == sp.Matrix([[sp.oo, 0], [0, sp.oo]])
    assert cold["head1.weights"] == sp.eye(2)
    assert cold["head2.weights"] == sp.eye(2)
    assert cold["head2.output"] == sp.Matrix([[0, 1], [1, 0]])
    assert cold["output"] == sp.Matrix([[R(1, 2), R(1, 2)], [R(1, 2), R(1, 2)]])
    assert list(cold) == list(two)


def test_two_tokens_hot_limit_is_uniform(two):
    hot = two.limit("tau", "oo")
    assert hot.taken.latex == r"\tau \to \infty"
    for key in ("head1.weights", "head2.weights", "head1.output", "output"):
        assert hot[key] == sp.Matrix([[R(1, 2), R(1, 2)], [R(1, 2), R(1, 2)]]), key


def test_a_positive_parameter_goes_to_zero_from_the_right(two):
    assert two.limit("tau", 0).taken.text == "tau -> 0+"
    with pytest.raises(SpecError, match=r"^tau is positive: it cannot approach 0-$"):
        two.limit("tau", "0-")
    with pytest.raises(SpecError, match=r"^tau is positive: it cannot approach -oo$"):
        two.limit("tau", "-oo")
    with pytest.raises(SpecError) as caught:
        two.limit("tua", 0)
    assert str(caught.value) == (
        "'tua' is not a parameter of this spec (did you mean 'tau'?); its parameters: tau"
    )


def test_ties_split_equally_and_agree_with_sympy_limit(temperature):
    cold = temperature.limit("tau", "0+")
    assert cold["head1.weights"] == sp.Matrix(
        [[R(1, 2), 0, R(1, 2)], [0, R(1, 2), R(1, 2)], [0, 0, 1]]
    )
    assert cold["output"] == sp.Matrix([[1, R(1, 2)], [R(1, 2), 1], [1, 1]])
    hot = temperature.limit("tau", sp.oo)
    assert hot["head1.weights"] == sp.Matrix(3, 3, [R(1, 3)] * 9)
    weights = temperature["head1.weights"]
    for limit, point in ((cold, 0), (hot, sp.oo)):
        direct = Matrix(3, 3, [sp.limit(w, TAU, point, "+") for w in weights])
        assert limit["head1.weights"] == direct


def test_masked_keys_stay_zero_and_a_finite_point_is_exact():
    d = derive(
        AttentionSpec(
            x=[[1, 0], [0, 1], [1, 1]],
            parameters={"tau": "positive"},
            scale="1/tau",
            mask="causal",
        )
    )
    cold = d.limit("tau", "0+")
    assert cold["head1.masked"][0, 1] == -sp.oo
    assert cold["head1.weights"] == sp.eye(3)
    hot = d.limit("tau", "oo")
    assert hot["head1.weights"] == sp.Matrix(
        [[1, 0, 0], [R(1, 2), R(1, 2), 0], [R(1, 3), R(1, 3), R(1, 3)]]
    )
    at_one = d.limit("tau", 1)
    assert at_one.taken.text == "tau -> 1"
    assert at_one["head1.weights"][1, 0] == 1 / (1 + E)


def test_a_real_parameter_at_zero_needs_a_side():
    d = derive(AttentionSpec(x=[[1, 0], [0, 1]], parameters={"t": "real"}, scale="t"))
    assert d.limit("t", "0")["head1.weights"] == sp.Matrix([[R(1, 2)] * 2] * 2)
    hot = derive(
        AttentionSpec(
            x=[[1, 0], [0, 1]], parameters={"t": "real"}, weights={"w_q": [[["1/t", 0], [0, 1]]]}
        )
    )
    with pytest.raises(SpecError, match=r"does not exist .*; give t=0\+ or t=0-$"):
        hot.limit("t", "0")
    t = sp.Symbol("t", real=True)
    assert hot.limit("t", "0-")["head1.weights"][0, 0] == 0
    assert hot.limit("t", "0+")["head1.weights"][0, 0] == 1
    assert hot["head1.weights"][0, 0].has(t)


# ------------------------------------------------------------------ rendering
def test_limit_documents_say_which_limit(two):
    cold = two.limit("tau", "0+")
    md = cold.to_markdown()
    assert "## The limit $\\tau \\to 0^{+}$\n" in md
    assert "- $\\tau$ is a declared parameter (positive).\n" in md
    assert "\\section*{The limit $\\tau \\to 0^{+}$}" in cold.to_latex()
    assert "The limit" in cold.to_html()
    assert "সীমা" in cold.to_markdown(lang="bn")
    document = json.loads(cold.to_json())
    assert document["limit"] == "tau -> 0+"
    assert document["parameters"] == {"tau": "positive"}
    scaled = next(s for s in document["steps"] if s["key"] == "head1.scaled")
    assert scaled["decimals"] == [["inf", "0"], ["0", "inf"]]
    assert "The limit" not in two.to_markdown()


# ------------------------------------------------------------------ plots
def test_sweep_is_stable_for_small_tau(temperature):
    result = sweep(temperature, "tau", 0.001, 10, ["head1.weights[1]"], points=5)
    assert result.log and result.xs[0] == pytest.approx(0.001) and result.xs[-1] == 10
    labels = [label for label, _ in result.series]
    assert labels == ["head1.weights[1,1]", "head1.weights[1,2]", "head1.weights[1,3]"]
    first = [values[0] for _, values in result.series]
    assert first == pytest.approx([0.5, 0.0, 0.5], abs=1e-12)
    assert parse_range("tau=1/10:10") == ("tau", 0.1, 10.0)
    with pytest.raises(SpecError, match=r"^plot: 'tau=2:1' needs START < STOP$"):
        parse_range("tau=2:1")


def _png_size(path):
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG")
    return struct.unpack(">II", data[16:24])


def test_cli_limit_and_plot(tmp_path, capsys):
    target = tmp_path / "t.md"
    argv = ["derive", "--example", "temperature", "--limit", "tau=0+", "--plot", "tau=0.01:10"]
    assert main([*argv, "-o", str(target)]) == 0
    written = [tmp_path / name for name in ("t-tau.png", "t-head1.svg", "t.md")]
    assert capsys.readouterr().err == "".join(f"wrote {path}\n" for path in written)
    assert _png_size(tmp_path / "t-tau.png") == (704, 440)
    md = target.read_text()
    assert "## The limit $\\tau \\to 0^{+}$" in md and "(t-tau.png)" in md
    html = tmp_path / "t.html"
    assert (
        main(["derive", "--example", "temperature", "--plot", "tau=0.1:10", "-o", str(html)]) == 0
    )
    assert html.read_text().count('src="data:image/png;base64,') == 1  # the plot (no heatmap: tau)
    assert (
        main(["derive", "--example", "temperature", "--limit", "tau=oo", "--format", "json"]) == 0
    )
    assert json.loads(capsys.readouterr().out)["limit"] == "tau -> oo"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--limit", "tau"], "--limit: expected NAME=POINT such as tau=0+ or tau=oo, got 'tau'"),
        (["--limit", "alpha=0"], "'alpha' is not a parameter of this spec; its parameters: tau"),
        (["--plot", "tau=0.1:10"], "--plot writes a PNG: give -o FILE or --plot-file FILE.png"),
        (["--plot", "tau=0.1:10", "--plot-file", "p.png", "--plot-keys", "head1.weights[4]"],
         "--plot-keys: 'head1.weights[4]' is outside head1.weights, which has shape (3, 3)"),
    ],
)  # fmt: skip
def test_cli_errors_are_one_line(argv, message, capsys):
    assert main(["derive", "--example", "temperature", *argv]) == 2
    assert capsys.readouterr().err == f"mha-symbolic: {message}\n"
