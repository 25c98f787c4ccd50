"""The page in a real headless Chromium, used as a teacher or a student would: pick an
example, edit an entry and see its exact value change, enter a bad value and see the
command line's message at its field, check a pasted document, and all of it by keyboard.

Each test skips with a reason where Chromium, its driver or the web extra is missing.
Set MHA_WEB_SCREENSHOTS=DIR to keep a screenshot of each state (to look at, not to commit).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web_server import browser, need_web, running

# With pytest -n: one Chromium (the `site` fixture), on one worker.
pytestmark = pytest.mark.xdist_group("test_web_browser")

DOCUMENT = Path(__file__).parent / "data" / "documents" / "scaled-dot-product-exercise.md"
WAIT = 120  # seconds a state may take to appear on a loaded machine (a bound, not a timing)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def site(downloads: Path) -> Iterator[tuple[str, Any]]:
    need_web()
    driver = browser(downloads)
    try:
        with running() as address:
            yield address, driver
    finally:
        driver.quit()


def _until(driver: Any, condition: Callable[[Any], Any]) -> Any:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # The solution is replaced as answers come: an element read a moment ago may be gone.
    ignored = (NoSuchElementException, StaleElementReferenceException)
    return WebDriverWait(driver, WAIT, 0.1, ignored).until(condition)


def _shot(driver: Any, name: str) -> None:
    folder = os.environ.get("MHA_WEB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))


def _cell(driver: Any, head: int, row: int, col: int) -> Any:
    from selenium.webdriver.common.by import By

    selector = f'[data-key="head{head}.weights"] tbody tr:nth-child({row}) td:nth-of-type({col})'
    found = driver.find_elements(By.CSS_SELECTOR, selector)
    return found[0] if found else None


def _label(driver: Any, head: int, row: int, col: int) -> str | None:
    cell = _cell(driver, head, row, col)
    return cell.get_attribute("aria-label") if cell is not None else None


def _open(site: tuple[str, Any]) -> Any:
    address, driver = site
    driver.get(address)
    _until(driver, lambda d: _label(d, 1, 1, 1))  # two-tokens, derived on load
    return driver


def _keys(driver: Any, *keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    actions = ActionChains(driver)
    for key in keys:
        actions.send_keys(key)
    actions.perform()


def _chord(driver: Any, modifier: str, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).key_down(modifier).send_keys(key).key_up(modifier).perform()


def _replace_line(driver: Any, number: int, text: str) -> None:
    """In the spec editor, by keyboard: go to line ``number`` and type ``text`` over it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.find_element(By.ID, "spec").click()
    _chord(driver, Keys.CONTROL, Keys.HOME)
    _keys(driver, *[Keys.DOWN] * (number - 1), Keys.HOME)
    _chord(driver, Keys.SHIFT, Keys.END)
    _keys(driver, text)


def test_an_example_picked_and_an_entry_edited_show_the_exact_value(site) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = _open(site)
    # _until, never a plain read: the claims' marks may replace the heatmap a moment later
    _until(driver, lambda d: _label(d, 1, 1, 1) == "α[1,1], I → I = e/(1 + e) ≈ 0.73")
    _shot(driver, "1-two-tokens")
    Select(driver.find_element(By.ID, "example")).select_by_value("split-scaled")
    _until(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#solution h1").text.startswith(
        "Two tokens, split heads"))  # fmt: skip
    scaled = "α[1,1], t1 → t1 = e^(sqrt(2)/2)/(1 + e^(sqrt(2)/2)) ≈ 0.67"
    _until(driver, lambda d: _label(d, 1, 1, 1) == scaled)
    Select(driver.find_element(By.ID, "example")).select_by_value("two-tokens")
    _until(driver, lambda d: _label(d, 1, 1, 1) == "α[1,1], I → I = e/(1 + e) ≈ 0.73")
    _replace_line(driver, 17, "x = [[2, 0], [0, 1]]")
    _until(driver, lambda d: _label(d, 1, 1, 1) == "α[1,1], I → I = e^(4)/(1 + e^(4)) ≈ 0.98")
    power = "<msup><mi>e</mi><mrow><mn>4</mn></mrow></msup>"
    weights = (By.ID, "head1.weights")
    _until(driver, lambda d: power in d.find_element(*weights).get_attribute("innerHTML"))
    _shot(driver, "2-edited")


def test_an_entry_of_the_grid_edited_changes_the_spec_and_the_exact_value(site) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver = _open(site)
    cell = driver.find_element(By.CSS_SELECTOR, 'input[aria-label="x, row 1, column 1"]')
    cell.click()
    _chord(driver, Keys.CONTROL, "a")
    _keys(driver, "3", Keys.TAB)
    _until(driver, lambda d: _label(d, 1, 1, 1) == "α[1,1], I → I = e^(9)/(1 + e^(9)) ≈ 1.00")
    spec = driver.find_element(By.ID, "spec").get_attribute("value")
    assert "\nx = [[3, 0.0], [0.0, 1.0]]\n" in spec
    _shot(driver, "2b-grid")


def test_a_bad_value_shows_the_command_lines_message_at_its_field(site) -> None:
    from selenium.webdriver.common.by import By

    driver = _open(site)
    _replace_line(driver, 17, "x = [[1, 0], [0]]")
    error = _until(driver, lambda d: d.find_element(By.ID, "spec-error").text or None)
    assert error == "line 17: mha-symbolic: spec.toml: x: row 2 has 1 entry but row 1 has 2"
    marked = driver.find_elements(By.CSS_SELECTOR, "#gutter .bad")
    assert [span.text for span in marked] == ["17"]
    solution = driver.find_element(By.ID, "solution")
    assert "stale" in solution.get_attribute("class").split()
    assert _label(driver, 1, 1, 1) == "α[1,1], I → I = e/(1 + e) ≈ 0.73"  # the last good one
    assert driver.find_element(By.ID, "spec").get_attribute("aria-invalid") == "true"
    _shot(driver, "3-bad-value")
    _replace_line(driver, 17, "x = [[1, 0], [0, 1]]")
    _until(driver, lambda d: "stale" not in solution.get_attribute("class").split())
    assert not driver.find_element(By.ID, "spec-error").is_displayed()


def test_a_wrong_claim_of_the_spec_is_marked_after_the_solution(site) -> None:
    from selenium.webdriver.common.by import By

    driver = _open(site)
    _replace_line(driver, 27, '"head1.weights[1]" = "[0.8, 0.2]"')
    mark = _until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#solution p.wrong"))[0]
    shown = "".join(mark.text.split())  # the printed list is MathML: one element per token
    assert shown.startswith("⚠Thedocumentprintsawrongnumberhere.Itprints[0.8,0.2](wrong);theexact")
    _until(driver, lambda d: d.find_element(By.ID, "status").text == "")
    _shot(driver, "3b-wrong-claim")


def test_a_pasted_document_shows_its_wrong_numbers_with_the_right_values(site) -> None:
    from selenium.webdriver.common.by import By

    driver = _open(site)
    driver.find_element(By.ID, "tab-check").click()
    driver.find_element(By.ID, "document").send_keys(DOCUMENT.read_text())
    driver.find_element(By.ID, "check-button").click()
    row = _until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#report tr.wrong"))[0]
    cells = [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
    assert cells[:3] == ["output", "[[1.66082, 2.66082], [2.33918, 3.33918]]", "wrong"]
    assert cells[4] == "[[1.6604769, 2.6604769], [2.3395231, 3.3395231]]"
    summary = driver.find_element(By.CSS_SELECTOR, "#report .summary").text
    assert summary == "<text>: 1 claim: 0 hold (0 exact, 0 rounded), 1 wrong"
    _shot(driver, "4-document")


def test_an_opened_file_is_checked(site) -> None:
    from selenium.webdriver.common.by import By

    driver = _open(site)
    driver.find_element(By.ID, "tab-check").click()
    driver.find_element(By.ID, "doc-file").send_keys(str(DOCUMENT))
    _until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#report tr.wrong"))
    assert driver.find_element(By.ID, "doc-kind").get_attribute("value") == "md"
    assert driver.find_element(By.ID, "document").get_attribute("value") == DOCUMENT.read_text()


TEX_DOCUMENT = r"""\documentclass{article}
\begin{document}
\section{Scaled dot-product attention}
Attention$(Q, K, V) = \mathrm{softmax}(Q K^\top / \sqrt{d_k})\, V$ with $d_k = 2$ and
\[ Q = K = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}, \quad
   V = \begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}. \]
The output is
\[ \mathrm{Output} \approx \begin{bmatrix} 1.66082 & 2.66082 \\ 2.33918 & 3.33918 \end{bmatrix}. \]
\end{document}
"""


def test_an_opened_tex_file_is_read_as_latex(site, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    path = tmp_path / "exercise.tex"
    path.write_text(TEX_DOCUMENT, encoding="utf-8")
    driver = _open(site)
    driver.find_element(By.ID, "tab-check").click()
    driver.find_element(By.ID, "doc-file").send_keys(str(path))
    row = _until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#report tr.wrong"))[0]
    assert driver.find_element(By.ID, "doc-kind").get_attribute("value") == "tex"
    cells = [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
    assert cells[:3] == ["output", "[[1.66082, 2.66082], [2.33918, 3.33918]]", "wrong"]
    assert cells[4] == "[[1.6604769, 2.6604769], [2.3395231, 3.3395231]]"
    title = driver.find_element(By.CSS_SELECTOR, "#report h2").text
    assert title == "Scaled dot-product attention"


def test_the_form_writes_the_spec_and_the_solution_follows(site) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = _open(site)
    Select(driver.find_element(By.ID, "f-mask")).select_by_value("causal")
    _until(driver, lambda d: d.find_elements(By.ID, "head1.masked"))
    assert '\nmask = "causal"\n' in driver.find_element(By.ID, "spec").get_attribute("value")
    # the second token's query sees both; the first only itself
    _until(driver, lambda d: _label(d, 1, 1, 2) == "α[1,2], I → love = 0 ≈ 0")
    _shot(driver, "2c-causal")


def _type_into(driver: Any, element_id: str, text: str) -> None:
    """Click the field, type ``text`` over its value and leave it by Tab (a change)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.find_element(By.ID, element_id).click()
    _chord(driver, Keys.CONTROL, "a")
    _keys(driver, text, Keys.TAB)


def test_the_temperature_writes_the_scale_and_a_bad_one_is_marked_there(site) -> None:
    from selenium.webdriver.common.by import By

    driver = _open(site)
    _type_into(driver, "f-tau", "0.5")  # the scores of two-tokens doubled: e^2/(1 + e^2)
    _until(driver, lambda d: _label(d, 1, 1, 1) == "α[1,1], I → I = e^(2)/(1 + e^(2)) ≈ 0.88")
    assert '\nscale = "1/0.5"\n' in driver.find_element(By.ID, "spec").get_attribute("value")
    assert driver.find_element(By.ID, "f-scale").get_attribute("value") == "1/0.5"
    _shot(driver, "2d-temperature")
    _type_into(driver, "f-tau", "0")
    error = _until(driver, lambda d: d.find_element(By.ID, "form-error").text or None)
    assert error == 'mha-symbolic: spec.toml: scale: "1/0" divides by zero'
    assert driver.find_element(By.ID, "f-tau").get_attribute("aria-invalid") == "true"
    _type_into(driver, "f-scale", "1/4")  # a scale 1/τ shows its τ
    _until(driver, lambda d: d.find_element(By.ID, "f-tau").get_attribute("value") == "4")


def test_the_page_works_by_keyboard_alone(site) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver = _open(site)

    def focused(name: str) -> Any:
        """An attribute of the focused element (``tagName`` too), read in one script: the page
        may replace the element (the claims' marks arriving) between two WebDriver calls, and
        it moves the focus to the new one, so a held element reference would go stale."""
        script = (
            "const e = document.activeElement, n = arguments[0]; return e[n] ?? e.getAttribute(n)"
        )
        return driver.execute_script(script, name)

    _keys(driver, Keys.TAB)
    assert focused("id") == "tab-solve"
    _keys(driver, Keys.ARROW_RIGHT)
    assert focused("id") == "tab-check"
    assert driver.find_element(By.ID, "panel-check").is_displayed()
    _keys(driver, Keys.ARROW_LEFT, Keys.TAB)
    assert focused("id") == "example"
    _keys(driver, Keys.ARROW_UP, Keys.ARROW_UP)  # two-tokens -> temperature -> split-scaled
    _until(driver, lambda d: (_label(d, 1, 1, 1) or "").startswith("α[1,1], t1 → t1 = e^("))
    _until(driver, lambda d: d.find_element(By.ID, "status").text == "")  # the claims' marks
    for _ in range(40):  # through the controls and the editor to the first heatmap
        if focused("tagName") == "TD":
            break
        _keys(driver, Keys.TAB)
    assert focused("aria-label") == _label(driver, 1, 1, 1)
    _keys(driver, Keys.ARROW_RIGHT)
    assert focused("aria-label") == ("α[1,2], t1 → t2 = 1/(1 + e^(sqrt(2)/2)) ≈ 0.33")
    detail = driver.find_element(By.CSS_SELECTOR, '[data-key="head1.weights"] .entry-detail')
    assert detail.text.startswith("α[1,2], t1 → t2: exact")
    assert "softmax of row 1:" in detail.text
    _shot(driver, "5-keyboard")


def _downloaded(driver: Any, folder: Path, name: str) -> bytes:
    """The file the page saved as ``name`` once Chromium has finished writing it."""
    path = folder / name
    _until(driver, lambda d: path.exists() and not list(folder.glob("*.crdownload")))
    return path.read_bytes()


@pytest.mark.parametrize("fmt", ["md", "tex", "json", "pdf"])
def test_a_download_button_saves_the_solution(
    site, downloads: Path, fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    import json
    import shutil

    from selenium.webdriver.common.by import By

    from mha_symbolic.cli import main

    if fmt == "pdf" and shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed (texlive-latex-base): the PDF button is disabled")
    driver = _open(site)
    # settled: the solution and its claims' check answered (each says so in the status)
    _until(driver, lambda d: d.find_element(By.ID, "status").text == "")
    driver.find_element(By.CSS_SELECTOR, f'.downloads [data-format="{fmt}"]').click()
    data = _downloaded(driver, downloads, f"solution.{fmt}")
    assert driver.find_element(By.ID, "status").text == f"Downloaded solution.{fmt}."
    if fmt == "md":  # what `derive --format md` writes for the editor's spec
        monkeypatch.chdir(tmp_path)
        spec = driver.find_element(By.ID, "spec").get_attribute("value")
        (tmp_path / "spec.toml").write_text(spec, encoding="utf-8")
        assert main(["derive", "spec.toml", "--format", "md"]) == 0
        assert data.decode("utf-8") == capsys.readouterr().out
    elif fmt == "tex":
        assert data.lstrip().startswith(b"\\documentclass[11pt]{article}")
    elif fmt == "json":
        assert json.loads(data)["title"] == "Two tokens, two heads"
    else:
        assert data.startswith(b"%PDF-")
