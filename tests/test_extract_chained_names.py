"""One matrix named by a chain of weights whose heads are written as superscripts in
parentheses (``W_Q^{(1)}=W_K^{(1)}=W_V^{(1)}=``): every name of the chain is the matrix's,
not only the first (the others were left symbolic, and Q printed as K judged wrong against
symbols)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mha_symbolic.cli import main
from mha_symbolic.extract.statement_names import names

PAGE = r"""\section*{One head, by hand}

The input:
\[
X=
\begin{bmatrix}
1&0&1\\
0&1&1\\
1&1&0
\end{bmatrix}
\]
The head's projections are one matrix:
\[
W_Q^{(1)}=W_K^{(1)}=W_V^{(1)}=
\begin{bmatrix}
1&0\\
0&1\\
0&0
\end{bmatrix},
\]
hence
\[
Q_1=K_1=V_1=
\begin{bmatrix}
1&0\\
0&1\\
1&1
\end{bmatrix}.
\]
The softmax of the scaled scores, by rows:
\[
A_1\approx
\begin{bmatrix}
0.4011&0.1978&0.4011\\
0.1978&0.4011&0.4011\\
0.2483&0.2483&0.5035
\end{bmatrix}
\]
and the head's output:
\[
O_1=A_1V_1\approx
\begin{bmatrix}
0.8022&0.5989\\
0.5989&0.8022\\
0.7517&0.7517
\end{bmatrix}.
\]
"""


def test_a_chain_of_weights_with_parenthesised_heads_names_every_weight() -> None:
    assert names("W_Q^{(1)}=W_K^{(1)}=W_V^{(1)}=") == [
        ("w_q", 1, "W_Q^{(1)}"),
        ("w_k", 1, "W_K^{(1)}"),
        ("w_v", 1, "W_V^{(1)}"),
    ]
    assert names("f(x) = W_K^{(2)} =") == [("w_k", 2, "W_K^{(2)}")]  # ")" still ends a name


def test_the_page_is_checked_with_every_weight_of_the_chain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "head.tex"
    path.write_text(PAGE, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "head1.k: exact" in out and "head1.v: exact" in out
    assert "symbolic" not in out
