"""The mha-symbolic command: examples, derive, exit codes and one-line errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mha_symbolic.cli import main


def test_examples_lists_every_built_in(capsys):
    assert main(["examples"]) == 0
    names = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert names == ["alibi", "causal-dropout", "eight-tokens-split", "one-token", "pytorch-style",
                     "rope", "split-scaled", "temperature", "two-tokens"]  # fmt: skip


def test_derive_prints_every_step_key(capsys):
    assert main(["derive", "--example", "two-tokens", "--format", "md"]) == 0
    out = capsys.readouterr().out
    for key in ("head1.scores", "head1.weights", "head2.output", "concat", "output"):
        assert f'<a id="{key}"></a>' in out
    assert out.index('id="head1.weights"') < out.index('id="head2.q"') < out.index('id="concat"')


def test_derive_writes_a_file(tmp_path, capsys):
    target = tmp_path / "steps.md"
    assert main(["derive", "--example", "one-token", "-o", str(target)]) == 0
    assert capsys.readouterr().out == ""
    assert '<a id="head2.output"></a>' in target.read_text()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["derive", "missing.toml"], "mha-symbolic: missing.toml: no such file"),
        (["derive"],
         "mha-symbolic: give a spec file or --example NAME (see `mha-symbolic examples`)"),
        (["derive", "a.toml", "--example", "two-tokens"],
         "mha-symbolic: give a spec file or --example NAME, not both"),
        (["derive", "--example", "three-tokens"],
         "mha-symbolic: unknown example 'three-tokens' (did you mean 'two-tokens'?); known: "
         "alibi, causal-dropout, eight-tokens-split, one-token, pytorch-style, rope, split-scaled, "
         "temperature, two-tokens"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err == message + "\n"
    assert captured.out == ""


def test_bad_spec_file_names_file_and_field(tmp_path, capsys):
    spec = tmp_path / "bad.toml"
    spec.write_text(
        "heads = 2\nx = [[1, 0], [0, 1]]\n[weights]\nw_o = [[1, 0, 1, 0], [0, 1, 0, 1]]\n"
    )
    assert main(["derive", str(spec)]) == 2
    assert capsys.readouterr().err == (
        f"mha-symbolic: {spec}: w_o has shape (2, 4) but concat has 4 columns; "
        "its transpose (4, 2) would fit\n"
    )


def test_console_script_usage_error_has_no_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "mha_symbolic.cli", "derive", "--nonsense"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr
    assert "unrecognized arguments: --nonsense" in result.stderr
