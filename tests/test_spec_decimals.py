"""A spec says how many decimals its worked solution prints (``decimals = 3``, as its document
prints 0.707); ``--decimals`` and ``decimals=...`` say otherwise; a bad value is one line."""

from __future__ import annotations

import json

import pytest

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.cli import main
from mha_symbolic.errors import SpecError

SPEC = """title = "Two tokens"
scale = "none"
{decimals}
x = [[1, 0], [0, 1]]
[weights]
w_q = [[[1, 0], [0, 1]]]
w_k = [[[1, 0], [0, 1]]]
w_v = [[[1, 0], [0, 1]]]
"""
THREE = r"\begin{bmatrix} 0.731 & 0.269 \\ 0.269 & 0.731 \end{bmatrix}"
TWO = r"\begin{bmatrix} 0.73 & 0.27 \\ 0.27 & 0.73 \end{bmatrix}"
ONE = r"\begin{bmatrix} 0.7 & 0.3 \\ 0.3 & 0.7 \end{bmatrix}"


def _spec(tmp_path, line: str = "decimals = 3"):
    path = tmp_path / "spec.toml"
    path.write_text(SPEC.format(decimals=line))
    return path


def test_the_spec_s_decimals_are_read():
    assert AttentionSpec.from_dict({"x": [[1]], "decimals": 3}).decimals == 3
    assert AttentionSpec.from_dict({"x": [[1]]}).decimals is None


@pytest.mark.parametrize(
    ("flags", "printed", "not_printed"),
    [
        ([], "⎡ 0.731  0.269 ⎤", "⎡ 0.73  0.27 ⎤"),
        (["--decimals", "1"], "⎡ 0.7  0.3 ⎤", "⎡ 0.731  0.269 ⎤"),
        (["--decimals", "2"], "⎡ 0.73  0.27 ⎤", "⎡ 0.731  0.269 ⎤"),
    ],
)
def test_text_prints_the_spec_s_decimals_unless_the_command_line_says(
    tmp_path, capsys, flags, printed, not_printed
):
    assert main(["derive", str(_spec(tmp_path)), "--format", "text", *flags]) == 0
    out = capsys.readouterr().out
    assert printed in out and not_printed not in out


@pytest.mark.parametrize(("flags", "printed"), [([], THREE), (["--decimals", "1"], ONE)])
def test_latex_prints_the_spec_s_decimals_unless_the_command_line_says(
    tmp_path, capsys, flags, printed
):
    assert main(["derive", str(_spec(tmp_path)), "--format", "tex", *flags]) == 0
    assert rf"\approx {printed}" in capsys.readouterr().out


def test_without_the_key_the_built_in_default_of_2(tmp_path, capsys):
    assert main(["derive", str(_spec(tmp_path, "")), "--format", "tex"]) == 0
    assert rf"\approx {TWO}" in capsys.readouterr().out


def test_the_python_api_prints_the_spec_s_decimals_unless_told(tmp_path):
    d = derive(AttentionSpec.from_toml(_spec(tmp_path)))
    assert rf"\approx {THREE}" in d.to_latex()
    assert rf"\approx {THREE}" in d.to_markdown()
    assert rf"\approx {TWO}" in d.to_markdown(decimals=2)


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ('decimals = "two"', '"two"'),
        ("decimals = 2.5", "2.5"),
        ("decimals = true", "true"),
        ("decimals = -1", "-1"),
        ("decimals = 51", "51"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_file_and_the_key(tmp_path, capsys, line, shown):
    path = _spec(tmp_path, line)
    assert main(["derive", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"mha-symbolic: {path}: decimals = {shown} is not a number of decimal places: "
        "give a whole number from 0 to 50\n"
    )


def test_a_bad_value_from_python_is_a_spec_error():
    with pytest.raises(SpecError) as error:
        AttentionSpec(x=[[1]], decimals=-2)
    assert str(error.value) == (
        "<arguments>: decimals = -2 is not a number of decimal places: "
        "give a whole number from 0 to 50"
    )


BY_STEP = """[decimals]
default = 2
scaled = 4
"head1.weights" = 3"""


def test_a_table_gives_a_step_its_own_places():
    spec = AttentionSpec.from_dict({"x": [[1]], "decimals": {"default": 1, "head1.weights": 3}})
    assert (spec.decimals, dict(spec.step_decimals)) == (1, {"head1.weights": 3})
    dotted = AttentionSpec.from_dict({"x": [[1]], "decimals": {"head1": {"weights": 3}}})
    assert (dotted.decimals, dict(dotted.step_decimals)) == (None, {"head1.weights": 3})


def test_each_step_prints_its_own_places_and_the_closing_note_says_so(tmp_path, capsys):
    path = tmp_path / "spec.toml"
    path.write_text(SPEC.format(decimals="").replace('scale = "none"', "") + BY_STEP)
    assert main(["derive", str(path), "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "≈ ⎡ 0.7071       0 ⎤" in out  # scaled: 1/sqrt(2)
    assert "≈ ⎡ 0.670  0.330 ⎤" in out  # head1.weights
    assert " ".join(out.split()).endswith(  # wrapped to the terminal's width
        "Every value above is exact; the decimals are rounded to 2, 3 and 4 places, each step "
        "to as many as the document prints."
    )


def test_the_command_line_s_decimals_override_the_table(tmp_path, capsys):
    path = tmp_path / "spec.toml"
    path.write_text(SPEC.format(decimals="").replace('scale = "none"', "") + BY_STEP)
    assert main(["derive", str(path), "--format", "text", "--decimals", "1"]) == 0
    out = capsys.readouterr().out
    assert "≈ ⎡ 0.7    0 ⎤" in out and "≈ ⎡ 0.7  0.3 ⎤" in out
    assert " ".join(out.split()).endswith("the decimals are rounded to 1 place.")


def test_split_scaled_prints_what_its_document_prints():
    d = derive(AttentionSpec.example("split-scaled"))
    latex = d.to_latex()
    assert r"\approx \begin{bmatrix} 0.707 & 0 \\ 0 & 0.707 \end{bmatrix}" in latex
    assert r"\approx \begin{bmatrix} 0.67 & 0.33 \\ 0.33 & 0.67 \end{bmatrix}" in latex
    assert r"0.71 " not in latex
    steps = {step["key"]: step for step in json.loads(d.to_json())["steps"]}
    assert steps["head1.scaled"]["decimals"] == [["0.707", "0"], ["0", "0.707"]]
    assert steps["head1.weights"]["decimals"] == [["0.67", "0.33"], ["0.33", "0.67"]]


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            "[decimals]\nscald = 3",
            "decimals.scald: the attention has no step 'scald' (did you mean 'scaled'?); "
            "give default, a step (head1.scaled, concat) or a step's name for every head (scaled)",
        ),
        (
            '[decimals]\n"head2.weights" = 3',
            "decimals.head2.weights: the attention has no step 'head2.weights' (did you mean "
            "'head1.weights'?); give default, a step (head1.scaled, concat) or a step's name "
            "for every head (scaled)",
        ),
        (
            '[decimals]\nscaled = "three"',
            'decimals.scaled = "three" is not a number of decimal places: '
            "give a whole number from 0 to 50",
        ),
        (
            "[decimals]\ndefault = 51",
            "decimals.default = 51 is not a number of decimal places: "
            "give a whole number from 0 to 50",
        ),
        (
            '[decimals]\n"Head 1" = 2',
            "decimals.'Head 1' is not a step; give default, a step (head1.scaled, concat) or a "
            "step's name for every head (scaled)",
        ),
    ],
)
def test_a_bad_table_is_one_line_naming_the_file_and_the_key(tmp_path, capsys, table, message):
    path = tmp_path / "spec.toml"
    path.write_text(SPEC.format(decimals="") + table)
    assert main(["derive", str(path)]) == 2
    assert capsys.readouterr().err == f"mha-symbolic: {path}: {message}\n"


def test_one_decimal_place_is_said_in_the_singular(tmp_path, capsys):
    assert main(["derive", str(_spec(tmp_path, "decimals = 1")), "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "the decimals are rounded to 1 place." in out
    assert "1 places" not in out
