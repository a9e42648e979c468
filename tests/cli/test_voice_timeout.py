"""A synthesizer that hangs never hangs the render: a real child process that stops answering (and
has started a process of its own that holds its pipes) is killed, with its process group, after the
timeout; a render whose real Piper cannot answer in time fails in one line and leaves no file."""

from __future__ import annotations

import os
import sys
import time

import pytest

from scenes.render.errors import InputError
from scenes.render.voice.choice import parse_voice, speech_timeout
from scenes.render.voice.clip import SpeechError
from scenes.render.voice.piper_speaker import PiperSpeaker

# reads the request, starts a grandchild that inherits stdout (so killing the child alone would
# leave the pipe open and the parent's read blocked), writes the grandchild's pid to a file, hangs
HANGING_CHILD = """
import subprocess, sys, time
sys.stdin.readline()
grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
open(sys.argv[1], "w").write(str(grandchild.pid))
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie (killed, not yet reaped by init) is not alive
        return stat.read().split(")")[-1].split()[0] != "Z"


def test_a_hanging_piper_child_is_stopped_after_the_timeout(tmp_path):
    script, pid_file = tmp_path / "hang.py", tmp_path / "grandchild.pid"
    script.write_text(HANGING_CHILD)
    # the child is run as [*command, model, config]: the model path is where the script writes the pid
    speaker = PiperSpeaker(parse_voice("en"), tmp_path / "models", command=[sys.executable, str(script), str(pid_file)],
                           timeout=1.5)
    started = time.monotonic()
    with pytest.raises(SpeechError, match=r"gave no speech for 'Hello\.' within 1\.5 s and was stopped"):
        speaker.speak("Hello.")
    waited = time.monotonic() - started
    assert 1.4 <= waited < 10, waited
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(grandchild)
    assert speaker.child_pid is None


def test_the_timeout_comes_from_the_environment_and_is_checked(monkeypatch):
    monkeypatch.delenv("NORMGEO_SPEECH_TIMEOUT", raising=False)
    assert speech_timeout() == 120.0
    monkeypatch.setenv("NORMGEO_SPEECH_TIMEOUT", "2.5")
    assert speech_timeout() == 2.5
    for bad in ("soon", "0", "-3", "inf", "nan"):
        monkeypatch.setenv("NORMGEO_SPEECH_TIMEOUT", bad)
        with pytest.raises(InputError, match="NORMGEO_SPEECH_TIMEOUT"):
            speech_timeout()


def test_a_bad_timeout_is_refused_before_rendering(run, tmp_path, monkeypatch):
    monkeypatch.setenv("NORMGEO_SPEECH_TIMEOUT", "soon")
    result = run("render", "layernorm-2d", "-q", "l", "--voice", "en", "--out", tmp_path / "out")
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert "NORMGEO_SPEECH_TIMEOUT='soon'" in result.output and not (tmp_path / "out").exists()


@pytest.mark.render
def test_a_render_whose_piper_does_not_answer_in_time_fails_and_leaves_no_file(run, tmp_path, monkeypatch):
    """The real Piper child, with a limit it cannot meet (loading the voice alone takes longer)."""
    monkeypatch.setenv("NORMGEO_SPEECH_CACHE", str(tmp_path / "speech"))
    monkeypatch.setenv("NORMGEO_SPEECH_TIMEOUT", "0.05")
    started = time.monotonic()
    result = run("render", "layernorm-2d", "-q", "l", "--voice", "en", "--out", tmp_path / "out", "-j", "1")
    assert result.exit_code == 1, result.output
    assert "within 0.05 s and was stopped" in result.output and "layernorm-2d: layernorm-2d:" not in result.output
    assert [line for line in result.output.splitlines() if "was stopped" in line] and time.monotonic() - started < 120
    out = tmp_path / "out"
    assert not [path for path in out.rglob("*") if path.is_file() and path.name != "manifest.json"] if out.exists() else True
