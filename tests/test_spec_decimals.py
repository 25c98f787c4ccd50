"""A spec says how many decimals its worked solution prints (``decimals = 3``, as its document
prints 0.707); ``--decimals`` and ``decimals=...`` say otherwise; a bad value is one line."""

from __future__ import annotations

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
