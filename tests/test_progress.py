"""Long derivations report each step on a terminal, and nothing elsewhere."""

from __future__ import annotations

import io
import threading

import pytest

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.progress import CountLine, StepLine


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
    line.bar.mininterval = 0  # every step drawn (tqdm draws at most ten times a second)
    line("head1.k")
    line.close()
    text = stream.getvalue()
    assert "\rmha-symbolic: head1.q (1 steps, 00:00)" in text
    assert "\rmha-symbolic: head1.k (2 steps, 00:00)" in text
    assert "\n" not in text
    assert text.endswith("\r" + " " * 38 + "\r\r\x1b[K")  # cleared for what comes next


def test_count_line_on_a_terminal_is_a_bar_with_the_time_left(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    stream = Terminal()
    line = CountLine("exercises", 4, stream)
    line(1)
    line.bar.mininterval = 0
    line(3)
    line.close()
    text = stream.getvalue()
    assert "\rexercises:  25%|" in text and "| 1/4 [00:00<?, ? variants/s]" in text
    assert "\rexercises:  75%|" in text and "| 3/4 [00:00<00:00, " in text
    assert "\n" not in text and text.endswith("\r\x1b[K")


class Interrupted(Terminal):
    """A terminal where Ctrl-C arrives while a line is being drawn."""

    def write(self, text: str) -> int:
        if "2 steps" in text:
            raise KeyboardInterrupt
        return super().write(text)


def test_ctrl_c_while_drawing_reaches_the_command_and_nothing_waits(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    line = StepLine(Interrupted(), delay=0.0)
    line("head1.q")
    line.bar.mininterval = 0
    with pytest.raises(KeyboardInterrupt):
        line("head1.k")
    done = threading.Event()
    closer = threading.Thread(target=lambda: (line.close(), done.set()), daemon=True)
    closer.start()  # from another thread: the bar's lock must not be left held
    assert done.wait(timeout=30)
    after = Terminal()
    again = StepLine(after, delay=0.0)
    again("x")
    again.close()
    assert "\rmha-symbolic: x (1 steps, 00:00)" in after.getvalue()


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


def test_a_log_gets_a_plain_line_as_often_as_the_environment_says(monkeypatch):
    from mha_symbolic.progress import INTERVAL, interval

    monkeypatch.setenv("MHA_SYMBOLIC_PROGRESS_EVERY", "60")
    assert interval() == 60.0
    for unusable in ("soon", "-1"):
        monkeypatch.setenv("MHA_SYMBOLIC_PROGRESS_EVERY", unusable)
        assert interval() == INTERVAL
    monkeypatch.setenv("MHA_SYMBOLIC_PROGRESS_EVERY", "0")
    log = io.StringIO()
    line = StepLine(log, delay=0.0)
    line("head1.q")
    assert log.getvalue().startswith("mha-symbolic: head1.q (1 steps, ")
