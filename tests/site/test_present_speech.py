"""The presenter speaks each step: on a site built from a narrated render (`--voice en`, Piper),
presenter mode plays the narrated video with its sound on, and every stop it makes falls after
that step's speech has ended — read from the sound track itself (decoded by PyAV), not from the
times the render recorded: the 0.3 s before each stop are quiet, each step's span holds speech,
and speech begins within a moment of where the presenter resumes. Its captions (C) light the word
being said at the time the WebVTT's word timestamp gives."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import numpy as np
import pytest
from click.testing import CliRunner

from scenes.cli.main import cli
from tests.audio_readback import decoded_audio, speech_onsets
from tests.site.test_present import wait_paused_at

pytestmark = pytest.mark.render
SCENE = "scale-invariance"  # five narrated steps


@pytest.fixture(scope="module")
def narrated_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("spoken")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NORMGEO_SPEECH_CACHE", str(out / "speech"))
        for args in (("render", SCENE, "--resolution", "192x108", "--voice", "en", "--jobs", "1"), ("site",)):
            result = CliRunner().invoke(cli, [*args, "--out", str(out)], catch_exceptions=False)
            assert result.exit_code == 0, result.output
    (name,) = [name for name in json.loads((out / "manifest.json").read_text())["artifacts"] if name.endswith(".mp4")]
    return out, out / name


def loudness_db(samples: np.ndarray, rate: int) -> np.ndarray:
    """dB of each 10 ms window's RMS under the loudest window's."""
    window = rate // 100
    count = len(samples) // window
    rms = np.sqrt(np.mean(np.square(samples[: count * window].reshape(count, window), dtype=np.float64), axis=1))
    return 20 * np.log10(np.maximum(rms, 1e-12) / rms.max())


def test_every_stop_of_the_presenter_comes_after_its_step_is_said(narrated_site, open_page):
    out, video = narrated_site
    page = open_page(out / "site" / "present.html", query="?lang=en", color_scheme="dark")
    page.wait_for_function("document.getElementById('present-video').readyState >= 1", timeout=30000)
    total = page.evaluate("+document.getElementById('presenter').dataset.total")
    assert total == 5
    stops = [0.0]
    for cursor in range(1, total + 1):
        page.keyboard.press("Space")
        stops.append(wait_paused_at_long(page, cursor))
    state = page.evaluate("""() => { const v = document.getElementById('present-video');
        return {src: v.currentSrc, muted: v.muted, volume: v.volume, decoded: v.webkitAudioDecodedByteCount}; }""")
    shown = Path(unquote(urlparse(state["src"]).path))
    assert ".voice-en." in video.name and shown.read_bytes() == video.read_bytes()  # the narrated video
    assert not state["muted"] and state["volume"] == 1 and state["decoded"] > 0, state  # its sound played
    samples, rate, _ = decoded_audio(video)
    level = loudness_db(samples, rate)
    onsets = speech_onsets(samples, rate)
    for number, (begin, stop) in enumerate(zip(stops, stops[1:]), start=1):
        before_stop = level[int((stop - 0.3) * 100) : int(stop * 100)]
        assert before_stop.max() < -35, f"step {number}: {before_stop.max():.0f} dB just before its stop at {stop}"
        assert level[int(begin * 100) : int(stop * 100)].max() > -10, f"step {number} holds no speech"
        assert any(begin <= onset < begin + 0.4 for onset in onsets), f"step {number}: no speech starts at {begin}"


def wait_paused_at_long(page, cursor: int) -> float:
    """The stop the presenter pauses at after ``cursor`` steps (a narrated step can last 20 s)."""
    page.wait_for_function(
        "(c) => { const r = document.getElementById('presenter');"
        " return r.dataset.state === 'paused' && +r.dataset.cursor === c; }",
        arg=cursor, timeout=60000)
    return wait_paused_at(page, cursor)["time"]


STAMP = re.compile(r"<(\d{2}:\d{2}:\d{2}\.\d{3})>")


def vtt_words(path: Path) -> list[tuple[float, list[tuple[float, str]]]]:
    """(cue end, [(moment, word)]) of each cue: its first word from the cue's start, every other from
    the timestamp before it (read with a regular expression, not the pipeline's parser)."""
    clock = lambda text: sum(float(part) * 60**i for i, part in enumerate(reversed(text.split(":"))))  # noqa: E731
    cues = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = block.strip().splitlines()
        timing = next((i for i, line in enumerate(lines) if "-->" in line), None)
        if timing is None:
            continue
        start, end = (clock(part.strip().split(" ")[0]) for part in lines[timing].split("-->"))
        body = " ".join(lines[timing + 1 :])
        texts = STAMP.split(body)  # word, stamp, word, stamp, …, word
        words = [(start, texts[0].strip())]
        words += [(clock(texts[i]), texts[i + 1].strip()) for i in range(1, len(texts) - 1, 2)]
        cues.append((end, [(moment, word) for moment, word in words if word]))
    return cues


def test_the_captions_light_the_word_being_said(narrated_site, open_page):
    out, video = narrated_site
    page = open_page(out / "site" / "present.html", query="?lang=en&captions=1", color_scheme="dark")
    page.wait_for_function("document.getElementById('present-video').readyState >= 1", timeout=30000)
    cues = [cue for cue in vtt_words(video.with_suffix(".vtt")) if len(cue[1]) >= 4]
    assert len(cues) >= 3, "the narrated render's WebVTT has too few word timestamps"
    for end, words in (cues[0], cues[len(cues) // 2], cues[-1]):
        for k in (0, 2, len(words) - 1):
            moment = (words[k][0] + (words[k + 1][0] if k + 1 < len(words) else end)) / 2
            page.evaluate("(t) => { document.getElementById('present-video').currentTime = t; }", moment)
            page.wait_for_function("(w) => document.querySelector('[data-out=\"captions\"]').dataset.word === w",
                                   arg=words[k][1], timeout=5000)
            lit = page.evaluate("() => [...document.querySelectorAll('[data-out=captions] span')].map(s => s.className)")
            assert lit == ["ng-said"] * k + ["ng-saying"] + ["ng-to-say"] * (len(words) - k - 1), (moment, lit)
            assert page.locator('[data-out="captions"]').is_visible()
    page.keyboard.press("c")  # C hides them
    assert page.locator('[data-out="captions"]').is_hidden()
