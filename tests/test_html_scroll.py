"""The HTML solution as a browser draws it: no scrollbar where the maths fits."""

from __future__ import annotations

from pathlib import Path

from mha_symbolic import AttentionSpec, derive
from tests.web_server import browser


def test_no_equation_shows_a_scrollbar_it_does_not_need(tmp_path: Path) -> None:
    """A display is a scroll container so that a wide matrix scrolls sideways; it then scrolled
    down too, and temperature's "O = C" (one line, its glyphs 2px taller than its box) showed a
    vertical scrollbar beside it in Chromium."""
    driver = browser()
    try:
        page = tmp_path / "temperature.html"
        page.write_text(derive(AttentionSpec.example("temperature")).to_html(), encoding="utf-8")
        driver.get(page.as_uri())
        scrolling = driver.execute_script(
            "return [...document.querySelectorAll('.equation')].filter(e => {"
            " const y = getComputedStyle(e).overflowY;"
            " return (y === 'auto' || y === 'scroll') && e.scrollHeight > e.clientHeight;"
            "}).map(e => e.textContent.trim());"
        )
    finally:
        driver.quit()
    assert scrolling == []
