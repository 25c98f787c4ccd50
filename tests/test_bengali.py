"""Every word of a --lang bn output is Bengali: no English outside maths, code and labels.

Solutions (md, html; with gradients and token detail too), exercise sheets and answer keys:
each word of two or more Latin letters left once maths, code and markup are removed is a
string still to translate, unless it is a token label (the user's own text) or one of the
names ``tests.english.ALLOWED`` lists.
"""

from __future__ import annotations

import pytest

from mha_symbolic import AttentionSpec, SpecError, derive
from mha_symbolic.solution.render import render
from mha_symbolic.solution.view import Options
from mha_symbolic.spec.attention import example_names
from tests.english import english_words


def _labels(spec: AttentionSpec) -> list[str]:
    return [*spec.tokens, *spec.key_tokens]


@pytest.mark.parametrize("fmt", ["md", "html", "tex"])
@pytest.mark.parametrize("name", example_names())
def test_every_example_is_all_bengali(name: str, fmt: str) -> None:
    spec = AttentionSpec.example(name)
    text = render(derive(spec), fmt, Options(lang="bn"), images={})
    assert english_words(text, _labels(spec)) == []


def test_gradients_and_token_detail_are_all_bengali() -> None:
    spec = AttentionSpec.example("two-tokens")
    d = derive(spec, gradients=True)
    text = render(d, "md", Options(lang="bn", detail="token"), images={})
    assert english_words(text, _labels(spec)) == []


def test_the_detector_finds_english_outside_maths() -> None:
    text = '**Setup** $x_{model}$ টোকেন `code here` Head 1 \\(\\text{out}\\) <a id="head1.q"></a>'
    assert english_words(text, ["I"]) == ["Setup", "Head"]
    assert english_words("“love” চলে PyTorch-এ", ["love"]) == []
    tex = "\\begin{document}\\wrongclaim{Wrong}{x}{\\mathrm{head}_{1}}{why \\{so\\}} \\label{a.b}"
    assert english_words(tex) == ["Wrong", "why", "so"]


def test_the_english_solution_is_found_english() -> None:
    spec = AttentionSpec.example("two-tokens")
    text = render(derive(spec), "md", Options(), images={})
    assert len(english_words(text, _labels(spec))) > 100


def test_a_built_in_example_takes_its_bengali_title_and_description() -> None:
    md = derive(AttentionSpec.example("split-scaled")).to_markdown(lang="bn")
    assert md.startswith("# দুটি টোকেন, ভাগ করা হেড, 2-এর বর্গমূল দিয়ে স্কেল\n")
    assert "দুটি টোকেন, X-এর আকার 2 × 4," in md
    assert "\n## আউটপুট\n" in md
    english = derive(AttentionSpec.example("split-scaled")).to_markdown()
    assert english.startswith("# Two tokens, split heads, scaled by √2\n")


def test_a_users_own_title_stays_as_written() -> None:
    spec = AttentionSpec(title="My own", x=[[1, 0], [0, 1]])
    assert derive(spec).to_markdown(lang="bn").startswith("# My own\n")


def test_a_spec_carries_its_own_translations() -> None:
    spec = AttentionSpec(x=[[1, 0]], translations={"bn": {"title": "একটি token"}})
    assert derive(spec).to_markdown(lang="bn").startswith("# একটি token\n")
    assert derive(spec).to_markdown().startswith("# Multi-head attention\n")
    with pytest.raises(SpecError) as error:
        AttentionSpec(x=[[1, 0]], translations={"bn": {"titel": "x"}})
    assert str(error.value) == (
        "<arguments>: unknown key 'translations.bn.titel' (did you mean 'title'?)"
    )


def test_bengali_headings_go_bold_in_the_pdf() -> None:
    # Bengali fonts (Lohit) ship no bold face: XeLaTeX draws one, so headings are bold.
    d = derive(AttentionSpec.example("two-tokens"))
    tex = render(d, "tex", Options(lang="bn"), font="Lohit Bengali")
    assert "\\newfontfamily\\bengalifont{Lohit Bengali}[Script=Bengali, AutoFakeBold=2.5]" in tex


@pytest.mark.parametrize("fmt", ["md", "tex"])
@pytest.mark.parametrize("name", ["two-tokens", "split-scaled", "pytorch-style", "temperature"])
def test_exercise_sheets_and_answer_keys_are_all_bengali(name: str, fmt: str) -> None:
    from mha_symbolic.exercises import bank

    raw = bank.load(example=name)
    files = bank.make_variant(raw, 1, 1, bank.ExerciseOptions(lang="bn", fmt=fmt))
    spec = AttentionSpec.from_dict(raw)
    for path in (f"variant-001/sheet.{fmt}", f"variant-001/answers.{fmt}"):
        assert english_words(files[path].decode(), _labels(spec)) == [], path


def test_the_text_format_labels_column_groups_in_the_readers_language() -> None:
    d = derive(AttentionSpec.example("pytorch-style"))
    bn = render(d, "text", Options(lang="bn"), images={})
    # the label above its group, the chain's equals sign by the group's brackets
    assert "\n        O-এর কলাম 1–2:\n" in bn and "columns" not in bn
    assert "\n        columns 1–2 of O:\n" in render(d, "text", Options(), images={})
