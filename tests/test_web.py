"""The page's server over plain HTTP (no browser): the same solution and the same one-line
messages as the command line, its bounds, and `mha-symbolic serve` itself."""

from __future__ import annotations

import importlib.util
import json
import re
import socket
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mha_symbolic.cli import main
from tests.web_server import example_text, need_web, running

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "mha_symbolic" / "web" / "static"
DOCUMENT = ROOT / "tests" / "data" / "documents" / "scaled-dot-product-exercise.md"
X_LINE = "x = [[1.0, 0.0], [0.0, 1.0]]"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    need_web()
    with running() as address:
        yield address


def _post(server: str, path: str, body: dict[str, Any]) -> Any:
    import httpx

    return httpx.post(server + path, json=body, timeout=120)


def _solve(server: str, toml: str, seq: int = 1, user: str = "", **more: Any) -> dict[str, Any]:
    """The answer to one edit; each call a page of its own unless ``user`` is given."""
    user = user or uuid.uuid4().hex
    answer = _post(server, "api/solve", {"toml": toml, "user": user, "seq": seq, **more})
    assert answer.status_code == 200
    return dict(answer.json())


def _first_row(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(c["text"], c["decimal"]) for c in answer["heatmaps"][0]["rows"][0]]


def _cli_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any, toml: str) -> str:
    """What `mha-symbolic derive spec.toml` prints on stderr for ``toml``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spec.toml").write_text(toml, encoding="utf-8")
    assert main(["derive", "spec.toml", "--format", "md"]) == 2
    return str(capsys.readouterr().err.strip())


def test_an_example_and_an_edited_entry_give_their_exact_weights(server: str) -> None:
    """Two tokens: softmax of [1, 0] is e/(1 + e); with x[1,1] = 2 the score is 4."""
    toml = example_text("two-tokens")
    before = _solve(server, toml)
    assert before["ok"] and before["seq"] == 1
    assert _first_row(before) == [("e/(1 + e)", "0.73"), ("1/(1 + e)", "0.27")]
    assert '<section id="head1.weights">' in before["html"]
    # the softmax of row 1, written out with its scores: e^{s_1j} / (e^{1} + e^{0})
    formula = before["heatmaps"][0]["formulas"][0]
    assert formula.endswith(
        "<mrow><msup><mi>e</mi><mrow><mn>1</mn></mrow></msup><mo>&#x0002B;</mo><msup><mi>e</mi>"
        "<mrow><mn>0</mn></mrow></msup></mrow></mfrac></mrow></math>"
    )
    after = _solve(server, toml.replace(X_LINE, "x = [[2, 0], [0, 1]]"), seq=2)
    assert _first_row(after) == [("e^(4)/(1 + e^(4))", "0.98"), ("1/(1 + e^(4))", "0.02")]


def test_the_solution_is_the_html_renderers_body(server: str) -> None:
    """The page shows `derive --format html`'s own body (without its PNG heatmaps)."""
    from mha_symbolic import AttentionSpec, check, derive
    from mha_symbolic.solution.render import render
    from mha_symbolic.solution.view import Options

    d = derive(AttentionSpec.example("two-tokens"))
    page = render(d, "html", Options(decimals=3, marks=check(d).marks()), images={})
    answer = _solve(server, example_text("two-tokens"), decimals=3)
    assert answer["html"] == page.partition("<body>")[2].rpartition("</body>")[0]


def test_weights_with_symbols_get_a_heatmap_at_the_chosen_numbers(server: str) -> None:
    """As the PDF and the HTML draw them: symbolic weights at the numbers the solution chose
    (W_Q = W_K = 3I), captioned so, each cell the decimals of the solution's own line there;
    numeric weights keep their exact heatmaps."""
    answer = _solve(server, example_text("eight-tokens-split"))
    assert answer["ok"] and [m["head"] for m in answer["heatmaps"]] == [1, 2]
    first = answer["heatmaps"][0]
    assert first["chosen"] is True
    assert [c["decimal"] for c in first["rows"][0]] == [
        "0.07",
        "0.15",
        "0.03",
        "0.24",
        "0.05",
        "0.14",
        "0.08",
        "0.22",
    ]
    assert first["rows"][0][3]["shade"] == 0.24 and first["rows"][0][3]["mathml"] is None
    assert (
        "<figcaption>Attention weights of head 1 at the numbers chosen above: row = query "
        "token, column = key token.</figcaption>"
    ) in answer["html"]
    assert "contain symbols" not in answer["html"]
    numeric = _solve(server, example_text("two-tokens"))["heatmaps"]
    assert len(numeric) == 2 and not any(m.get("chosen") for m in numeric)


def test_an_empty_decimals_control_takes_the_specs_own(server: str) -> None:
    """Without decimals the page prints the spec's ``decimals = 3`` (as ``derive`` does
    without ``--decimals``); the page's control, when set, says otherwise."""
    toml = "decimals = 3\n" + example_text("two-tokens")
    assert _first_row(_solve(server, toml))[0] == ("e/(1 + e)", "0.731")
    assert _first_row(_solve(server, toml, decimals=1))[0] == ("e/(1 + e)", "0.7")
    assert _first_row(_solve(server, example_text("two-tokens")))[0][1] == "0.73"


WRONG_CLAIM = ('"head1.weights[1]" = "[0.73, 0.27]"', '"head1.weights[1]" = "[0.8, 0.2]"')
WRONG_MARK = (  # the printed list typeset as maths, as --format html writes it
    "<strong>⚠ The document prints a wrong number here.</strong> It prints <math "
)


def test_the_solution_comes_first_and_the_claims_marks_when_asked(server: str) -> None:
    """The page's first request skips the claims' check and says the marks come later; the
    second is the whole solution, a wrong claim marked in place."""
    toml = example_text("two-tokens").replace(*WRONG_CLAIM)
    first = _solve(server, toml, marks=False)
    assert first["ok"] and first["marks_later"] is True
    assert "wrong number" not in first["html"]
    whole = _solve(server, toml, marks=True)
    assert whole["marks_later"] is False and WRONG_MARK in whole["html"]
    assert whole["heatmaps"] == first["heatmaps"]
    plain = _solve(server, example_text("alibi"), marks=False)
    assert plain["marks_later"] is False  # no claims: nothing to ask again for
    refused = _post(server, "api/solve", {"toml": toml, "marks": "no"})
    assert (refused.status_code, refused.json()["error"]) == (
        400, "mha-symbolic: marks must be true or false"
    )  # fmt: skip


def test_a_bad_value_is_the_command_lines_line_at_its_field(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    toml = example_text("two-tokens").replace(X_LINE, "x = [[1.0, 0.0], [0.0]]")
    answer = _solve(server, toml)
    assert answer.pop("grids")[0]["title"] == "w_q, head 1"  # x, ragged, is no grid now
    assert answer == {
        "ok": False,
        "error": "mha-symbolic: spec.toml: x: row 2 has 1 entry but row 1 has 2",
        "field": "x",
        "line": 17,
        "seq": 1,
    }
    assert answer["error"] == _cli_error(tmp_path, monkeypatch, capsys, toml)


def test_a_toml_error_names_its_line(server: str, tmp_path: Path, monkeypatch, capsys) -> None:
    toml = example_text("two-tokens").replace("heads = 2", "heads = = 2")
    answer = _solve(server, toml)
    assert answer["line"] == 11
    assert answer["error"] == _cli_error(tmp_path, monkeypatch, capsys, toml)
    assert answer["error"].startswith("mha-symbolic: spec.toml: invalid TOML: ")


def _symbolic(length: int, width: int, heads: int) -> str:
    """A spec with symbolic weights (a symbol per entry): slow to derive exactly."""
    x = [[(i * j) % 3 for j in range(width)] for i in range(length)]
    weights = "\n".join(f'{name} = "symbolic"' for name in ("w_q", "w_k", "w_v"))
    return f"heads = {heads}\nx = {x}\n[weights]\n{weights}\n"


def _slow() -> str:
    """A spec the page takes seconds over (about 4 s on a quiet 2-core machine, since the
    page remembers small products): symbolic W_O too, just under the size refusal."""
    return _symbolic(24, 16, 2) + 'w_o = "symbolic"\n'


def test_a_spec_too_large_is_refused_as_the_command_line_refuses_it(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    toml = _symbolic(32, 16, 4)
    answer = _solve(server, toml)
    assert answer["error"] == (
        "mha-symbolic: spec.toml: an exact derivation of (L, E, h) = (32, 16, 4) would take "
        "about 1 minute; pass --large to go ahead"
    )
    assert answer["error"] == _cli_error(tmp_path, monkeypatch, capsys, toml)


def test_a_limit_is_the_command_lines_limit(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """temperature: as tau -> 0+ the weights are one-hot (its tie split exactly 1/2, 1/2)."""
    answer = _solve(server, example_text("temperature"), limit="tau=0+")
    assert _first_row(answer) == [("1/2", "0.50"), ("0", "0"), ("1/2", "0.50")]
    bad = _solve(server, example_text("two-tokens"), limit="tau=0+")
    assert (bad["error"], bad["field"]) == (
        "mha-symbolic: 'tau' is not a parameter: this spec declares none ([parameters])",
        "limit",
    )
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spec.toml").write_text(example_text("two-tokens"), encoding="utf-8")
    assert main(["derive", "spec.toml", "--limit", "tau=0+", "--format", "md"]) == 2
    assert capsys.readouterr().err.strip() == bad["error"]


def test_user_text_reaches_the_page_escaped(server: str) -> None:
    toml = example_text("two-tokens").replace(
        'title = "Two tokens, two heads"', 'title = "<script>alert(1)</script>"'
    )
    html = _solve(server, toml)["html"]
    assert "<script>" not in html
    assert "<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>" in html


def test_an_older_request_answered_after_a_newer_one_is_dropped(server: str) -> None:
    toml = example_text("one-token")
    assert _solve(server, toml, seq=5, user="late")["ok"]
    assert _solve(server, toml, seq=4, user="late") == {"ok": False, "superseded": True, "seq": 4}


def test_a_running_derivation_is_stopped_by_the_next_edit(server: str) -> None:
    """A slow spec (``_slow``) is stopped by the same page's next request."""
    slow: dict[str, Any] = {}
    user = {"user": "stopper"}

    def first() -> None:
        slow.update(_post(server, "api/solve", {"toml": _slow(), "seq": 1, **user}).json())

    thread = threading.Thread(target=first)
    thread.start()
    thread.join(timeout=0.8)  # let it reach a worker
    quick = _post(server, "api/solve", {"toml": example_text("two-tokens"), "seq": 2, **user})
    thread.join(timeout=120)
    assert quick.json()["ok"] and quick.json()["seq"] == 2
    assert slow == {"ok": False, "superseded": True, "seq": 1}


def test_a_derivation_over_the_time_limit_is_stopped() -> None:
    need_web()
    import httpx

    with running(time_limit=1, workers=1) as address:
        # about 4 s on a quiet machine; a fresh worker then answers a tiny spec at once
        body = {"toml": _slow(), "user": "t", "seq": 1}
        answer = httpx.post(address + "api/solve", json=body, timeout=120).json()
        assert answer["error"] == (
            "mha-symbolic: spec.toml: stopped after 1 s, the page's time limit for one "
            "derivation (`mha-symbolic derive` has none)"
        )
        again = {**body, "toml": "x = [[1]]\n", "seq": 2}  # a fresh worker took its place
        assert httpx.post(address + "api/solve", json=again, timeout=120).json()["ok"]


def test_a_request_body_over_the_bound_is_413(server: str) -> None:
    import httpx

    from mha_symbolic.web.app import MAX_BODY

    answer = httpx.post(server + "api/solve", content=b"x" * (MAX_BODY + 1), timeout=60)
    assert answer.status_code == 413
    assert answer.json()["error"] == (
        "mha-symbolic: the request is over 5,100,000 bytes; at most 5,100,000 are read "
        "(a spec file's bound)"
    )


def test_requests_of_the_wrong_shape_are_one_line_each(server: str) -> None:
    import httpx

    assert httpx.post(server + "api/solve", content=b"[1]").json()["error"] == (
        "mha-symbolic: the request is not a JSON object"
    )
    answer = _post(server, "api/solve", {"toml": 5, "seq": 1})
    assert (answer.status_code, answer.json()["error"]) == (400, "mha-symbolic: toml must be text")


def test_another_host_name_is_refused(server: str) -> None:
    import httpx

    assert httpx.get(server, headers={"Host": "attacker.example"}).status_code == 400


def test_a_pasted_document_gets_its_verdicts_and_the_right_values(server: str) -> None:
    answer = _post(server, "api/check", {"text": DOCUMENT.read_text(), "seq": 1, "lang": "en"})
    example = answer.json()["examples"][0]
    assert example["lines"][:3] == ["Q (line 13) -> q", "Q (line 13) -> k", "V (line 14) -> v"]
    claim = example["claims"][0]
    assert (claim["key"], claim["verdict"], claim["holds"]) == ("output", "wrong", False)
    assert claim["claimed"] == "[[1.66082, 2.66082], [2.33918, 3.33918]]"
    assert claim["decimal"] == "[[1.6604769, 2.6604769], [2.3395231, 3.3395231]]"
    assert example["summary"] == "<text>: 1 claim: 0 hold (0 exact, 0 rounded), 1 wrong"


def test_an_html_document_is_read_as_html(server: str) -> None:
    page = (DOCUMENT.parent / "self-attention-from-scratch.html").read_text()
    answer = _post(server, "api/check", {"text": page, "kind": "html", "seq": 1}).json()
    assert answer.get("error") is None, answer
    example = answer["examples"][0]
    assert example["summary"] == "<text>: 6 claims: 6 hold (6 exact, 0 rounded)"
    assert all(claim["holds"] for claim in example["claims"])
    bad = _post(server, "api/check", {"text": page, "kind": "pdf", "seq": 1}).json()
    assert (bad["error"], bad["field"]) == (
        "mha-symbolic: unknown document kind 'pdf'; read are md, txt, tex, ipynb, html",
        "document",
    )


def test_an_uploaded_notebook_is_read_as_a_notebook(server: str) -> None:
    """A notebook file opened in the tab is sent as its JSON text with the kind ipynb."""
    notebook = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": [
                "# Scaled dot-product attention\n", "softmax(Q Kᵀ / √d_k) V with d_k = 2\n"]},
            {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": [
                "Q = K = np.array([[1, 0], [0, 1]])\n", "V = np.array([[1, 2], [3, 4]])\n",
                "print(softmax(Q @ K.T / np.sqrt(2)) @ V)"],
             "outputs": [{"output_type": "stream", "name": "stdout",
                          "text": ["[[1.6605 2.6605]\n", " [2.3395 3.3395]]\n"]}]},
        ],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    }  # fmt: skip
    text = json.dumps(notebook, indent=1)
    answer = _post(server, "api/check", {"text": text, "kind": "ipynb", "user": "nb", "seq": 1})
    [example] = answer.json()["examples"]
    assert example["lines"][2:6] == [
        "cell 2, output line 1 (2x2) = softmax(cell 2, line 1 / √2, by rows) × cell 2, line 2: "
        "holds to 4 digits",
        "Q (cell 2, line 1) -> q",
        "Q (cell 2, line 1) -> k",
        "V (cell 2, line 2) -> v",
    ]
    assert example["summary"] == "<text>: 1 claim: 1 holds (0 exact, 1 rounded)"
    assert example["claims"][0]["claimed"] == "[[1.6605, 2.6605], [2.3395, 3.3395]]"


def test_a_downloaded_markdown_is_what_derive_writes(
    server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    toml = example_text("two-tokens")
    answer = _post(server, "api/download", {"toml": toml, "format": "md"})
    assert answer.headers["content-disposition"] == 'attachment; filename="solution.md"'
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spec.toml").write_text(toml, encoding="utf-8")
    assert main(["derive", "spec.toml", "--format", "md"]) == 0
    assert answer.text == capsys.readouterr().out


def test_the_grids_hold_x_and_each_heads_weights_as_written(server: str) -> None:
    grids = _solve(server, example_text("two-tokens"))["grids"]
    assert [g["title"] for g in grids] == [
        "x", "w_q, head 1", "w_q, head 2", "w_k, head 1", "w_k, head 2", "w_v, head 1",
        "w_v, head 2", "w_o",
    ]  # fmt: skip
    assert grids[0]["rows"] == [["1.0", "0.0"], ["0.0", "1.0"]]
    assert grids[-1]["rows"] == [["1/2", "0"], ["0", "1/2"], ["1/2", "0"], ["0", "1/2"]]


def test_a_grid_edit_changes_one_entry_and_keeps_the_comments(server: str) -> None:
    toml = example_text("two-tokens")
    body = {"toml": toml, "path": ["weights", "w_q", "0"], "row": 1, "col": 1, "value": "1/2"}
    changed = _post(server, "api/edit", body).json()["toml"]
    assert changed == toml.replace(
        "w_q = [[[1, 0], [0, 1]], [[0, 1], [1, 0]]]",
        'w_q = [[[1, 0], [0, "1/2"]], [[0, 1], [1, 0]]]',
    )
    body = {"toml": toml, "path": ["x"], "row": 0, "col": 0, "value": "2"}
    assert _post(server, "api/edit", body).json()["toml"] == toml.replace(
        X_LINE, "x = [[2, 0.0], [0.0, 1.0]]"
    )
    answer = _post(server, "api/edit", {**body, "path": ["weights", "w_z"]})
    assert (answer.status_code, answer.json()["error"]) == (
        400, "mha-symbolic: weights.w_z[1,1]: not in the spec any more"
    )  # fmt: skip
    empty = _post(server, "api/edit", {**body, "value": " "}).json()["error"]
    assert empty == "mha-symbolic: an entry cannot be empty"


def test_a_pdf_download_is_a_pdf(server: str) -> None:
    import shutil

    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed (texlive-latex-base)")
    answer = _post(server, "api/download", {"toml": example_text("one-token"), "format": "pdf"})
    assert answer.headers["content-type"] == "application/pdf"
    assert answer.content.startswith(b"%PDF-")


def test_the_solution_in_bengali(server: str) -> None:
    answer = _solve(server, example_text("two-tokens"), lang="bn")
    assert "<h1>দুটি টোকেন, দুটি হেড</h1>" in answer["html"]


def test_the_page_and_its_files_come_from_the_package(server: str) -> None:
    import httpx

    page = httpx.get(server)
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    assert '<script src="/static/app.js" defer></script>' in page.text
    for name in ("app.js", "style.css"):
        assert httpx.get(server + "static/" + name).text == (STATIC / name).read_text()
    examples = httpx.get(server + "api/examples").json()
    assert [e["name"] for e in examples][:3] == ["alibi", "causal-dropout", "eight-tokens-split"]


def test_nothing_served_comes_from_another_site() -> None:
    """No CDN: the page works offline (a URL in the files would be fetched from elsewhere)."""
    for path in STATIC.iterdir():
        assert not re.search(r"https?://|//cdn|@import", path.read_text()), path.name


def test_the_static_files_ship_in_the_wheel() -> None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    globs = data["package-data"]["mha_symbolic.web"]
    shipped = {p.name for g in globs for p in (STATIC.parent).glob(g)}
    assert shipped == {p.name for p in STATIC.iterdir()}


def test_serve_without_the_extra_says_how_to_install_it(monkeypatch, capsys) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name)
    )
    assert main(["serve"]) == 2
    assert capsys.readouterr().err == (
        "mha-symbolic: serve needs uvicorn: pip install 'mha-symbolic[web]'\n"
    )


def test_serve_on_a_busy_port_is_one_line(capsys: Any) -> None:
    need_web()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert capsys.readouterr().err == (
        f"mha-symbolic: --port {port}: cannot listen on 127.0.0.1: Address already in use\n"
    )


def test_serve_says_when_it_listens_beyond_this_machine(monkeypatch, capsys) -> None:
    need_web()
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: sockets[0].close())
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"mha-symbolic: serving the page at http://0\.0\.0\.0:\d+/ \(Ctrl-C "
                        r"stops\)", lines[0])  # fmt: skip
    assert lines[1] == (
        "mha-symbolic: listening on 0.0.0.0, not only this machine: anyone who can reach it "
        "can use the page"
    )
    assert main(["serve", "--port", "0"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_the_bench_row_times_an_edit_of_an_example() -> None:
    from mha_symbolic.bench.page import bench_page

    lines = list(bench_page(quick=True))
    assert lines[0] == "page: an edit of a built-in example, server time (median ms; target 300)"
    assert lines[1] == "example                solution  with marks"
    assert re.fullmatch(r"two-tokens +\d+\.\d ms +\d+\.\d ms", lines[2]), lines
    json.dumps(lines)


def test_the_pages_heatmap_words_are_in_the_solutions_language() -> None:
    """The browser draws the page's heatmaps with the words the server sends, in the
    language of the solution beside them: its caption (symbolic weights at the chosen
    numbers) and an entry's detail line; app.js writes none of these words itself."""
    pytest.importorskip("latex2mathml")
    from mha_symbolic.exact.evaluate import derive
    from mha_symbolic.spec.attention import AttentionSpec
    from mha_symbolic.web.heatmaps import heatmaps
    from tests.english import english_words

    d = derive(AttentionSpec.example("eight-tokens-split"))
    bengali = heatmaps(d, lambda key: 2, "bn")[0]["words"]
    assert bengali["caption"] == (
        "সমাধানের বেছে নেওয়া সংখ্যায় হেড 1-এর অ্যাটেনশন ওয়েট: কোনো উপাদানের ওপর মাউস রাখুন "
        "বা ফোকাস করুন (তীর-কী দিয়ে সরানো যায়)"
    )
    assert all(english_words(re.sub(r"\{\w+\}", " ", w)) == [] for w in bengali.values())
    english = heatmaps(derive(AttentionSpec.example("two-tokens")), lambda key: 2)[1]["words"]
    assert english["caption"].startswith("Attention weights, head 2: hover")
    assert english["softmax_row"] == "softmax of row {row}:"
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    assert not any(w in script for w in ("at the chosen numbers", "softmax of row", "hover"))


def test_the_pages_heatmap_of_weights_masked_after_the_softmax_is_the_softmax_s() -> None:
    """Each entry's line says its row is the softmax of the scores written out; the
    renormalised weights after a mask on the weights are no softmax of the kept weights before
    them, so the page draws the head's softmax, once, with its own scores."""
    pytest.importorskip("latex2mathml")
    from mha_symbolic.exact.evaluate import derive
    from mha_symbolic.spec.attention import AttentionSpec
    from mha_symbolic.web.heatmaps import heatmaps

    drawn = heatmaps(derive(AttentionSpec.example("causal-dropout")), lambda key: 2)
    assert [(h["key"], h["head"]) for h in drawn] == [("head1.weights", 1)]
    assert [c["text"] for c in drawn[0]["rows"][1]] == ["1/(1 + 2*e)", "e/(1 + 2*e)", "e/(1 + 2*e)"]
    assert "<mn>2</mn></mrow></msup></mrow></mfrac>" in drawn[0]["formulas"][2]  # e^2 of s_33
