# ruff: noqa: E501  (the table below holds one case per line)
"""Hostile files, round two: a bank never removes what it did not write, -o never renames over
a special file, a link or the input, a --templates folder is read only inside itself and runs
within bounds. Each case: the exact line on stderr, the exit code, and every file untouched."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.cpu_bound import WALL_FACTOR, processor_limit
from tests.forked import run_forked

TIMEOUT = 60  # seconds: generous; the slowest case (a template loop) stops at 5 s of processor
SHIPPED = Path(__file__).resolve().parent.parent / "templates"
DOCUMENT = Path(__file__).resolve().parent / "data" / "documents" / "attention-i-am-happy.md"
E = "two-tokens"
OLD_BANK = json.dumps({"files": ["bank.json", "variant-001/sheet.md"]})
LEGACY_BANK = json.dumps({"format": "md", "variants": [{"files": ["variant-001/sheet.md"]}]})
EDITED_BANK = json.dumps({"files": ["bank.json", "../outside.txt", "thesis.tex", "/etc/passwd"]})
SPEC = "x = [[1, 0], [0, 1]]\n[weights]\nw_q = [[[1, 0], [0, 1]]]\nw_k = [[[1, 0], [0, 1]]]\nw_v = [[[1, 0], [0, 1]]]\n"


@dataclass(frozen=True)
class Case:
    """A command line (``{tmp}``: the case's folder, also its working folder), the exact line
    on stderr, the exit code, and what is prepared first: ``files`` (a name ending in / is a
    folder, the value "FIFO" a FIFO), ``links`` (name -> target, {tmp} expanded), ``hard``
    (name -> existing name), ``templates`` (edits to a copy of the shipped ones at {tmp}/t),
    ``stdin`` ("closed" closes it)."""

    name: str
    argv: tuple[str, ...]
    message: str
    code: int = 2
    files: Mapping[str, Any] = field(default_factory=dict)
    links: Mapping[str, str] = field(default_factory=dict)
    hard: Mapping[str, str] = field(default_factory=dict)
    templates: Mapping[str, str] | None = None
    stdin: str = ""


def _tpl(name: str, text: str, **more: Any) -> Case:
    argv = ("derive", "--example", E, "--format", "md", "--templates", "{tmp}/t")
    return Case(name, argv, more.pop("message"), templates={"derivation.md.j2": text}, **more)


REFUSED = "holds files the earlier bank did not write ({}); a bank replaces its whole folder: move them, or give a new or empty folder"
SELF = "-o names the input file itself; give another file, or --force to replace it"
OUT_OF = "links out of the templates folder; templates are read from inside it only"
# fmt: off
CASES = [
    Case("bank_beside_a_thesis", ("exercises", "--example", E, "--count", "1", "--workers", "1", "-o", "{tmp}/bank"), "mha-symbolic: {tmp}/bank: " + REFUSED.format("thesis.tex"), files={"bank/bank.json": OLD_BANK, "bank/variant-001/sheet.md": "old", "bank/thesis.tex": "my thesis"}),
    Case("bank_beside_a_src_folder", ("exercises", "--example", E, "--count", "1", "--workers", "1", "-o", "{tmp}/bank"), "mha-symbolic: {tmp}/bank: " + REFUSED.format("src, src/main.py"), files={"bank/bank.json": LEGACY_BANK, "bank/variant-001/sheet.md": "old", "bank/src/main.py": "print(1)"}),
    Case("bank_user_file_in_a_variant", ("exercises", "--example", E, "--count", "1", "--workers", "1", "-o", "{tmp}/bank"), "mha-symbolic: {tmp}/bank: " + REFUSED.format("variant-001/notes.txt"), files={"bank/bank.json": OLD_BANK, "bank/variant-001/sheet.md": "old", "bank/variant-001/notes.txt": "mine"}),
    Case("bank_index_edited_to_list_others", ("exercises", "--example", E, "--count", "1", "--workers", "1", "-o", "{tmp}/bank"), "mha-symbolic: {tmp}/bank: " + REFUSED.format("thesis.tex"), files={"bank/bank.json": EDITED_BANK, "bank/thesis.tex": "my thesis", "outside.txt": "keep"}),
    Case("bank_index_not_json", ("exercises", "--example", E, "--count", "1", "--workers", "1", "-o", "{tmp}/bank"), "mha-symbolic: {tmp}/bank: " + REFUSED.format("notes.md"), files={"bank/bank.json": "{not json", "bank/notes.md": "mine"}),
    Case("bank_is_the_current_folder", ("exercises", "--example", E, "--count", "1", "--workers", "1", "-o", "."), "mha-symbolic: .: is (or holds) the current folder; a bank replaces its whole folder: run the command from outside it", files={"bank.json": OLD_BANK, "variant-001/sheet.md": "old"}),
    Case("bank_dot_beside_a_thesis", ("exercises", "--example", E, "--count", "1", "--workers", "1", "-o", "."), "mha-symbolic: .: " + REFUSED.format("src, src/main.tex, thesis.tex"), files={"bank.json": OLD_BANK, "variant-001/sheet.md": "old", "thesis.tex": "mine", "src/main.tex": "mine"}),
    Case("bank_is_a_link", ("exercises", "--example", E, "--count", "1", "--workers", "1", "-o", "{tmp}/link"), "mha-symbolic: {tmp}/link: is a link; give the bank's folder itself", files={"real/": None}, links={"link": "{tmp}/real"}),
    Case("derive_onto_its_spec", ("derive", "{tmp}/in.toml", "-o", "{tmp}/in.toml", "--format", "md"), "mha-symbolic: {tmp}/in.toml: " + SELF, files={"in.toml": SPEC}),
    Case("derive_onto_its_spec_respelled", ("derive", "{tmp}/in.toml", "-o", "{tmp}/./sub/../in.toml", "--format", "json"), "mha-symbolic: {tmp}/./sub/../in.toml: " + SELF, files={"in.toml": SPEC, "sub/": None}),
    Case("derive_onto_a_hard_link_of_its_spec", ("derive", "in.toml", "-o", "same.toml", "--format", "md"), "mha-symbolic: same.toml: " + SELF, files={"in.toml": SPEC}, hard={"same.toml": "in.toml"}),
    Case("derive_onto_a_symlink_to_its_spec", ("derive", "in.toml", "-o", "link.md"), "mha-symbolic: link.md: " + SELF, files={"in.toml": SPEC}, links={"link.md": "in.toml"}),
    Case("extract_onto_its_document", ("extract", "{tmp}/doc.md", "-o", "{tmp}/doc.md"), "mha-symbolic: {tmp}/doc.md: " + SELF, files={"doc.md": DOCUMENT.read_text(encoding="utf-8")}),
    Case("extract_onto_a_file_named_as_a_folder", ("extract", "{tmp}/doc.md", "-o", "{tmp}/afile/"), "mha-symbolic: {tmp}/afile/: is a file, not a folder; the name asks for a folder to write the spec into", files={"doc.md": DOCUMENT.read_text(encoding="utf-8"), "afile": "keep"}),
    Case("derive_onto_a_file_named_as_a_folder", ("derive", "--example", E, "--format", "md", "-o", "{tmp}/afile/"), "mha-symbolic: {tmp}/afile/: cannot write: the name ends with /, as a folder's does", files={"afile": "keep"}),
    Case("derive_onto_a_fifo_nobody_reads", ("derive", "--example", E, "--format", "md", "-o", "{tmp}/fifo"), "mha-symbolic: {tmp}/fifo: cannot write: no process reads this FIFO", files={"fifo": "FIFO"}),
    Case("derive_onto_a_link_loop", ("derive", "--example", E, "--format", "md", "-o", "{tmp}/a"), "mha-symbolic: {tmp}/a: cannot write: Too many levels of symbolic links", links={"a": "b", "b": "a"}),
    Case("stdin_closed_derive", ("derive", "-"), "mha-symbolic: <stdin>: standard input is closed; give a spec file", stdin="closed"),
    Case("stdin_closed_claims", ("check", "--example", E, "--claims", "-"), "mha-symbolic: <stdin>: standard input is closed; give a spec file", stdin="closed"),
    # 20,000 lines of indexed values and 20,000 alignments: the readers stay linear (a
    # quadratic overlap test took 31 s here), and the page is refused in one line
    Case("check_40000_indexed_values", ("check", "{tmp}/many.md"), "mha-symbolic: {tmp}/many.md: more than 2,000 matrices and vectors; at most 2,000 are read", files={"many.md": "# softmax\n" + "z_1 = 0.1, z_2 = 0.4\n$$\\begin{align*} e^{0.1} &= 1.1052 \\\\ e^{0.2} &= 1.2214 \\end{align*}$$\n" * 20000}),
    Case("toml_integer_of_5000_digits", ("derive", "{tmp}/big.toml"), "mha-symbolic: {tmp}/big.toml: an integer of more than 4,300 digits; at most 1,000 digits are read", files={"big.toml": "x = [[" + "7" * 5000 + "]]\n"}),
    Case("assumed_unknown_key", ("check", "{tmp}/a.toml"), "mha-symbolic: {tmp}/a.toml: [assumed] unknown step key 'head9.weights'; did you mean 'head1.weights'?", files={"a.toml": SPEC + '[assumed]\n"head9.weights" = "[[0.5, 0.5], [0.5, 0.5]]"\n'}),
    _tpl("tpl_include_a_link_out", "{% include 'leak.txt' %}\n", message="mha-symbolic: {tmp}/t/leak.txt: template 'leak.txt' " + OUT_OF, links={"t/leak.txt": "/etc/passwd"}),
    _tpl("tpl_include_through_a_linked_folder", "{% include 'outside/secret.j2' %}\n", message="mha-symbolic: {tmp}/t/outside/secret.j2: template 'outside/secret.j2' " + OUT_OF, files={"elsewhere/secret.j2": "secret"}, links={"t/outside": "{tmp}/elsewhere"}),
    _tpl("tpl_include_a_fifo", "{% include 'pipe.j2' %}\n", message="mha-symbolic: {tmp}/t/pipe.j2: template 'pipe.j2' is not a regular file", files={"t/pipe.j2": "FIFO"}),
    _tpl("tpl_lipsum_ten_million", "{{ lipsum(n=10**7) }}\n", message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template refused by the sandbox (templates cannot run code): lipsum gives at most 100 paragraphs"),
    _tpl("tpl_nested_range_loops", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n", message="mha-symbolic: {tmp}/t/derivation.md.j2: template stopped: the template ran longer than 5 s (a loop too long?)"),
    _tpl("tpl_writes_gigabytes", "{% for i in range(100000) %}{{ 'a' * 1000000 }}{% endfor %}\n", message="mha-symbolic: {tmp}/t/derivation.md.j2: template stopped: the template wrote more than 67108864 characters"),
]
LINKED_TEMPLATE = Case("tpl_is_a_link_out", ("derive", "--example", E, "--format", "md", "--templates", "{tmp}/t"), "mha-symbolic: {tmp}/t/derivation.md.j2: template 'derivation.md.j2' " + OUT_OF, templates={"derivation.md.j2": "LINK:/etc/passwd"})
LINKED_LOCALE = Case("locale_is_a_link_out", ("derive", "--example", E, "--format", "md", "--templates", "{tmp}/t"), "mha-symbolic: {tmp}/t/locales/en.toml: a locale must be a file inside the templates folder (not a link out of it)", templates={"locales/en.toml": "LINK:/etc/passwd"})
CASES += [LINKED_TEMPLATE, LINKED_LOCALE]
# fmt: on


def _make(path: Path, content: Any) -> None:
    if str(content) == "FIFO":
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else str(content).encode("utf-8"))


def prepare(folder: Path, case: Case) -> None:
    folder.mkdir(parents=True)
    if case.templates is not None:
        shutil.copytree(SHIPPED, folder / "t")
    for name, content in case.files.items():
        if name.endswith("/"):
            (folder / name).mkdir(parents=True, exist_ok=True)
        else:
            _make(folder / name, content)
    for name, target in case.links.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target.replace("{tmp}", str(folder)), folder / name)
    for name, existing in case.hard.items():
        os.link(folder / existing, folder / name)
    for name, text in (case.templates or {}).items():
        path = folder / "t" / name
        path.unlink()
        if text.startswith("LINK:"):
            os.symlink(text[len("LINK:") :], path)
        else:
            path.write_text(text, encoding="utf-8")


def snapshot(folder: Path) -> dict[str, Any]:
    """Every entry under ``folder`` (links not followed): a file's bytes, a link's target,
    a folder or FIFO its kind."""
    out: dict[str, Any] = {}
    for root, folders, files in os.walk(folder):
        for name in [*folders, *files]:
            path = Path(root, name)
            mode = path.lstat().st_mode
            key = str(path.relative_to(folder))
            if stat.S_ISLNK(mode):
                out[key] = ("link", os.readlink(path))
            elif stat.S_ISREG(mode):
                out[key] = path.read_bytes()
            else:
                out[key] = stat.S_IFMT(mode)
    return out


def run(argv: list[str], cwd: Path, stdin: str = "") -> dict[str, Any]:
    """``mha-symbolic ARGV`` in a forked child; ``stdin="closed"`` closes its fd 0."""
    return run_forked(argv, cwd, None if stdin == "closed" else stdin.encode())


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_files_are_one_line_and_nothing_is_touched(tmp_path, case):
    folder = tmp_path / "case"
    prepare(folder, case)
    before = snapshot(folder)
    argv = [a.replace("{tmp}", str(folder)) for a in case.argv]
    result = run(argv, folder, case.stdin)
    assert result["stderr"] == case.message.replace("{tmp}", str(folder)) + "\n"
    assert result["code"] == case.code
    assert result["stdout"] == b""
    assert snapshot(folder) == before  # nothing removed, replaced, or left behind


def test_the_table_names_are_unique():
    assert len({c.name for c in CASES}) == len(CASES) >= 25


# ------------------------------------------------------------------ what does get written
def test_o_dev_null_and_dev_stdout_are_written_as_streams(tmp_path):
    null = run(["derive", "--example", E, "--format", "md", "-o", "/dev/null"], tmp_path)
    assert (null["code"], null["stderr"]) == (0, "wrote /dev/null\n")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)  # still the device, never renamed over
    out = run(["derive", "--example", E, "--format", "md", "-o", "/dev/stdout"], tmp_path)
    assert out["code"] == 0
    assert out["stdout"].startswith(b"# Two tokens, two heads\n")
    assert not [name for name in os.listdir("/dev") if name.startswith("stdout-")]  # no images
    assert os.listdir(tmp_path) == []


def test_o_dev_stdout_appends_to_a_redirected_file(tmp_path):
    log = tmp_path / "log.md"
    log.write_text("first line\n")
    argv = ["derive", "--example", E, "--format", "md", "-o", "/dev/stdout"]
    with open(log, "a") as handle:  # the shell's >> log.md
        done = subprocess.run(
            [sys.executable, "-m", "mha_symbolic", *argv],
            stdout=handle,
            stderr=subprocess.DEVNULL,
            timeout=60 * WALL_FACTOR,
            preexec_fn=processor_limit(60),
        )
    assert done.returncode == 0
    text = log.read_text()
    assert text.startswith("first line\n# Two tokens, two heads\n")


def test_a_link_is_written_through_and_stays_a_link(tmp_path):
    (tmp_path / "real.json").write_text("old")
    os.symlink("real.json", tmp_path / "link.json")
    result = run(["derive", "--example", E, "-o", "link.json"], tmp_path)
    assert result["code"] == 0
    assert os.readlink(tmp_path / "link.json") == "real.json"
    assert json.loads((tmp_path / "real.json").read_text())["title"] == "Two tokens, two heads"
    assert sorted(os.listdir(tmp_path)) == ["link.json", "real.json"]


def test_force_lets_o_replace_the_input(tmp_path):
    (tmp_path / "in.toml").write_text(SPEC)
    result = run(["derive", "in.toml", "-o", "in.toml", "--format", "md", "--force"], tmp_path)
    assert result["code"] == 0
    assert (tmp_path / "in.toml").read_text().startswith("# Multi-head attention\n")


def test_a_250_character_name_gets_heatmaps_cut_to_255_bytes(tmp_path):
    stem = "é" * 10 + "a" * 230  # 250 bytes of UTF-8: with .md, a valid name of 253
    result = run(["derive", "--example", E, "-o", f"{stem}.md"], tmp_path)
    assert result["code"] == 0, result["stderr"]
    cut = "é" * 10 + "a" * 225  # whole characters, 245 bytes: with -head1.svg, 255
    assert sorted(os.listdir(tmp_path)) == sorted(
        [f"{stem}.md", f"{cut}-head1.svg", f"{cut}-head2.svg"]
    )
    document = (tmp_path / f"{stem}.md").read_text(encoding="utf-8")
    assert f"]({cut}-head1.svg)" in document


def test_a_new_bank_removes_only_what_the_old_one_listed(tmp_path):
    bank = tmp_path / "bank"
    argv = ["exercises", "--example", E, "--workers", "1", "--quiet", "-o", str(bank)]
    assert run([*argv, "--count", "3"], tmp_path)["code"] == 0
    index = json.loads((bank / "bank.json").read_text())
    assert index["files"][:2] == ["bank.json", "variant-001/answers.md"]
    assert len(index["files"]) == 1 + 3 * 3
    assert run([*argv, "--count", "1"], tmp_path)["code"] == 0
    assert sorted(os.listdir(bank)) == ["bank.json", "variant-001"]


@pytest.mark.parametrize("command", [["derive", "--example", E], ["check", "--example", E]])
def test_standard_output_closed_is_no_traceback(tmp_path, command):
    done = subprocess.run(
        [sys.executable, "-m", "mha_symbolic", *command],
        cwd=tmp_path,
        preexec_fn=lambda: os.close(1),  # as a shell's >&- does
        stderr=subprocess.PIPE,
        timeout=TIMEOUT,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert os.listdir(tmp_path) == []


def test_a_looping_template_stops_in_a_thread_too(tmp_path):
    """No timer signal reaches a thread: the sandbox's own hooks (each range and call) stop it."""
    from concurrent.futures import ThreadPoolExecutor

    from mha_symbolic import AttentionSpec, derive
    from mha_symbolic.errors import SpecError

    shutil.copytree(SHIPPED, tmp_path / "t")
    loop = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n"
    (tmp_path / "t" / "derivation.md.j2").write_text(loop)
    d = derive(AttentionSpec.example(E))
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(d.to_markdown, templates=str(tmp_path / "t"))
        with pytest.raises(SpecError) as error:
            future.result(timeout=TIMEOUT * WALL_FACTOR)  # the clock: the last guard
    assert str(error.value) == (
        f"{tmp_path}/t/derivation.md.j2: template stopped: the template ran longer than 5 s "
        "(a loop too long?)"
    )
