"""`derive --example pytorch-style -o x.md` loads only what a Markdown solution needs: not the
gradients, the JSON writer, the checker, NumPy or the page (asserted by module, not timed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

NOT_NEEDED = (
    "matplotlib",
    "numpy",
    "torch",
    "latex2sympy2",
    "mha_symbolic.api",
    "mha_symbolic.check",  # (a built-in example is one spec: no batch to look for)
    "mha_symbolic.check.judge",
    "mha_symbolic.exact.backward",
    "mha_symbolic.exact.enclose",
    "mha_symbolic.exact.forms",
    "mha_symbolic.exact.structured_grad",
    "mha_symbolic.extract",
    "mha_symbolic.model.rules",
    "mha_symbolic.numeric",
    "mha_symbolic.solution.json_out",
    "mha_symbolic.solution.pdf",
    "mha_symbolic.solution.plot",
    "mha_symbolic.spec.torch_io",
    "mha_symbolic.web.app",
)

DERIVE = """
import json, sys
from mha_symbolic.cli import main
try:
    main(["derive", "--example", "pytorch-style", "-o", {out!r}, "--quiet"])
except SystemExit as stop:
    assert not stop.code, stop.code
print(json.dumps(sorted(set(sys.modules) & set({names!r}))))
"""


def test_a_markdown_solution_loads_no_gradient_json_check_or_numpy_module(tmp_path: Path) -> None:
    out = tmp_path / "x.md"
    code = DERIVE.format(out=str(out), names=NOT_NEEDED)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.splitlines()[-1]) == []
    assert out.read_text(encoding="utf-8").startswith("# ")
