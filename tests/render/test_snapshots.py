"""Forked copies of a running process (scenes/render/snapshots.py), with real forks: the woken copy
goes on from exactly the state it was taken in, the others end, nothing is left running."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scenes.render.splitting.snapshots import Snapshots

ROOT = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is not running
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_the_woken_copy_goes_on_from_its_own_moment_and_the_others_end(tmp_path):
    """Copies taken at 0, 1, 2 while a list grows; copy 1, woken with 7, has the list as it was
    then and carries on; the copies not woken are gone when the result is back."""
    snapshots = Snapshots(tmp_path)
    state = []
    for number in range(3):
        if (message := snapshots.take(number)) is not None:
            state.append(message)
            snapshots.hand_over(list(state))  # exits the copy
        state.append(number)
    waiting = [pid for pid, _ in snapshots.waiting.values()]
    snapshots.wake(1, 7)
    assert snapshots.result(1) == [0, 7]
    assert not any(alive(pid) for pid in waiting)
    assert state == [0, 1, 2]  # the parent never ran the copy's code


def test_a_failing_copy_reports_one_line(tmp_path):
    snapshots = Snapshots(tmp_path)
    if snapshots.take(0) is not None:
        try:
            raise ValueError("broken\nsecond line")
        except ValueError as error:
            snapshots.hand_over(error=error)
    snapshots.wake(0, 0)
    with pytest.raises(RuntimeError, match=r"^ValueError: broken$"):
        snapshots.result(0)


def test_a_copy_killed_while_rendering_is_reported(tmp_path):
    snapshots = Snapshots(tmp_path)
    if snapshots.take(0) is not None:
        os.kill(os.getpid(), signal.SIGKILL)
    snapshots.wake(0, 0)
    with pytest.raises(RuntimeError, match="died .signal SIGKILL"):
        snapshots.result(0)


PARENT = """
import sys, time
from scenes.render.splitting.snapshots import Snapshots
snapshots = Snapshots(sys.argv[1])
for number in range(3):
    if snapshots.take(number) is not None:
        time.sleep(60)  # a woken copy would render here
print(" ".join(str(pid) for pid, _ in snapshots.waiting.values()), flush=True)
if sys.argv[2] == "wake":
    sys.stdin.readline()  # once the test has seen all three waiting
    snapshots.wake(2, 2)
    print(" ".join(str(pid) for pid in snapshots.woken.values()), flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("woken", [False, True])
def test_copies_end_when_their_parent_is_killed(tmp_path, woken):
    """SIGKILL to the parent (a worker dying): waiting copies read end-of-file on their pipe and
    exit; a woken one, which no longer reads it, is killed by the parent-death signal."""
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(tmp_path), "wake" if woken else "wait"], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
    copies = [int(pid) for pid in parent.stdout.readline().split()]
    assert len(copies) == 3 and all(alive(pid) for pid in copies)
    if woken:
        parent.stdin.write("\n")
        parent.stdin.flush()
        copies = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(copies) == 1 and alive(copies[0])
    time.sleep(0.5)
    parent.kill()
    parent.wait(timeout=10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(pid) for pid in copies):
        time.sleep(0.1)
    assert not any(alive(pid) for pid in copies)
