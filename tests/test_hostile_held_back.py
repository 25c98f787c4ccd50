# ruff: noqa: E501  (the tables below hold one case per line)
"""Hostile inputs of the same kinds as test_hostile_files.py and test_hostile_decimals.py,
written after the fixes and run once against them (kept out of development): a second look
at banks, -o targets, template confinement and bounds, boundary decimals and the API."""

from __future__ import annotations

import socket

import numpy as np
import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.errors import SpecError
from mha_symbolic.solution.view import Options
from mha_symbolic.text import decimal_text
from tests.test_hostile_files import (
    DOCUMENT,
    OLD_BANK,
    OUT_OF,
    REFUSED,
    SELF,
    SPEC,
    Case,
    _tpl,
    prepare,
    run,
    snapshot,
)

R, E = sp.Rational, sp.exp
X = "two-tokens"
BANK = ("exercises", "--example", X, "--count", "1", "--workers", "1", "-o", "{tmp}/bank")
# fmt: off
CASES = [
    Case("bank_beside_a_git_folder", BANK, "mha-symbolic: {tmp}/bank: " + REFUSED.format(".git, .git/config"), files={"bank/bank.json": OLD_BANK, "bank/variant-001/sheet.md": "old", "bank/.git/config": "[core]"}),
    Case("bank_with_a_link_inside", BANK, "mha-symbolic: {tmp}/bank: " + REFUSED.format("variant-001/etc"), files={"bank/bank.json": OLD_BANK, "bank/variant-001/sheet.md": "old"}, links={"bank/variant-001/etc": "/etc"}),
    Case("bank_index_is_a_folder", BANK, "mha-symbolic: {tmp}/bank: is a folder with other files in it; give a new or empty folder (an earlier bank, with its bank.json, is replaced)", files={"bank/bank.json/": None}),
    Case("bank_onto_a_fifo", BANK, "mha-symbolic: {tmp}/bank: is a file, not a folder", files={"bank": "FIFO"}),
    Case("derive_onto_a_socket", ("derive", "--example", X, "--format", "md", "-o", "{tmp}/sock"), "mha-symbolic: {tmp}/sock: cannot write: it is a socket", files={"sock": "SOCKET"}),
    Case("extract_onto_a_link_to_its_document", ("extract", "{tmp}/doc.md", "-o", "{tmp}/spec.toml"), "mha-symbolic: {tmp}/spec.toml: " + SELF, files={"doc.md": DOCUMENT.read_text(encoding="utf-8")}, links={"spec.toml": "doc.md"}),
    Case("plot_file_onto_the_spec", ("derive", "{tmp}/in.toml", "--plot", "tau=0.1:10", "--plot-file", "{tmp}/in.toml"), "mha-symbolic: {tmp}/in.toml: " + SELF, files={"in.toml": SPEC}),
    Case("o_dev_stdin", ("derive", "--example", X, "--format", "md", "-o", "/dev/stdin"), "mha-symbolic: /dev/stdin: cannot write: Bad file descriptor"),
    Case("o_dev_full", ("derive", "--example", X, "--format", "md", "-o", "/dev/full"), "mha-symbolic: /dev/full: cannot write: No space left on device"),
    _tpl("tpl_include_absolute", "{% include '/etc/passwd' %}\n", message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template '/etc/passwd' not found"),
    _tpl("tpl_include_parent", "{% include '../outside.j2' %}\n", message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template '../outside.j2' not found", files={"outside.j2": "secret"}),
    _tpl("tpl_extends_a_link_out", "{% extends 'base.j2' %}\n", message="mha-symbolic: {tmp}/t/base.j2: template 'base.j2' " + OUT_OF, files={"secret.j2": "secret"}, links={"t/base.j2": "{tmp}/secret.j2"}),
    _tpl("tpl_lipsum_101", "{{ lipsum(101) }}\n", message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template refused by the sandbox (templates cannot run code): lipsum gives at most 100 paragraphs"),
    _tpl("tpl_lipsum_no_words", "{{ lipsum(2, min=0) }}\n", message="mha-symbolic: {tmp}/t/derivation.md.j2:1: template refused by the sandbox (templates cannot run code): lipsum gives paragraphs of 1 to 100 words"),
    _tpl("tpl_nested_string_loops", "{% for a in 'x' * 100000 %}{% for b in 'x' * 100000 %}{% endfor %}{% endfor %}\n", message="mha-symbolic: {tmp}/t/derivation.md.j2: template stopped: the template ran longer than 5 s (a loop too long?)"),
]
# fmt: on


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_held_back_files(tmp_path, case):
    folder = tmp_path / "case"
    sockets = [name for name, content in case.files.items() if content == "SOCKET"]
    plain = Case(
        **{**case.__dict__, "files": {k: v for k, v in case.files.items() if k not in sockets}}
    )
    prepare(folder, plain)
    held = []
    for name in sockets:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(folder / name))
        held.append(server)
    before = snapshot(folder)
    argv = [a.replace("{tmp}", str(folder)) for a in case.argv]
    result = run(argv, folder, case.stdin)
    for server in held:
        server.close()
    assert result["stderr"] == case.message.replace("{tmp}", str(folder)) + "\n"
    assert result["code"] == case.code
    assert result["stdout"] == b""
    assert snapshot(folder) == before


ROWS = [
    (R(1, 2) + E(-1000), 0, "1"),
    (-R(1, 2) - E(-1000), 0, "-1"),
    (R(1, 2), 0, "0"),
    (R(3, 2), 0, "2"),
    (R(25, 1000) + E(-500), 2, "0.03"),
    (R(25, 1000) - E(-500), 2, "0.02"),
    (R(1, 8) * (1 + E(-100)), 2, "0.13"),
    (E(R(1, 10**6)), 6, "1.000001"),
    (R(10**30) + R(1, 2) + E(-100), 0, "1000000000000000000000000000001"),
    (R(10**30) + R(1, 2) - E(-100), 0, "1000000000000000000000000000000"),
    (1 / (2 + E(-300)), 0, "0"),
    (1 / (2 - E(-300)), 0, "1"),
    (E(-700) / (E(-700) + E(-701)), 3, "0.731"),
    (sp.sqrt(2) * sp.sqrt(2) / 16 + E(-90), 2, "0.13"),
    (sp.log(E(R(1, 8))) + E(-90), 2, "0.13"),
]


@pytest.mark.parametrize(("value", "places", "printed"), ROWS, ids=[str(r[0])[:40] for r in ROWS])
def test_held_back_decimals(value, places, printed):
    assert decimal_text(value, places) == printed


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Options(decimals=np.int64(60)), "decimals must be a whole number from 0 to 50, got np.int64(60)"),
        (lambda: Options(decimals=-1), "decimals must be a whole number from 0 to 50, got -1"),
        (lambda: Options(max_size="8"), "max_size must be a whole number from 0 to 50, got '8'"),
        (lambda: derive(b"two-tokens"), "derive takes an AttentionSpec or a dict of its keys, got bytes"),
        (lambda: derive([["x"]]), "derive takes an AttentionSpec or a dict of its keys, got list"),
    ],
)  # fmt: skip
def test_held_back_api(make, message):
    with pytest.raises(SpecError) as error:
        make()
    assert str(error.value) == message


def test_held_back_numpy_integers_everywhere():
    spec = AttentionSpec(
        x=[[1, 0, 0, 1], [0, 1, 1, 0]],
        heads=np.int32(2),
        kv_heads=np.uint8(2),
        rope={"base": np.int64(100)},
        scale="none",
    )
    assert (spec.heads, spec.kv_heads) == (2, 2)
    assert derive(spec)["head1.weights"].shape == (2, 2)
