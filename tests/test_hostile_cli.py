# ruff: noqa: E501  (the tables below hold one case per line)
"""Hostile command lines and outputs: each answers with one line on stderr and the right exit
code, within a time bound, and writes or damages no file; plus exact printing at any size,
standard input, and the command's conventions (version, help, progress). Atomic writes, banks
and signals: test_files.py."""

from __future__ import annotations

import decimal
import importlib.metadata
import io
import json
import math
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

if sys.version_info >= (3, 11):
    pass
else:  # pragma: no cover - Python 3.10
    pass

import mha_symbolic
from mha_symbolic.cli import main
from mha_symbolic.progress import CountLine, StepLine
from mha_symbolic.spec.attention import example_names
from mha_symbolic.text import decimal_text
from tests.forked import run_forked

# With pytest -n: every case runs once (the session's `results` fixture), on one worker.
pytestmark = pytest.mark.xdist_group("test_hostile_cli")

TIMEOUT = 60  # seconds: a generous bound; every refusal here answers in about one second
SHIPPED = Path(__file__).resolve().parent.parent / "templates"
E = "two-tokens"


@dataclass(frozen=True)
class Case:
    """One command line: its arguments (``{tmp}`` is the case's own folder), the exact line it
    prints on stderr, its exit code, the files prepared before it runs (a name ending in /
    is a folder), standard input, and edits to a copy of the shipped templates at {tmp}/t."""

    name: str
    argv: Any
    message: str
    code: int = 2
    files: Mapping[str, Any] = field(default_factory=dict)
    stdin: bytes | None = None
    templates: Mapping[str, Any] | None = None


# fmt: off
CASES = [
    Case(name='o_empty', argv=('derive', '--example', 'two-tokens', '-o', ''), message="mha-symbolic derive: argument -o/--output: expected a file name, got '' (see mha-symbolic derive --help)"),
    Case(name='o_blank', argv=('derive', '--example', 'two-tokens', '-o', '  '), message="mha-symbolic derive: argument -o/--output: expected a file name, got '  ' (see mha-symbolic derive --help)"),
    Case(name='o_missing_folder', argv=('derive', '--example', 'two-tokens', '-o', '{tmp}/missing/out.md'), message='mha-symbolic: {tmp}/missing/out.md: cannot write: its folder does not exist'),
    Case(name='o_missing_folder_json', argv=('derive', '--example', 'two-tokens', '-o', '{tmp}/missing/out.json'), message='mha-symbolic: {tmp}/missing/out.json: cannot write: its folder does not exist'),
    Case(name='o_is_folder', argv=('derive', '--example', 'two-tokens', '-o', '{tmp}/adir', '--format', 'md'), message='mha-symbolic: {tmp}/adir: cannot write: it is a folder', files={'adir/': None}),
    Case(name='o_is_folder_suffix', argv=('derive', '--example', 'two-tokens', '-o', '{tmp}/adir.md'), message='mha-symbolic: {tmp}/adir.md: cannot write: it is a folder', files={'adir.md/': None}),
    Case(name='o_image_is_folder', argv=('derive', '--example', 'two-tokens', '-o', '{tmp}/out.md'), message='mha-symbolic: {tmp}/out-head2.svg: cannot write: it is a folder', files={'out-head2.svg/': None}),
    Case(name='o_under_a_file', argv=('derive', '--example', 'two-tokens', '-o', '{tmp}/file.txt/out.md'), message='mha-symbolic: {tmp}/file.txt/out.md: cannot write: its folder does not exist', files={'file.txt': 'keep'}),
    Case(name='o_unwritable_proc', argv=('derive', '--example', 'two-tokens', '-o', '/proc/mha-out.json'), message='mha-symbolic: /proc/mha-out.json: cannot write: No such file or directory'),
    Case(name='o_unwritable_sys', argv=('derive', '--example', 'two-tokens', '-o', '/sys/mha-out.json'), message='mha-symbolic: /sys/mha-out.json: cannot write: Permission denied'),
    Case(name='o_unknown_suffix', argv=('derive', '--example', 'two-tokens', '-o', '{tmp}/out.xyz'), message="mha-symbolic: {tmp}/out.xyz: cannot tell the format from the suffix '.xyz'; give --format"),
    Case(name='o_no_suffix', argv=('derive', '--example', 'two-tokens', '-o', '{tmp}/out'), message="mha-symbolic: {tmp}/out: cannot tell the format from the suffix '(none)'; give --format"),
    Case(name='pdf_to_stdout', argv=('derive', '--example', 'two-tokens', '--format', 'pdf'), message='mha-symbolic: --format pdf writes a file: give -o FILE.pdf'),
    Case(name='plot_file_empty', argv=('derive', '--example', 'temperature', '--plot', 'tau=0.1:10', '--plot-file', ''), message="mha-symbolic derive: argument --plot-file: expected a file name, got '' (see mha-symbolic derive --help)"),
    Case(name='templates_empty', argv=('derive', '--example', 'two-tokens', '--templates', ''), message="mha-symbolic derive: argument --templates: expected a file name, got '' (see mha-symbolic derive --help)"),
    Case(name='templates_missing', argv=('derive', '--example', 'two-tokens', '--templates', '{tmp}/none'), message='mha-symbolic: {tmp}/none: --templates: no such directory'),
    Case(name='templates_is_file', argv=('derive', '--example', 'two-tokens', '--templates', '{tmp}/file.txt'), message='mha-symbolic: {tmp}/file.txt: --templates: no such directory', files={'file.txt': 'x'}),
    Case(name='exercises_o_empty', argv=('exercises', '--example', 'two-tokens', '--count', '1', '-o', ''), message="mha-symbolic exercises: argument -o/--output: expected a file name, got '' (see mha-symbolic exercises --help)"),
    Case(name='exercises_o_file', argv=('exercises', '--example', 'two-tokens', '--count', '1', '-o', '{tmp}/file.txt'), message='mha-symbolic: {tmp}/file.txt: is a file, not a folder', files={'file.txt': 'keep'}),
    Case(name='exercises_o_not_a_bank', argv=('exercises', '--example', 'two-tokens', '--count', '1', '-o', '{tmp}/notes'), message='mha-symbolic: {tmp}/notes: is a folder with other files in it; give a new or empty folder (an earlier bank, with its bank.json, is replaced)', files={'notes/todo.txt': 'mine'}),
    Case(name='exercises_o_missing_parent', argv=('exercises', '--example', 'two-tokens', '--count', '1', '-o', '{tmp}/missing/bank'), message='mha-symbolic: {tmp}/missing/bank: its parent folder does not exist'),
    Case(name='decimals_999', argv=('derive', '--example', 'two-tokens', '--decimals', '999'), message="mha-symbolic derive: argument --decimals: expected a whole number from 0 to 50, got '999' (see mha-symbolic derive --help)"),
    Case(name='decimals_51', argv=('derive', '--example', 'two-tokens', '--decimals', '51'), message="mha-symbolic derive: argument --decimals: expected a whole number from 0 to 50, got '51' (see mha-symbolic derive --help)"),
    Case(name='decimals_negative', argv=('derive', '--example', 'two-tokens', '--decimals', '-1'), message="mha-symbolic derive: argument --decimals: expected a whole number from 0 to 50, got '-1' (see mha-symbolic derive --help)"),
    Case(name='decimals_word', argv=('derive', '--example', 'two-tokens', '--decimals', 'thirty'), message="mha-symbolic derive: argument --decimals: expected a whole number from 0 to 50, got 'thirty' (see mha-symbolic derive --help)"),
    Case(name='decimals_fraction', argv=('derive', '--example', 'two-tokens', '--decimals', '2.5'), message="mha-symbolic derive: argument --decimals: expected a whole number from 0 to 50, got '2.5' (see mha-symbolic derive --help)"),
    Case(name='exercises_decimals_999', argv=('exercises', '--example', 'two-tokens', '--count', '1', '-o', '{tmp}/b', '--decimals', '999'), message="mha-symbolic exercises: argument --decimals: expected a whole number from 0 to 50, got '999' (see mha-symbolic exercises --help)"),
    Case(name='max_size_999', argv=('derive', '--example', 'two-tokens', '--max-size', '999'), message="mha-symbolic derive: argument --max-size: expected a whole number from 0 to 50, got '999' (see mha-symbolic derive --help)"),
    Case(name='plot_keys_nonsense', argv=('derive', '--example', 'temperature', '--plot', 'tau=0.1:10', '--plot-file', '{tmp}/p.png', '--plot-keys', 'nonsense'), message="mha-symbolic: --plot-keys: unknown step key 'nonsense'"),
    Case(name='plot_keys_unreadable', argv=('derive', '--example', 'temperature', '--plot', 'tau=0.1:10', '--plot-file', '{tmp}/p.png', '--plot-keys', 'head1.weights[x'), message="mha-symbolic: --plot-keys: cannot read 'head1.weights[x'; write head1.weights[1,2]"),
    Case(name='plot_keys_outside', argv=('derive', '--example', 'temperature', '--plot', 'tau=0.1:10', '--plot-file', '{tmp}/p.png', '--plot-keys', 'head1.weights[9]'), message="mha-symbolic: --plot-keys: 'head1.weights[9]' is outside head1.weights, which has shape (3, 3)"),
    Case(name='plot_keys_without_plot', argv=('derive', '--example', 'temperature', '--plot-keys', 'head1.weights'), message='mha-symbolic: --plot-keys goes with --plot NAME=START:STOP, which is not given'),
    Case(name='plot_file_without_plot', argv=('derive', '--example', 'temperature', '--plot-file', '{tmp}/p.png'), message='mha-symbolic: --plot-file goes with --plot NAME=START:STOP, which is not given'),
    Case(name='plot_without_output', argv=('derive', '--example', 'temperature', '--plot', 'tau=0.1:10'), message='mha-symbolic: --plot writes a PNG: give -o FILE or --plot-file FILE.png'),
    Case(name='ansi_example_name', argv=('derive', '--example', '\x1b[31mred\nline'), message="mha-symbolic: unknown example '\\x1b[31mred\\nline'; known: alibi, causal-dropout, eight-tokens-split, one-token, pytorch-style, rope, split-scaled, temperature, two-tokens"),
    Case(name='ansi_choice', argv=('derive', '--example', 'two-tokens', '--lang', '\x1b[31men'), message="mha-symbolic derive: argument --lang: invalid choice: '\\x1b[31men' (choose from 'en', 'bn') (see mha-symbolic derive --help)"),
    Case(name='ansi_claim_key', argv=('check', '--example', 'two-tokens', '--claim', '\x1b[31mhead1\nweights=1'), message="mha-symbolic: claim '\\x1b[31mhead1\\nweights': a key is a step key, optionally with [row] or [row,column]"),
    Case(name='ansi_spec_value', argv=('derive', '{tmp}/spec.toml'), message='mha-symbolic: {tmp}/spec.toml: x[1,1] = "\\x1b[2J1\\n": a control character (\\x1b)', files={'spec.toml': 'title = "\\u001b[31mred\\ntitle"\nx = [["\\u001b[2J1\\n"]]\n[weights]\nw_q = [[[1]]]\nw_k = [[[1]]]\nw_v = [[[1]]]\n'}),
    Case(name='ansi_spec_path', argv=('derive', '{tmp}/\x1b[31mx\ny.toml'), message='mha-symbolic: {tmp}/\\x1b[31mx\\ny.toml: no such file'),
    Case(name='long_example_name', argv=('derive', '--example', 'x' * 5000), message="mha-symbolic: unknown example '" + 'x' * 382 + '…'),
    Case(name='del_example_name', argv=('derive', '--example', 'two\x7ftokens'), message="mha-symbolic: unknown example 'two\\x7ftokens' (did you mean 'two-tokens'?); known: alibi, causal-dropout, eight-tokens-split, one-token, pytorch-style, rope, split-scaled, temperature, two-tokens"),
    Case(name='stdin_bad_toml', argv=('derive', '-'), message='mha-symbolic: <stdin>: invalid TOML: Invalid value (at line 1, column 9)', stdin=b'title = \n'),
    Case(name='stdin_not_utf8', argv=('derive', '-'), message='mha-symbolic: <stdin>: not UTF-8 text (invalid start byte at byte 0)', stdin=b'\xff\xfe\x00'),
    Case(name='stdin_empty', argv=('derive', '-'), message='mha-symbolic: <stdin>: no input: give x (self-attention) or query and key (cross-attention)', stdin=b''),
    Case(name='stdin_twice', argv=('check', '-', '--claims', '-'), message='mha-symbolic: the spec and --claims cannot both be - (standard input)', stdin=b''),
    Case(name='claims_dev_zero', argv=('check', '--example', 'two-tokens', '--claims', '/dev/zero'), message='mha-symbolic: /dev/zero: is not a regular file (a pipe or a device?)'),
    Case(name='claims_missing', argv=('check', '--example', 'two-tokens', '--claims', '{tmp}/none.toml'), message='mha-symbolic: {tmp}/none.toml: no such file'),
    Case(name='claims_bad_toml', argv=('check', '--example', 'two-tokens', '--claims', '{tmp}/c.toml'), message='mha-symbolic: {tmp}/c.toml: invalid TOML: Invalid value (at end of document)', files={'c.toml': 'x = [\n'}),
    Case(name='claim_without_equals', argv=('check', '--example', 'two-tokens', '--claim', 'head1.weights'), message="mha-symbolic: --claim: write KEY=VALUE, got 'head1.weights'"),
    Case(name='claim_unknown_key', argv=('check', '--example', 'two-tokens', '--claim', 'head9.weights=1'), message="mha-symbolic: claim 'head9.weights': unknown step key 'head9.weights'; did you mean 'head2.weights', 'head1.weights'?"),
    Case(name='no_command', argv=(), message='mha-symbolic: the following arguments are required: COMMAND (see mha-symbolic --help)'),
    Case(name='unknown_command', argv=('frobnicate',), message="mha-symbolic: argument COMMAND: invalid choice: 'frobnicate' (choose from 'examples', 'derive', 'check', 'exercises', 'bench', 'extract', 'verify', 'serve', 'completion', 'manpage') (see mha-symbolic --help)"),
    Case(name='no_source', argv=('derive',), message='mha-symbolic: give a spec file or --example NAME (see `mha-symbolic examples`)'),
    Case(name='two_sources', argv=('derive', '{tmp}/s.toml', '--example', 'two-tokens'), message='mha-symbolic: give a spec file or --example NAME, not both'),
    Case(name='spec_missing', argv=('derive', '{tmp}/none.toml'), message='mha-symbolic: {tmp}/none.toml: no such file'),
    Case(name='spec_is_folder', argv=('derive', '{tmp}/adir'), message='mha-symbolic: {tmp}/adir: is a directory, not a spec file', files={'adir/': None}),
]
TEMPLATE_CASES = [
    Case(name='tpl_syntax', argv='md', message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template syntax error: Expected an expression, got 'end of statement block'", templates={'derivation.md.j2': '{% if %}\n'}),
    Case(name='tpl_undefined', argv='md', message="mha-symbolic: {tmp}/t/derivation.md.j2:2: template error: 'nonsense_var' is undefined", templates={'derivation.md.j2': 'hello\n{{ nonsense_var }}\n'}),
    Case(name='tpl_undefined_attr', argv='md', message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template error: 'str object' has no attribute 'nope'", templates={'derivation.md.j2': '{{ title.nope.deeper }}\n'}),
    Case(name='tpl_missing', argv='md', message="mha-symbolic: {tmp}/t/derivation.md.j2: template 'derivation.md.j2' not found", templates={'derivation.md.j2': None}),
    Case(name='tpl_include_missing', argv='md', message="mha-symbolic: {tmp}/t/derivation.md.j2:2: template 'nope.j2' not found", templates={'derivation.md.j2': "a\n{% include 'nope.j2' %}\n"}),
    Case(name='tpl_extends_missing', argv='md', message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template 'base.j2' not found", templates={'derivation.md.j2': "{% extends 'base.j2' %}\n"}),
    Case(name='tpl_unknown_filter', argv='md', message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template syntax error: No filter named 'nonsense'.", templates={'derivation.md.j2': '{{ title|nonsense }}\n'}),
    Case(name='tpl_zero_division', argv='md', message='mha-symbolic: {tmp}/t/derivation.md.j2:3: template error: ZeroDivisionError: division by zero', templates={'derivation.md.j2': 'x\ny\n{{ 1 / 0 }}\n'}),
    Case(name='tpl_type_error', argv='md', message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template error: TypeError: unsupported operand type(s) for +: 'int' and 'str'", templates={'derivation.md.j2': "{{ 1 + 'a' }}\n"}),
    Case(name='tpl_sandbox_popen', argv='md', message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template refused by the sandbox (templates cannot run code): access to attribute '__init__' of 'type' object is unsafe.", templates={'derivation.md.j2': "{{ cycler.__init__.__globals__.os.popen('echo pwned > pwned').read() }}\n"}),
    Case(name='tpl_sandbox_mro', argv='md', message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template refused by the sandbox (templates cannot run code): access to attribute '__class__' of 'str' object is unsafe.", templates={'derivation.md.j2': "{{ ''.__class__.__mro__[1].__subclasses__() }}\n"}),
    Case(name='tpl_sandbox_format', argv='md', message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template refused by the sandbox (templates cannot run code): access to attribute '__class__' of 'str' object is unsafe.", templates={'derivation.md.j2': "{{ '{0.__class__}'.format(title) }}\n"}),
    Case(name='tpl_recursion', argv='md', message='mha-symbolic: {tmp}/t/derivation.md.j2:1: template error: templates include or call each other without end', templates={'derivation.md.j2': "{% include 'derivation.md.j2' %}\n"}),
    Case(name='tpl_not_utf8', argv='md', message='mha-symbolic: {tmp}/t/derivation.md.j2: cannot read template: not UTF-8 (invalid start byte at byte 0)', templates={'derivation.md.j2': b'\xff\xfe bad\n'}),
    Case(name='tpl_is_folder', argv='md', message="mha-symbolic: {tmp}/t/derivation.md.j2: template 'derivation.md.j2' not found", templates={'derivation.md.j2': 'DIR'}),
    Case(name='tpl_big_power', argv='md', message='mha-symbolic: {tmp}/t/derivation.md.j2:1: template refused by the sandbox (templates cannot run code): ** gives a number over 10000 bits', templates={'derivation.md.j2': '{{ 10 ** 100000 }}\n'}),
    Case(name='tpl_big_repeat', argv='md', message='mha-symbolic: {tmp}/t/derivation.md.j2:1: template refused by the sandbox (templates cannot run code): * repeats a sequence more than 1000000 items long', templates={'derivation.md.j2': "{{ 'a' * 10000000000 }}\n"}),
    Case(name='tpl_tex_syntax', argv='tex', message="mha-symbolic: {tmp}/t/derivation.tex.j2:1: template syntax error: Expected an expression, got 'end of statement block'", templates={'derivation.tex.j2': '\\BLOCK{ if }\n'}),
    Case(name='tpl_html_undefined', argv='html', message="mha-symbolic: {tmp}/t/derivation.html.j2:1: template error: 'nope' is undefined", templates={'derivation.html.j2': '<p>{{ nope }}</p>\n'}),
    Case(name='locale_bad_toml', argv='md', message="mha-symbolic: {tmp}/t/locales/en.toml: bad locale TOML: Expected ']' at the end of a table declaration (at line 1, column 8)", templates={'locales/en.toml': '[titles\n'}),
    Case(name='locale_missing_section', argv='md', message='mha-symbolic: {tmp}/t/locales/en.toml: no section [captions]', templates={'locales/en.toml': "[titles]\nx = 'a'\n"}),
    Case(name='locale_missing_key', argv='md', message='mha-symbolic: {tmp}/t/locales/en.toml: no key [titles] concat', templates={'locales/en.toml': ('concat = "Concatenated heads"\n', '')}),
    Case(name='locale_attribute', argv='md', message='mha-symbolic: {tmp}/t/locales/en.toml: [titles] with_head: placeholder {title.__class__} is not a plain name; locale text may only use {name}', templates={'locales/en.toml': ('with_head = "{title}, head {head}"', 'with_head = "{title.__class__}, head {head}"')}),
    Case(name='locale_index', argv='md', message='mha-symbolic: {tmp}/t/locales/en.toml: [titles] with_head: placeholder {title[0]} is not a plain name; locale text may only use {name}', templates={'locales/en.toml': ('with_head = "{title}, head {head}"', 'with_head = "{title[0]}, head {head}"')}),
    Case(name='locale_conversion', argv='md', message='mha-symbolic: {tmp}/t/locales/en.toml: [titles] with_head: placeholder {title!r} is not a plain name; locale text may only use {name}', templates={'locales/en.toml': ('with_head = "{title}, head {head}"', 'with_head = "{title!r}, head {head}"')}),
    Case(name='locale_unknown_name', argv='md', message='mha-symbolic: {tmp}/t/locales/en.toml: [titles] with_head: unknown placeholder {nope}; it may use {title}, {head}', templates={'locales/en.toml': ('with_head = "{title}, head {head}"', 'with_head = "{title}, head {nope}"')}),
    Case(name='locale_open_brace', argv='md', message="mha-symbolic: {tmp}/t/locales/en.toml: [titles] with_head: expected '}' before end of string in '{title}, head {head'", templates={'locales/en.toml': ('with_head = "{title}, head {head}"', 'with_head = "{title}, head {head"')}),
    Case(name='locale_not_text', argv='md', message='mha-symbolic: {tmp}/t/locales/en.toml: [titles] with_head: expected text, got int', templates={'locales/en.toml': ('with_head = "{title}, head {head}"', 'with_head = 5')}),
    Case(name='locale_not_utf8', argv='md', message='mha-symbolic: {tmp}/t/locales/en.toml: cannot read locale: not UTF-8 (invalid start byte)', templates={'locales/en.toml': b'\xff\xfe'}),
    Case(name='sheet_syntax', argv='exercises', message="mha-symbolic: {tmp}/t/sheet.md.j2:1: template syntax error: Expected an expression, got 'end of print statement'", templates={'sheet.md.j2': '{{ }}\n'}),
    Case(name='answers_undefined', argv='exercises', message="mha-symbolic: {tmp}/t/answers.md.j2:1: template error: 'dict object' has no attribute 'nope'", templates={'answers.md.j2': '{{ words.nope }}\n'}),
    Case(name='bank_tex_syntax', argv='exercises-tex', message="mha-symbolic: {tmp}/t/bank.tex.j2:1: template syntax error: Expected an expression, got 'end of print statement'", templates={'bank.tex.j2': '\\VAR{ }\n'}),
]
# fmt: on
for case in TEMPLATE_CASES:  # argv names the format: the same broken folder for each use
    fmt = case.argv
    if fmt.startswith("exercises"):
        extra = ("--format", "tex") if fmt.endswith("tex") else ()
        argv = ("exercises", "--example", E, "--count", "1", "--workers", "1", *extra)
        argv += ("-o", "{tmp}/bank", "--templates", "{tmp}/t")
    else:
        argv = ("derive", "--example", E, "--format", fmt, "--templates", "{tmp}/t")
    CASES.append(Case(case.name, argv, case.message, templates=case.templates))


def _prepare(folder: Path, case: Case) -> None:
    for name, content in case.files.items():
        path = folder / name
        if name.endswith("/"):
            path.mkdir(parents=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    if case.templates is not None:
        shutil.copytree(SHIPPED, folder / "t")
        for name, edit in case.templates.items():
            path = folder / "t" / name
            if edit is None:
                path.unlink()
            elif edit == "DIR":
                path.unlink()
                path.mkdir()
            elif isinstance(edit, tuple):
                text = path.read_text(encoding="utf-8")
                assert edit[0] in text, name
                path.write_text(text.replace(edit[0], edit[1]), encoding="utf-8")
            else:
                path.write_bytes(edit if isinstance(edit, bytes) else edit.encode("utf-8"))


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under ``folder``, by relative path."""
    return {
        str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(folder.rglob("*"))
    }


def _run(folder: Path, case: Case) -> dict[str, Any]:
    folder.mkdir(parents=True)
    _prepare(folder, case)
    before = snapshot(folder)
    argv = [a.replace("{tmp}", str(folder)) for a in case.argv]
    result = run_forked(argv, folder, case.stdin or b"")
    return {**result, "before": before, "after": snapshot(folder)}


@pytest.fixture(scope="session")
def results(tmp_path_factory):
    """Every case run once, each in its own forked process."""
    base = tmp_path_factory.mktemp("hostile")
    return {c.name: (base / c.name, _run(base / c.name, c)) for c in CASES}


def test_the_table_is_large_and_its_names_unique():
    assert len(CASES) >= 60
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_input_is_one_line_and_writes_nothing(results, case):
    folder, result = results[case.name]
    assert result["code"] == case.code
    assert result["stderr"] == case.message.replace("{tmp}", str(folder)) + "\n"
    assert result["stdout"] == b""
    assert result["after"] == result["before"]  # nothing written, changed or left behind


# ------------------------------------------------------------------ exact printing at any size
BIG = """title = "big"
x = [[12345678901234567890123456789.5]]

[weights]
w_q = [[[1]]]
w_k = [[[1]]]
w_v = [[[1]]]
"""


@pytest.mark.parametrize("name", example_names())
def test_thirty_decimals_on_every_example(name, capsys):
    assert main(["derive", "--example", name, "--decimals", "30", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    cells = [c for s in document["steps"] for row in s["decimals"] for c in row if c is not None]
    assert cells
    for cell in cells:  # integers in full, every other value to exactly 30 places
        assert re.fullmatch(r"-?\d+|-?\d+\.\d{30}|-?inf", cell), cell
    assert main(["derive", "--example", name, "--decimals", "30", "--format", "tex"]) == 0


def test_a_thirty_digit_number_prints_exactly(tmp_path, capsys):
    spec = tmp_path / "big.toml"
    spec.write_text(BIG, encoding="utf-8")
    assert main(["derive", str(spec), "--format", "json", "--decimals", "3"]) == 0
    steps = {s["key"]: s for s in json.loads(capsys.readouterr().out)["steps"]}
    assert steps["x"]["decimals"] == [["12345678901234567890123456789.500"]]
    assert steps["x"]["latex"] == r"\begin{bmatrix} 12345678901234567890123456789.5 \end{bmatrix}"
    assert main(["derive", str(spec), "--format", "md"]) == 0
    assert "12345678901234567890123456789.5" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        (sp.Rational("12345678901234567890123456789.5"), 2, "12345678901234567890123456789.50"),
        (sp.E / (1 + sp.E), 30, "0.731058578630004879251159241822"),
        (sp.exp(100), 3, "26881171418161354484126255515800135873611118.774"),
        (sp.Rational(1, 8), 2, "0.12"),  # half to even, as before
        (sp.Rational(3, 8), 2, "0.38"),
        (-sp.exp(-20), 4, "0.0000"),  # no "-0.0000"
        (sp.Rational(-2, 3), 0, "-1"),
        (sp.Integer(11), 4, "11"),
        (-sp.oo, 4, "-inf"),
        (sp.nan, 2, "nan"),
        (sp.log(2) + sp.log(3) - sp.log(6), 3, "0.000"),  # zero, not simplified
        (sp.sqrt(2) * 10**60, 1, "1414213562373095048801688724209698078569671875376948073176679.7"),
    ],
)
def test_decimal_text_is_exact(value, places, text):
    assert decimal_text(value, places) == text


def _reference(numerator: int, denominator: int, places: int) -> str:
    """numerator/denominator rounded half to even, by Python's Decimal at ample precision."""
    with decimal.localcontext() as context:
        context.prec = 5000
        exact = decimal.Decimal(numerator) / decimal.Decimal(denominator)
        rounded = exact.quantize(decimal.Decimal(1).scaleb(-places), decimal.ROUND_HALF_EVEN)
    text = format(rounded, "f")
    return text.lstrip("-") if rounded == 0 else text


@settings(max_examples=300, deadline=None)
@given(
    st.integers(-(10**60), 10**60),
    st.integers(1, 10**40),
    st.integers(0, 50),
)
def test_decimal_text_of_any_rational_is_the_correctly_rounded_one(numerator, denominator, places):
    value = sp.Rational(numerator, denominator)
    expected = str(int(value)) if value.is_Integer else _reference(numerator, denominator, places)
    assert decimal_text(value, places) == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 10**40), st.integers(0, 50), st.integers(-30, 30))
def test_decimal_text_of_a_square_root_is_exact_at_any_size(n, places, shift):
    assume(math.isqrt(n) ** 2 != n)  # irrational: never a tie
    scale = sp.Rational(10) ** shift
    # floor(sqrt(n) * 10**(places + 1 + shift)), exactly, then rounded on its last digit
    numerator, denominator = (n * 10 ** (2 * shift), 1) if shift >= 0 else (n, 10 ** (-2 * shift))
    digits = math.isqrt(numerator * 100 ** (places + 1) // denominator)
    units = (digits + 5) // 10
    text = str(units).rjust(places + 1, "0")
    expected = text if places == 0 else f"{text[:-places]}.{text[-places:]}"
    assert decimal_text(sp.sqrt(n) * scale, places) == expected


def test_decimal_text_shortest_and_without_a_number():
    assert decimal_text(sp.Rational(1, 2), 4, shortest=True) == "0.5"
    assert decimal_text(sp.Rational(1, 3), 4, shortest=True) == "0.3333"
    assert decimal_text(sp.Rational(1, 2), 4) == "0.5000"
    assert decimal_text(sp.Symbol("w"), 4) is None
    assert decimal_text(sp.I, 4) is None


# ------------------------------------------------------------------ conventions
def test_version_is_one_value_everywhere():
    done = subprocess.run(
        [sys.executable, "-m", "mha_symbolic", "--version"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0
    assert done.stdout == f"mha-symbolic {mha_symbolic.__version__}\n"
    assert mha_symbolic.__version__ == importlib.metadata.version("mha-symbolic")


def test_help_is_written_for_users(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--help"])
    assert exit.value.code == 0
    text = capsys.readouterr().out
    assert "Exact multi-head attention, step by step." in text
    assert "argument parsing" not in text
    for command in ("derive", "check", "exercises", "bench"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = capsys.readouterr().out
        assert "examples:\n  mha-symbolic " + command in text


def test_a_spec_from_standard_input_gives_the_same_solution(tmp_path, capsys):
    assert main(["derive", "--example", E, "--format", "json"]) == 0
    expected = capsys.readouterr().out
    text = (SHIPPED.parent / "mha_symbolic" / "examples" / f"{E}.toml").read_bytes()
    (tmp_path / "case").mkdir()
    result = run_forked(["derive", "-", "--format", "json"], tmp_path / "case", text)
    assert result["code"] == 0
    assert result["stderr"] == ""
    document = json.loads(result["stdout"])
    assert document["steps"] == json.loads(expected)["steps"]


def test_claims_from_standard_input(tmp_path):
    (tmp_path / "case").mkdir()
    claims = b'"head1.weights[1,1]" = 0.73\n"head1.weights[1,2]" = 0.5\n'
    result = run_forked(["check", "--example", E, "--claims", "-"], tmp_path / "case", claims)
    assert result["code"] == 1  # 0.5 is wrong
    assert result["stdout"].decode().splitlines()[-1] == (
        "example two-tokens: 2 claims: 1 holds (0 exact, 1 rounded), 1 wrong"
    )


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("variable", "value"), [("NO_COLOR", "1"), ("TERM", "dumb")])
def test_progress_has_no_redraws_when_styling_is_off(monkeypatch, variable, value):
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv(variable, value)
    stream = _Terminal()
    line = CountLine("exercises", 3, stream, interval=0.0)
    line(1)
    line(2)
    line.close()
    assert stream.getvalue() == "exercises: 1/3\nexercises: 2/3\n"


def test_progress_off_a_terminal_is_a_plain_line_now_and_then():
    pipe = io.StringIO()
    line = StepLine(pipe, delay=0.0, interval=0.0)
    line("head1.q")
    line.close()
    assert re.fullmatch(r"mha-symbolic: head1\.q \(1 steps, \d+\.\d s\)\n", pipe.getvalue())
    quiet = io.StringIO()
    slow = CountLine("exercises", 3, quiet, interval=3600.0)
    slow(1)
    assert quiet.getvalue() == ""


def test_exercises_from_standard_input(tmp_path):
    text = (SHIPPED.parent / "mha_symbolic" / "examples" / f"{E}.toml").read_bytes()
    (tmp_path / "case").mkdir()
    argv = ["exercises", "-", "--count", "2", "--workers", "1", "--quiet", "-o", "bank"]
    result = run_forked(argv, tmp_path / "case", text)
    assert (result["code"], result["stderr"]) == (0, "")
    index = json.loads((tmp_path / "case" / "bank" / "bank.json").read_text("utf-8"))
    assert (index["source"], index["count"]) == ("<stdin>", 2)
