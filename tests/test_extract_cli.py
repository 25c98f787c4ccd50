"""`mha-symbolic extract` and `check DOC`, and extract on bad input: one line, exit 2, bounded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mha_symbolic import SpecError, extract
from mha_symbolic.cli import main
from mha_symbolic.extract import extract_all
from mha_symbolic.spec.attention import AttentionSpec

DATA = Path(__file__).resolve().parent / "data"
TWO_EXAMPLES = """# Two examples of attention

## Example 1

X = [[1, 0], [0, 1]]

W_Q = [[1, 0], [0, 1]]

## Example 2

X = [[1, 2, 3]]

W_Q = [[1, 0], [0, 1], [1, 1]]
W_K = [[1, 0], [0, 1], [1, 1]]
W_V = [[1, 0], [0, 1], [1, 1]]

Output = [4, 5]
"""


def seed(tmp_path: Path, number: str) -> Path:
    source = next((DATA / "seeds").glob(f"{number}_*.txt"))
    target = tmp_path / f"seed{number}.md"
    target.write_bytes(source.read_bytes())
    return target


def test_extract_writes_a_spec_that_reads_back(tmp_path: Path, capsys) -> None:
    out = tmp_path / "spec.toml"
    assert main(["extract", str(seed(tmp_path, "000")), "-o", str(out)]) == 0
    spec = AttentionSpec.from_toml(out)
    assert spec.heads == 2 and len(spec.claims) == 24  # 23 of the example, "[0.5, 0.5]"
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == f"wrote {out}"
    inferred = [str(line) for line in extract_all(seed(tmp_path, "000"))[0].inferred]
    assert inferred and err[: len(inferred)] == inferred  # what the numbers say comes first
    assert err[len(inferred)].endswith("its transpose 4x2 is used")


def test_extract_to_dash_prints_the_spec_and_writes_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    document = seed(tmp_path, "000")
    monkeypatch.chdir(tmp_path)
    assert main(["extract", str(document), "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Draft spec extracted from ")
    assert "heads = 2" in out
    assert not (tmp_path / "-").exists()


def test_every_value_line_has_a_comment(tmp_path: Path) -> None:
    (found,) = extract_all(seed(tmp_path, "000"))
    lines = [line for line in found.toml.splitlines() if " = " in line and line[0] != "#"]
    assert lines and all("  # " in line for line in lines)


def test_nothing_checkable_exits_0_and_writes_the_layout(tmp_path: Path, capsys) -> None:
    out = tmp_path / "spec.toml"
    assert main(["extract", str(seed(tmp_path, "004")), "-o", str(out)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == (
        f"mha-symbolic: {tmp_path / 'seed004.md'}: nothing to check: the document prints no "
        "results; the spec offers the layout it describes (fused, xWT, 4 tokens, E = 6, 2 heads) "
        "with symbolic weights"
    )
    assert AttentionSpec.from_toml(out).layout == "fused"


def test_check_document_prints_the_mapping_then_the_report(tmp_path: Path, capsys) -> None:
    assert main(["check", str(seed(tmp_path, "001"))]) == 0  # its concat follows its assumption
    out = capsys.readouterr().out.splitlines()
    assert out[:9] == [
        "X (line 109) -> x",
        "WQ1 (line 119) -> weights.w_q head 1",
        "WQ2 (line 148) -> weights.w_q head 2",
        "WK1 (line 120) -> weights.w_k head 1",
        "WK2 (line 149) -> weights.w_k head 2",
        "WV1 (line 121) -> weights.w_v head 1",
        "WV2 (line 150) -> weights.w_v head 2",
        "concat (line 172) -> claim concat[1]",
        "head1_output (line 138) -> assumed head1.output[1]",
    ]
    assert out[-1].endswith("seed001.md: 1 claim: 0 hold (0 exact, 0 rounded), 1 assumed")


def test_check_document_json(tmp_path: Path, capsys) -> None:
    assert main(["check", str(seed(tmp_path, "000")), "--format", "json"]) == 0
    out = capsys.readouterr().out
    decoder, at, reports = json.JSONDecoder(), out.index("{"), []
    while out[at:].strip():
        at += len(out[at:]) - len(out[at:].lstrip())
        report, at = decoder.raw_decode(out, at)
        reports.append(report)
    assert [r["ok"] for r in reports] == [True, True]
    # "Q = [0, 1]" in head 2's attention for "I" prints Q2's first row again: judged again
    assert [c["key"] for c in reports[1]["claims"]] == ["head2.q[1]"]


def test_two_examples_need_a_folder_and_become_two_specs(tmp_path: Path, capsys) -> None:
    document = tmp_path / "two.md"
    document.write_text(TWO_EXAMPLES, encoding="utf-8")
    assert main(["extract", str(document)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"mha-symbolic: {document}: 2 worked examples; give -o FOLDER for one spec each"
    )
    assert main(["extract", str(document), "-o", str(tmp_path / "specs")]) == 0
    first = AttentionSpec.from_toml(tmp_path / "specs" / "two-1.toml")
    second = AttentionSpec.from_toml(tmp_path / "specs" / "two-2.toml")
    assert first.query.shape == (2, 2) and second.query.shape == (1, 3)
    assert dict(second.claims) == {"output[1]": "[4, 5]"}
    assert second.title == "Two examples of attention (example 2 of 2)"


def test_several_examples_and_a_file_for_output_is_one_line(tmp_path: Path, capsys) -> None:
    document = tmp_path / "two.md"
    document.write_text(TWO_EXAMPLES, encoding="utf-8")
    existing = tmp_path / "spec.toml"
    existing.write_text("kept", encoding="utf-8")
    assert main(["extract", str(document), "-o", str(existing)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"mha-symbolic: {existing}: is a file, not a folder; {document} has 2 worked examples, "
        "one spec each"
    )
    assert existing.read_text(encoding="utf-8") == "kept"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "The quick brown fox [1, 2]\n",
            "<text>: no attention here: no softmax, query/key/value, W_Q or attention is mentioned",
        ),
        (
            "attention\n\nX = [[1, 0], [0, 1]]\n\nW_Q1 = [[1, 0, 1], [0, 1, 1], [1, 1, 1]]\n",
            "<text>: W_Q1 (line 5) has shape (3, 3) but X (line 3) has shape (2, 2): X W needs "
            "2 rows in W_Q1",
        ),
        (
            "attention\n\nX = [[1, 0], [0, 1]]\n\nW^O = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\n",
            "<text>: W^O (line 5) has shape (3, 3) but concat has 2 columns; neither it nor its "
            "transpose fits",
        ),
        (
            "attention " + "[" * 100_000 + "1" + "]" * 100_000 + "\n",
            "<text>: no input found: no matrix named X (or Input, embeddings), no token rows, "
            "and no stated sequence length and width to make a symbolic one",
        ),
        (  # unclosed environments: paired by bisection, not rescanned (linear time)
            "attention " + "\\begin{bmatrix} 1 & 2 " * 100_000 + "\n",
            "<text>: no input found: no matrix named X (or Input, embeddings), no token rows, "
            "and no stated sequence length and width to make a symbolic one",
        ),
        (
            "attention\n" + "X = [1, 2]\n" * 3000,
            "<text>: more than 2,000 matrices and vectors; at most 2,000 are read",
        ),
    ],
)
def test_bad_documents_are_one_line(text: str, message: str) -> None:
    with pytest.raises(SpecError) as error:
        extract(text)
    assert str(error.value) == message


def test_hostile_files(tmp_path: Path) -> None:
    huge = tmp_path / "huge.md"
    huge.write_bytes(b"a" * 5_000_001)
    with pytest.raises(SpecError, match=r"huge.md: is 5,000,001 bytes; at most 5,000,000"):
        extract(huge)
    notebook = tmp_path / "deep.ipynb"
    notebook.write_text('{"cells": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    with pytest.raises(SpecError, match=r"deep.ipynb: the notebook's JSON is nested too deep"):
        extract(notebook)
    page = tmp_path / "deep.html"
    page.write_text(
        "<p>attention</p>" + "<div>" * 50_000 + "X = [[1, 0], [0, 1]]" + "</div>" * 50_000,
        encoding="utf-8",
    )
    spec, _ = extract(page)
    assert spec.query.shape == (2, 2)
    other = tmp_path / "notes.docx"
    other.write_text("attention", encoding="utf-8")
    with pytest.raises(SpecError, match=r"notes.docx: unknown document kind '.docx'"):
        extract(other)


def test_weights_from_a_random_generator_are_a_marked_placeholder() -> None:
    text = (
        "# Attention\n\nX = [[1, 0], [0, 1]]\n\n```python\nW_q = np.random.randn(2, 2)\n```\n\n"
        "weights = [[0.5, 0.5], [0.5, 0.5]]\n"
    )
    (found,) = extract_all(text)
    assert found.spec.symbolic == {"w_q", "w_k", "w_v"}
    assert (
        'w_q = "symbolic"  # PLACEHOLDER: made by a random generator (line 6) and never '
        "printed: symbolic entries" in found.toml.splitlines()
    )
