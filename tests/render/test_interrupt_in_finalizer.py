"""Ctrl-C in a pool process that is inside a finalizer: Python swallows an exception raised in a
``__del__`` and prints "Exception ignored …" with a traceback, and the process would go on
rendering. The pool's interrupt handler raises it once the finalizer has returned: the process
ends with 130 and prints nothing (a real process, a real signal)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import time
from scenes.render.running.executor import _quiet_on_interrupt

_quiet_on_interrupt()


class SlowToFinalize:
    def __del__(self):
        print("finalizing", flush=True)
        time.sleep(3)


item = SlowToFinalize()
del item
time.sleep(3)  # (the interrupt is raised here, within 50 ms of the finalizer's end)
print("rendered on after the interrupt", flush=True)
"""


def test_an_interrupt_inside_a_finalizer_still_ends_the_process_quietly():
    child = subprocess.Popen([sys.executable, "-c", PROGRAM], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "finalizing"
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130, (out, err)
    assert "rendered on" not in out and err == "", err
