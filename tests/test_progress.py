"""Long derivations report each step on a terminal, and nothing elsewhere."""

from __future__ import annotations

import io

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.progress import StepLine


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_told_every_step_in_order():
    seen: list[str] = []
    d = derive(AttentionSpec.example("two-tokens"), gradients=True, progress=seen.append)
    assert seen == list(d)
    assert seen[-1] == "grad.x"


def test_step_line_redraws_in_place_and_clears(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)  # the redraw is for terminals that allow it
    monkeypatch.setenv("TERM", "xterm")
    stream = Terminal()
    line = StepLine(stream, delay=0.0)
    line("head1.q")
    line("head1.k")
    line.close()
    text = stream.getvalue()
    assert "\r\x1b[Kmha-symbolic: head1.q (1 steps," in text
    assert "\r\x1b[Kmha-symbolic: head1.k (2 steps," in text
    assert text.endswith("\r\x1b[K")


def test_step_line_is_quiet_off_a_terminal_and_for_short_work():
    pipe = io.StringIO()
    line = StepLine(pipe, delay=0.0)
    line("x")
    line.close()
    assert pipe.getvalue() == ""
    terminal = Terminal()
    quick = StepLine(terminal, delay=60.0)
    quick("x")
    quick.close()
    assert terminal.getvalue() == ""
