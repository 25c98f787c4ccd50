"""Golden Markdown: each built-in example's worked solution, compared whole with the file.

Any change to what a user sees shows here and in review. After an intended change, regenerate
the files and read their diff before committing:

    MHA_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.spec.attention import example_names

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("MHA_UPDATE_GOLDEN") == "1"
REGENERATE = "MHA_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py"
DIFF_LINES = 60

# (golden file, example, extra `derive` arguments): every example with default options, then
# the Bengali of split-scaled and the token-by-token working of two-tokens.
CASES = [(f"{name}.md", name, ()) for name in example_names()] + [
    ("split-scaled.bn.md", "split-scaled", ("--lang", "bn")),
    ("two-tokens.token.md", "two-tokens", ("--detail", "token")),
    ("two-tokens.txt", "two-tokens", ("--format", "text")),
    ("pytorch-style.txt", "pytorch-style", ("--format", "text")),
]


def compare(name: str, expected: str, actual: str) -> None:
    """Fail with the first lines of a unified diff unless ``actual == expected``."""
    if actual == expected:
        return
    diff = list(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            f"tests/golden/{name}",
            "derive output",
        )
    )
    shown = "".join(line if line.endswith("\n") else line + "\n" for line in diff[:DIFF_LINES])
    more = f"... {len(diff) - DIFF_LINES} more lines of diff\n" if len(diff) > DIFF_LINES else ""
    pytest.fail(
        f"{name}: the output differs from the golden file; if the change is intended, run "
        f"{REGENERATE} and review the diff\n{shown}{more}",
        pytrace=False,
    )


@pytest.mark.parametrize(("name", "example", "extra"), CASES, ids=[c[0] for c in CASES])
def test_markdown_matches_the_golden_file(name, example, extra, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")  # the text goldens' width, whatever runs the tests
    formats = ("--format", "md") if "--format" not in extra else ()
    assert main(["derive", "--example", example, *formats, *extra]) == 0
    actual = capsys.readouterr().out
    path = GOLDEN / name
    if UPDATE:
        path.write_bytes(actual.encode("utf-8"))
    if not path.is_file():
        pytest.fail(f"no golden file tests/golden/{name}; run {REGENERATE}", pytrace=False)
    compare(name, path.read_bytes().decode("utf-8"), actual)


def test_every_golden_file_belongs_to_a_case():
    files = [*GOLDEN.glob("*.md"), *GOLDEN.glob("*.txt")]
    assert sorted(p.name for p in files) == sorted(c[0] for c in CASES)


def test_a_difference_fails_with_a_unified_diff():
    expected = "# Title\n\nold line\nsame\n"
    actual = "# Title\n\nnew line\nsame\n"
    with pytest.raises(pytest.fail.Exception) as failure:
        compare("x.md", expected, actual)
    assert str(failure.value) == (
        f"x.md: the output differs from the golden file; if the change is intended, run "
        f"{REGENERATE} and review the diff\n"
        "--- tests/golden/x.md\n"
        "+++ derive output\n"
        "@@ -1,4 +1,4 @@\n"
        " # Title\n"
        " \n"
        "-old line\n"
        "+new line\n"
        " same\n"
    )


def test_a_long_difference_shows_its_first_lines():
    expected = "".join(f"line {i}\n" for i in range(100))
    actual = "".join(f"line {i}!\n" for i in range(100))
    with pytest.raises(pytest.fail.Exception) as failure:
        compare("long.md", expected, actual)
    lines = str(failure.value).splitlines()
    assert lines[1:4] == ["--- tests/golden/long.md", "+++ derive output", "@@ -1,100 +1,100 @@"]
    assert lines[DIFF_LINES] == "-line 56"
    assert lines[-1] == f"... {203 - DIFF_LINES} more lines of diff"
    assert len(lines) == DIFF_LINES + 2


@pytest.mark.parametrize("example", example_names())
def test_plain_text_has_no_latex_and_fits_100_columns(example, capsys):
    assert main(["derive", "--example", example, "--format", "text"]) == 0
    out = capsys.readouterr().out
    too_wide = [line for line in out.splitlines() if len(line) > 100]
    assert not too_wide, too_wide[:3]
    for latex in ("\\frac", "\\begin", "\\left", "\\mathrm", "\\sqrt", "$"):
        assert latex not in out, (latex, out[out.index(latex) - 80 : out.index(latex) + 80])


@pytest.mark.parametrize("example", example_names())
def test_an_80_column_terminal_gets_no_line_wider_than_80(example, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["derive", "--example", example, "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if len(line) > 80] == []


def test_the_summary_wraps_its_widest_cells_at_spaces_outside_parentheses(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["derive", "--example", "pytorch-style", "--format", "text"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("Step  Operation") :].split("\n\n")[0]
    assert table.splitlines()[7:11] == [
        "4     Scaled dot-product         → weights(h, L, L),       2 × (4, 4), 2 ×",
        "      attention                  output(h, L, d)           (4, 3)",
        "5     Merge (concatenate heads)  (h, L, d) → (L, h · d)    (2, 4, 3) → (4, 6)",
        "6     Output projection          (L, h · d) · W_Oᵀ →       (4, 6)",
    ]


def test_a_file_is_100_columns_wide_whatever_the_terminal(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["derive", "--example", "pytorch-style", "-o", str(tmp_path / "s.txt")]) == 0
    written = (tmp_path / "s.txt").read_text(encoding="utf-8")
    assert written == (GOLDEN / "pytorch-style.txt").read_text(encoding="utf-8")


def test_a_terminal_gets_plain_text_and_a_pipe_markdown(capsys, monkeypatch):
    import sys

    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["derive", "--example", "two-tokens"]) == 0
    assert capsys.readouterr().out == (GOLDEN / "two-tokens.txt").read_text(encoding="utf-8")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    assert main(["derive", "--example", "two-tokens"]) == 0
    assert capsys.readouterr().out == (GOLDEN / "two-tokens.md").read_text(encoding="utf-8")
