"""The HTML page's brackets: a browser draws a stretchy bracket with room on both sides, so
brackets around a flat expression are plain ((a + 3)(3a + 1), not ( a + 3 ) ( 3a + 1 )); only
those around something tall stretch."""

from __future__ import annotations

import re

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.solution.fences import flat
from mha_symbolic.solution.render import render
from mha_symbolic.solution.view import Options


def test_brackets_around_a_flat_expression_are_plain_around_a_tall_one_they_stretch() -> None:
    assert (
        flat(r"\frac{1}{\left(a + 3\right) \left(3 a + 1\right)}") == r"\frac{1}{(a + 3) (3 a + 1)}"
    )
    assert flat(r"\left[0.5,\; 1\right]") == "[0.5,\\; 1]"
    tall = r"\operatorname{softmax}\left(\frac{Q}{\sqrt{d}}\right)"
    assert flat(tall) == tall
    # a bracket around one that stretches stretches too; an inner flat one does not
    assert flat(r"\left(\left(a\right) + \left(\frac{1}{2}\right)\right)") == (
        r"\left((a) + \left(\frac{1}{2}\right)\right)"
    )
    # \middle needs its \left and \right; braces, bars and \left. are left as they are
    for kept in (r"\left[1 \;\middle|\; 0\right]", r"\left\{x\right\}", r"\left.x\right|"):
        assert flat(kept) == kept


def test_pytorch_style_s_output_fractions_have_plain_brackets_in_the_html() -> None:
    html = render(derive(AttentionSpec.example("pytorch-style")), "html", Options(), images={})
    stretchy = re.findall(r'<mo stretchy="true" fence="true" form="prefix">&#x00028;', html)
    plain = re.findall(r'<mo stretchy="false">&#x00028;</mo><mi>a</mi>', html)
    assert plain and len(stretchy) < 20, len(stretchy)


def test_an_operator_name_has_its_thin_space_and_a_slash_none() -> None:
    """rope's entries read cos1 - sin2φ in a browser, and 1/2 in an exponent 1 / 2."""
    from mha_symbolic.solution.fences import spaced_functions

    assert spaced_functions(r"\cos 2 - \sin 2 \varphi") == r"\cos\, 2 - \sin\, 2 \varphi"
    for kept in (r"\cos{\left(2 \right)}", r"\sin^{2} x", r"\cosh x", r"\cos \left(x\right)"):
        assert spaced_functions(kept) == kept
    html = render(derive(AttentionSpec.example("rope")), "html", Options(), images={})
    assert "<mi>cos</mi><mspace" in html and "<mi>cos</mi><mn>" not in html
    assert '<mo lspace="0" rspace="0">&#x0002F;</mo>' in html and "<mo>&#x0002F;</mo>" not in html


def test_a_matrix_of_several_rows_in_html_prose_is_set_apart_with_its_mark() -> None:
    """split-scaled's assumed Z_2, in the line, pushed apart the lines of its note and its
    fractions were too small to read: set apart as in the PDF, the full stop with it."""
    from mha_symbolic.solution.render import _html_prose

    html = str(
        _html_prose(r"It takes $Z = \begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}$. Then $x$.")
    )
    assert html.startswith(
        'It takes <math xmlns="http://www.w3.org/1998/Math/MathML" display="block">'
    )
    assert "<mtext>.</mtext></mrow></math>Then " in html
    assert 'display="inline"><mrow><mi>x</mi>' in html
    row = str(_html_prose(r"Row $\begin{bmatrix} 1 & 2 \end{bmatrix}$."))
    assert 'display="block"' not in row and row.endswith("</math>.")
    page = render(derive(AttentionSpec.example("split-scaled")), "html", Options(), images={})
    assumption = page.split('<p class="assumption">')[1].split("</p>")[0]
    assert assumption.count('display="block"') == 2
