"""`normgeo site` on a folder with a silent and a narrated render of one scene: the page plays the
narrated video (its audio decodes in Chromium), its subtitle track's cues carry the word
timestamps (parsed by Chromium's VTTCue into timestamp nodes), and its steps are the narrated
render's; `--voice none` shows the silent one."""

import json
from urllib.parse import unquote, urlparse

import pytest
from click.testing import CliRunner

from scenes.cli.main import cli
from scenes.render.voice.timed_text import parse_vtt

pytestmark = pytest.mark.render
TINY = ("--resolution", "192x108")
SILENT = "layernorm-2d/layernorm-2d.en.dark.192x108p15.mp4"
NARRATED = "layernorm-2d/layernorm-2d.en.dark.voice-en.192x108p15.mp4"


def normgeo(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("narrated")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NORMGEO_SPEECH_CACHE", str(out / "speech"))
        for voice in ("en", "none"):  # the narrated one first: the site must not just take the last
            result = normgeo("render", "layernorm-2d", *TINY, "--voice", voice, "--out", out, "--jobs", 1)
            assert result.exit_code == 0, result.output
    return out


def _shown_file(state) -> bytes:
    return open(unquote(urlparse(state["src"]).path), "rb").read()


def _video_state(page):
    page.wait_for_function("() => document.querySelector('#layernorm-2d video').readyState >= 2", timeout=30000)
    return page.evaluate("""async () => {
        const video = document.querySelector('#layernorm-2d video');
        const track = video.textTracks[0];
        const cue = track.cues[0];
        const nodes = [...cue.getCueAsHTML().childNodes];
        return {src: video.currentSrc, cues: track.cues.length, text: cue.text,
                timestamps: nodes.filter(n => n.nodeType === Node.PROCESSING_INSTRUCTION_NODE).map(n => n.data),
                steps: [...document.querySelectorAll('#layernorm-2d .ng-narration li')].map(li => +li.dataset.start)};
    }""")


def test_the_page_plays_the_narrated_video_with_its_word_timed_track(rendered, open_page):
    result = normgeo("site", "--out", rendered)
    assert result.exit_code == 0, result.output
    page = open_page(rendered / "site" / "index.html")
    state = _video_state(page)
    assert _shown_file(state) == (rendered / NARRATED).read_bytes()
    vtt = parse_vtt((rendered / NARRATED).with_suffix(".vtt").read_text(encoding="utf-8"))
    assert state["cues"] == len(vtt) and "<00:00:" in state["text"]
    first_marks = [f"{m // 60000:02d}:{m // 1000 % 60:02d}.{m % 1000:03d}" for _, m in vtt[0].marks]
    assert [stamp.split(":", 1)[1] for stamp in state["timestamps"]] == first_marks  # Chromium read every one
    record = json.loads((rendered / "manifest.json").read_text())["artifacts"][NARRATED]
    assert state["steps"] == pytest.approx([step["start"] for step in record["steps"]], abs=1e-3)
    # the video Chromium plays has a sound track that decodes: after playing, it has audio bytes decoded
    page.evaluate("() => { const v = document.querySelector('#layernorm-2d video'); v.muted = true; return v.play(); }")
    page.wait_for_function("() => document.querySelector('#layernorm-2d video').currentTime > 0.5", timeout=30000)
    decoded = page.evaluate("() => document.querySelector('#layernorm-2d video').webkitAudioDecodedByteCount")
    assert decoded > 0


def test_site_voice_none_shows_the_silent_video(rendered, open_page, tmp_path):
    result = normgeo("site", "--out", rendered, "--site", tmp_path / "silent-site", "--voice", "none")
    assert result.exit_code == 0, result.output
    state = _video_state(open_page(tmp_path / "silent-site" / "index.html"))
    assert _shown_file(state) == (rendered / SILENT).read_bytes() and "<00:" not in state["text"] and state["timestamps"] == []
    record = json.loads((rendered / "manifest.json").read_text())["artifacts"][SILENT]
    assert state["steps"] == pytest.approx([step["start"] for step in record["steps"]], abs=1e-3)


def test_a_gif_or_still_with_a_voice_is_refused_in_one_line(tmp_path):
    for args in (("gif", "layernorm-2d", "--voice", "en"), ("render", "layernorm-2d", "--format", "gif", "--voice", "en"),
                 ("render", "layernorm-2d", "--format", "png", "--voice", "ru")):
        result = normgeo(*args, "--out", tmp_path / "out")
        assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
        assert "has no sound track" in result.output
    assert not (tmp_path / "out").exists()
