"""A Bengali solution is Bengali: no English sentence left outside maths, code and names.

Bengali technical writing keeps technical words in English (seed 003: "Sequence length",
"head", "token", "Shape"), so single terms pass; a run of four or more English words is an
untranslated sentence (a title, a description, a box) and fails.
"""

from __future__ import annotations

import re

import pytest

from mha_symbolic import AttentionSpec, SpecError, derive
from mha_symbolic.spec.attention import example_names

_RUN = re.compile(r"(?:[A-Za-z][A-Za-z'’,.()-]*\s+){3,}[A-Za-z][A-Za-z'’.-]*")


def _prose(text: str) -> str:
    """The words a reader reads: maths, MathML, tags, image sources and code removed."""
    text = re.sub(r"<math.*?</math>", " ", text, flags=re.DOTALL)
    text = re.sub(r"<style>.*?</style>", " ", text, flags=re.DOTALL)
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.DOTALL)
    text = re.sub(r"\$[^$\n]*\$", " ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    return re.sub(r"\]\([^)]*\)", "]", text)


@pytest.mark.parametrize("name", example_names())
@pytest.mark.parametrize("fmt", ["md", "html"])
def test_no_english_sentence_in_a_bengali_solution(name: str, fmt: str) -> None:
    d = derive(AttentionSpec.example(name))
    text = _prose(d.to_markdown(lang="bn") if fmt == "md" else d.to_html(lang="bn"))
    runs = [run for line in text.splitlines() for run in _RUN.findall(line)]
    assert not runs, runs[:5]


def test_the_runs_are_found_in_english() -> None:
    text = _prose(derive(AttentionSpec.example("two-tokens")).to_markdown())
    assert any(_RUN.findall(line) for line in text.splitlines())


def test_a_spec_carries_its_own_translations() -> None:
    spec = AttentionSpec(x=[[1, 0]], translations={"bn": {"title": "একটি token"}})
    assert derive(spec).to_markdown(lang="bn").startswith("# একটি token\n")
    assert derive(spec).to_markdown().startswith("# Multi-head attention\n")
    with pytest.raises(SpecError) as error:
        AttentionSpec(x=[[1, 0]], translations={"bn": {"titel": "x"}})
    assert str(error.value) == (
        "<arguments>: unknown key 'translations.bn.titel' (did you mean 'title'?)"
    )
