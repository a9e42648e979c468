"""The presenter's recorder in real Chromium, its microphone being Chromium's fake capture device
fed from a WAV file of a pure tone: steps are recorded, played back and re-recorded in the page,
saved as one ZIP (a real download), unpacked, and the folder is read by the renderer's own reader
(``check_recordings``, ``read_audio``): each file decodes to the tone that was "spoken", as long as
it was recorded. The page's WAV and ZIP writers are read back by Python's ``wave`` and ``zipfile``.
Without a microphone (refused, or none) the page says so in one line and presents as before."""

from __future__ import annotations

import io
import json
import wave
import zipfile
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from scenes.cli.main import cli
from scenes.render.errors import InputError
from scenes.render.site import SiteMedia, SiteScene, SiteStep, build_site
from scenes.render.voice.audio_file import read_audio
from scenes.render.voice.choice import RecordingsFolder
from scenes.render.voice.recordings import check_recordings, recording_path
from tests.audio_readback import decoded_audio, speech_onsets
from tests.site.conftest import CHROMIUM, CHROMIUM_ARGS, PageProblems, axe_violations, write_video

TONE_HZ = 440.0
SCENE = "scale-invariance"   # the fewest narrated steps (with batch-dependence): five
KEYS = ["intro", "scale", "direction", "decay", "effective"]
TEXTS = {"en": [f"Step {key}." for key in KEYS], "ru": [f"Шаг {key}." for key in KEYS]}
STEP_S = 0.4


def write_tone(path: Path, seconds: float = 6.0, rate: int = 48000, hz: float = TONE_HZ) -> Path:
    """A 16-bit mono WAV of a sine (TONE_HZ, the fake microphone's), half of full scale."""
    time = np.arange(int(seconds * rate)) / rate
    samples = np.round(0.5 * np.sin(2 * np.pi * hz * time) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.tobytes())
    return path


def dominant_hz(samples: np.ndarray, rate: int) -> float:
    """The frequency of the largest peak of the Hann-windowed spectrum, refined by a parabola."""
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
    k = int(np.argmax(spectrum[1:-1])) + 1
    a, b, c = np.log(spectrum[k - 1 : k + 2] + 1e-30)
    return (k + 0.5 * (a - c) / (a - 2 * b + c)) * rate / len(samples)


def recorder_site(folder: Path, with_keys: bool = True) -> Path:
    video = write_video(folder / "video.mp4", seconds=STEP_S * len(KEYS) + 0.2)
    steps = {lang: [SiteStep(i * STEP_S, (i + 1) * STEP_S, text, key if with_keys else "")
                    for i, (key, text) in enumerate(zip(KEYS, texts))] for lang, texts in TEXTS.items()}
    media = [SiteMedia("video", lang, theme, video, video.stat().st_size, 192, 108)
             for lang in TEXTS for theme in ("dark", "light")]
    titles = {"en": "Scale invariance", "zh": "尺度不变性", "ru": "Инвариантность к масштабу"}
    scene = SiteScene(SCENE, titles, titles, steps, media)
    build_site([scene], folder / "site")
    return folder / "site"


@pytest.fixture(scope="module")
def tone(tmp_path_factory) -> Path:
    return write_tone(tmp_path_factory.mktemp("tone") / "tone.wav")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return recorder_site(tmp_path_factory.mktemp("recorder"))


def launch(playwright, *extra):
    assert CHROMIUM.exists(), "Debian's chromium is not installed (./run test installs it)"
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, *extra])


@pytest.fixture(scope="module")
def playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="module")
def mic_browser(playwright, tone):
    browser = launch(playwright, "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                     f"--use-file-for-fake-audio-capture={tone}")
    yield browser
    browser.close()


def open_presenter(browser, site: Path, query: str = "?lang=en", color_scheme: str = "dark", viewport=(1200, 760)):
    context = browser.new_context(color_scheme=color_scheme, viewport={"width": viewport[0], "height": viewport[1]},
                                  accept_downloads=True)
    page = context.new_page()
    page.problems = PageProblems(page)
    page.goto((site / "present.html").as_uri() + query)
    page.wait_for_function("document.getElementById('present-video').readyState >= 1")
    return page


REC = """() => { const r = document.getElementById('presenter');
  return {rec: r.dataset.rec, count: +r.dataset.recCount, file: r.dataset.recFile, cursor: +r.dataset.cursor,
          state: r.dataset.state, message: document.querySelector('[data-out="rec-message"]').textContent,
          messageHidden: document.querySelector('[data-out="rec-message"]').hidden,
          button: document.querySelector('[data-act="record"]').textContent,
          status: document.querySelector('[data-out="rec-state"]').textContent}; }"""


def record(page, seconds: float, with_key: bool = True) -> dict:
    """Record the step on screen for about ``seconds`` (R to start, R to stop), until the WAV is kept."""
    page.keyboard.press("r") if with_key else page.click('[data-act="record"]')
    page.wait_for_function("document.getElementById('presenter').dataset.rec === 'recording'", timeout=10000)
    page.wait_for_timeout(seconds * 1000)
    page.keyboard.press("r") if with_key else page.click('[data-act="record"]')
    page.wait_for_function("document.getElementById('presenter').dataset.rec === 'idle'", timeout=10000)
    return page.evaluate(REC)


def step_on(page, presses: int) -> None:
    for _ in range(presses):
        cursor = page.evaluate("+document.getElementById('presenter').dataset.cursor")
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"(() => {{ const r = document.getElementById('presenter'); "
                               f"return r.dataset.state === 'paused' && +r.dataset.cursor === {cursor + 1}; }})()",
                               timeout=5000)


def save(page, folder: Path) -> dict[str, bytes]:
    """Press Save, take the download, unpack it into ``folder``; the archive's names → bytes."""
    with page.expect_download() as info:
        page.click('[data-act="save"]')
    download = info.value
    assert download.suggested_filename == "recordings.zip"
    data = Path(download.path()).read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.testzip() is None  # every CRC-32 is right
        archive.extractall(folder)
        return {name: archive.read(name) for name in archive.namelist()}


def test_two_steps_recorded_saved_and_read_by_the_renderer(mic_browser, site, tmp_path):
    page = open_presenter(mic_browser, site)
    first = record(page, 1.2)
    assert first["file"] == f"{SCENE}/intro.en.wav" and first["count"] == 1, first
    assert first["button"] == "Record again" and first["messageHidden"]
    step_on(page, 2)  # the end of the first step, then of the second: the second on screen
    second = record(page, 0.8, with_key=False)
    assert second["file"] == f"{SCENE}/scale.en.wav" and second["count"] == 2, second
    # listening to it plays the recording, not the video
    page.click('[data-act="play"]')
    page.wait_for_function("document.querySelector('[data-out=\"rec-audio\"]').currentTime > 0.2", timeout=10000)
    heard = page.evaluate("""() => { const a = document.querySelector('[data-out="rec-audio"]');
        return {duration: a.duration, videoPaused: document.getElementById('present-video').paused}; }""")
    assert heard["videoPaused"] and 0.6 < heard["duration"] < 1.6, heard
    names = save(page, tmp_path)
    assert sorted(names) == [f"recordings/{SCENE}/intro.en.wav", f"recordings/{SCENE}/scale.en.wav"]
    folder = tmp_path / "recordings"
    check_recordings(RecordingsFolder(folder), SCENE, ["intro", "scale"], "en")  # the renderer's own check
    with pytest.raises(InputError, match="no recording of scale-invariance step 'direction' in en"):
        check_recordings(RecordingsFolder(folder), SCENE, KEYS, "en")
    for key, seconds in (("intro", 1.2), ("scale", 0.8)):
        samples, rate = read_audio(recording_path(folder, SCENE, key, "en"))
        assert seconds - 0.3 < len(samples) / rate < seconds + 0.6, (key, len(samples) / rate)
        middle = samples[len(samples) // 4 : 3 * len(samples) // 4]
        assert np.sqrt(np.mean(middle**2)) > 0.1, "the recording is silent"
        assert abs(dominant_hz(middle, rate) - TONE_HZ) < 2.0
        with wave.open(str(recording_path(folder, SCENE, key, "en"))) as file:  # PCM 16-bit mono, as documented
            assert (file.getnchannels(), file.getsampwidth(), file.getcomptype()) == (1, 2, "NONE")
    page.problems.check()
    page.context.close()


def test_a_step_recorded_again_replaces_its_recording(mic_browser, site, tmp_path):
    page = open_presenter(mic_browser, site)
    record(page, 0.6)
    again = record(page, 1.8)
    assert again["count"] == 1 and again["file"] == f"{SCENE}/intro.en.wav"
    names = save(page, tmp_path)
    assert list(names) == [f"recordings/{SCENE}/intro.en.wav"]
    samples, rate = read_audio(tmp_path / "recordings" / SCENE / "intro.en.wav")
    assert len(samples) / rate > 1.5  # the second take, not the first
    page.problems.check()
    page.context.close()


def test_a_russian_page_records_russian_files(mic_browser, site, tmp_path):
    page = open_presenter(mic_browser, site, "?lang=ru")
    state = record(page, 0.5)
    assert state["file"] == f"{SCENE}/intro.ru.wav" and state["button"] == "Перезаписать"
    assert list(save(page, tmp_path)) == [f"recordings/{SCENE}/intro.ru.wav"]
    check_recordings(RecordingsFolder(tmp_path / "recordings"), SCENE, ["intro"], "ru")
    page.problems.check()
    page.context.close()


def test_a_refused_microphone_is_one_line_and_the_presenter_goes_on(playwright, site):
    browser = launch(playwright, "--use-fake-device-for-media-stream")  # a microphone, but no permission given
    try:
        page = open_presenter(browser, site)
        page.keyboard.press("r")
        page.wait_for_function("!document.querySelector('[data-out=\"rec-message\"]').hidden", timeout=10000)
        state = page.evaluate(REC)
        assert state["message"] == ("The microphone is blocked for this page: allow it in the browser's site settings "
                                    "to record. Presenting works without it."), state
        assert state["rec"] == "idle" and state["count"] == 0
        step_on(page, 1)  # presenting goes on
        page.problems.check()
    finally:
        browser.close()


def test_no_microphone_is_one_line(playwright, site):
    browser = launch(playwright, "--use-fake-ui-for-media-stream")  # permission, but no capture device
    try:
        page = open_presenter(browser, site, "?lang=zh")
        page.click('[data-act="record"]')
        page.wait_for_function("!document.querySelector('[data-out=\"rec-message\"]').hidden", timeout=10000)
        assert page.evaluate(REC)["message"] == "没有找到麦克风：请连接麦克风后再录音。演示不受影响。"
        page.problems.check()
    finally:
        browser.close()


def test_a_site_without_step_names_says_how_to_get_them(mic_browser, tmp_path):
    page = open_presenter(mic_browser, recorder_site(tmp_path, with_keys=False))
    state = page.evaluate(REC)
    assert state["file"] == "" and page.is_disabled('[data-act="record"]')
    assert "rebuild it with normgeo site" in page.text_content('[data-out="rec-file"]')
    page.problems.check()
    page.context.close()


def test_the_page_writes_wav_and_zip_that_python_reads(mic_browser, site):
    page = open_presenter(mic_browser, site)
    written = page.evaluate("""() => {
        const F = window.NormGeoFiles, n = 4410, left = new Float32Array(n), right = new Float32Array(n);
        for (let i = 0; i < n; i++) {
            left[i] = 0.8 * Math.sin(2 * Math.PI * 1000 * i / 44100);
            right[i] = -left[i] / 2 + 0.3;
        }
        left[7] = 3;  // beyond full scale: clipped
        const wav = F.wav([left, right], 44100);
        const zip = F.zip([{path: 'recordings/a/b.en.wav', bytes: wav},
                           {path: 'recordings/a/ü.txt', bytes: new TextEncoder().encode('hi')}],
                          new Date(2026, 11, 1, 15, 4, 30));
        return {crc: F.crc32(new TextEncoder().encode('123456789')), wav: Array.from(wav), zip: Array.from(zip)};
    }""")
    assert written["crc"] == 0xCBF43926
    with wave.open(io.BytesIO(bytes(written["wav"]))) as file:
        assert (file.getnchannels(), file.getsampwidth(), file.getframerate(), file.getnframes()) == (1, 2, 44100, 4410)
        samples = np.frombuffer(file.readframes(4410), "<i2") / 32768
    i = np.arange(4410)
    left = 0.8 * np.sin(2 * np.pi * 1000 * i / 44100)
    expected = np.clip((left + (-left / 2 + 0.3)) / 2, -1, 1)
    expected[7] = 1.0  # (3 + right) / 2 > 1
    assert np.max(np.abs(samples - expected)) < 2 / 32768
    with zipfile.ZipFile(io.BytesIO(bytes(written["zip"]))) as archive:
        assert archive.testzip() is None
        assert archive.namelist() == ["recordings/a/b.en.wav", "recordings/a/ü.txt"]
        assert archive.read("recordings/a/b.en.wav") == bytes(written["wav"])
        assert archive.read("recordings/a/ü.txt") == b"hi"
        info = archive.getinfo("recordings/a/b.en.wav")
        assert info.compress_type == zipfile.ZIP_STORED and info.date_time == (2026, 12, 1, 15, 4, 30)
    page.problems.check()
    page.context.close()


def test_the_recorder_has_no_serious_accessibility_problems(mic_browser, site):
    page = open_presenter(mic_browser, site, "?lang=ru")
    record(page, 0.4)
    assert axe_violations(page) == []
    page.problems.check()
    page.context.close()


@pytest.mark.render
def test_a_scene_rendered_with_the_saved_folder_speaks_the_recordings(mic_browser, site, tmp_path, monkeypatch):
    """Every step of the scene recorded in the page, saved, unpacked, and `normgeo render -q l
    --voice recordings:DIR` of that folder as saved: the MP4's sound track (AAC) is the tone, and
    it begins at each step's start the render recorded."""
    page = open_presenter(mic_browser, site)
    for index in range(len(KEYS)):
        if index:
            step_on(page, 2 if index == 1 else 1)
        assert record(page, 1.0)["file"] == f"{SCENE}/{KEYS[index]}.en.wav"
    assert len(save(page, tmp_path / "saved")) == len(KEYS)
    page.problems.check()
    page.context.close()
    out = tmp_path / "out"
    monkeypatch.setenv("NORMGEO_SPEECH_CACHE", str(tmp_path / "speech"))
    voice = f"recordings:{tmp_path / 'saved' / 'recordings'}"
    result = CliRunner().invoke(cli, ["render", SCENE, "-q", "l", "--voice", voice, "--out", str(out), "--jobs", "1"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    artifacts = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["artifacts"]
    (name, entry), = [(name, entry) for name, entry in artifacts.items() if name.endswith(".mp4")]
    samples, rate, codec = decoded_audio(out / name)
    assert codec == "aac" and abs(len(samples) / rate - entry["duration_s"]) < 0.1
    assert [said["step"] for said in entry["speech"]] == KEYS
    starts = [step["start"] for step in entry["steps"]]
    assert speech_onsets(samples, rate) == pytest.approx(starts, abs=0.05)  # each recording where its step starts
    for step in entry["steps"]:
        spoken = samples[int((step["start"] + 0.2) * rate) : int((step["start"] + 0.8) * rate)]
        assert abs(dominant_hz(spoken, rate) - TONE_HZ) < 2.0, step["key"]


def write_flac(path: Path, hz: float, seconds: float = 1.0, rate: int = 44100) -> Path:
    """A FLAC file of a sine (PyAV's FLAC encoder)."""
    import av

    samples = (0.4 * np.sin(2 * np.pi * hz * np.arange(int(seconds * rate)) / rate)).astype(np.float32)
    with av.open(str(path), "w") as container:
        stream = container.add_stream("flac", rate=rate, layout="mono")
        pcm = np.round(samples * 32767).astype(np.int16)[None, :]
        frame = av.AudioFrame.from_ndarray(pcm, format="s16", layout="mono")
        frame.sample_rate = rate
        for packet in [*stream.encode(frame), *stream.encode(None)]:
            container.mux(packet)
    return path


def test_a_folder_saved_before_is_opened_again_and_saved_whole(mic_browser, site, tmp_path):
    """The lecturer goes on another day: the folder chosen in the page (its files as the user has
    them, FLAC too) is taken in; a step recorded again replaces its file; the saved ZIP holds the
    other files byte for byte, those of scenes this site does not show too, and no bad file."""
    folder = tmp_path / "mine" / "recordings"
    (folder / SCENE).mkdir(parents=True)
    (folder / "layernorm-2d").mkdir()
    flac = write_flac(folder / SCENE / "intro.en.flac", 330.0)
    write_tone(folder / SCENE / "scale.en.wav", seconds=0.5, hz=220.0)  # replaced below by the microphone's 440 Hz
    other = write_tone(folder / "layernorm-2d" / "line.en.wav", seconds=0.3)
    (folder / SCENE / "direction.en.ogg").write_bytes(b"not an Ogg file")
    (folder / "notes.txt").write_text("my takes")
    page = open_presenter(mic_browser, site)
    page.set_input_files('[data-out="rec-open"]', str(folder))
    page.wait_for_function("!document.querySelector('[data-out=\"rec-message\"]').hidden", timeout=10000)
    state = page.evaluate(REC)
    bad = f"recordings/{SCENE}/direction.en.ogg"
    assert state["message"] == f"These files do not decode as sound and were left out: {bad}"
    assert state["count"] == 2 and state["file"] == f"{SCENE}/intro.en.flac", state
    assert state["button"] == "Record again"
    assert "recorded: 1.0 s" in state["status"]
    step_on(page, 2)
    record(page, 0.7)  # the second step again, from the microphone
    names = save(page, tmp_path / "saved")
    assert sorted(names) == ["recordings/layernorm-2d/line.en.wav", f"recordings/{SCENE}/intro.en.flac",
                             f"recordings/{SCENE}/scale.en.wav"]
    assert names[f"recordings/{SCENE}/intro.en.flac"] == flac.read_bytes()
    assert names["recordings/layernorm-2d/line.en.wav"] == other.read_bytes()
    saved = tmp_path / "saved" / "recordings"
    check_recordings(RecordingsFolder(saved), SCENE, ["intro", "scale"], "en")
    samples, rate = read_audio(saved / SCENE / "scale.en.wav")
    assert abs(len(samples) / rate - 0.7) < 0.4 and abs(dominant_hz(samples[len(samples) // 4 :], rate) - TONE_HZ) < 2
    page.problems.check()
    page.context.close()


def test_opening_a_folder_counts_what_it_left_out(mic_browser, site, tmp_path):
    folder = tmp_path / "takes"
    (folder / SCENE).mkdir(parents=True)
    write_tone(folder / SCENE / "decay.ru.wav", seconds=0.4)
    (folder / "readme.md").write_text("x")
    (folder / SCENE / "decay.de.wav").write_bytes((folder / SCENE / "decay.ru.wav").read_bytes())  # not a language here
    page = open_presenter(mic_browser, site, "?lang=ru")
    page.set_input_files('[data-out="rec-open"]', str(folder))
    page.wait_for_function("!document.querySelector('[data-out=\"rec-message\"]').hidden", timeout=10000)
    state = page.evaluate(REC)
    assert state["message"].startswith("Открыто записей: 1; пропущено других файлов: 2."), state
    assert state["count"] == 1
    page.problems.check()
    page.context.close()


def test_after_a_click_on_record_space_still_steps_on(mic_browser, site):
    """A lecturer who clicks Record with the mouse then steps on with the clicker: the click leaves
    the keyboard focus where it was, so Space plays the next step (a button reached with Tab takes
    Space itself, as buttons do)."""
    page = open_presenter(mic_browser, site)
    record(page, 0.4, with_key=False)
    step_on(page, 1)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.act") == "record"
    page.keyboard.press("Space")
    page.wait_for_function("document.getElementById('presenter').dataset.rec === 'recording'", timeout=10000)
    assert page.evaluate("+document.getElementById('presenter').dataset.cursor") == 1  # Space pressed the button
    page.keyboard.press("Space")
    page.wait_for_function("document.getElementById('presenter').dataset.rec === 'idle'", timeout=10000)
    page.problems.check()
    page.context.close()


def test_a_browser_without_mediarecorder_says_so_and_presents(mic_browser, site):
    context = mic_browser.new_context(color_scheme="dark")
    context.add_init_script("delete window.MediaRecorder;")
    page = context.new_page()
    page.problems = PageProblems(page)
    page.goto((site / "present.html").as_uri() + "?lang=en")
    page.wait_for_function("document.getElementById('present-video').readyState >= 1")
    assert page.text_content('[data-out="rec-message"]').startswith("This browser cannot record sound (no MediaRecorder)")
    page.keyboard.press("r")
    assert page.evaluate(REC)["rec"] == "idle"
    step_on(page, 1)
    page.problems.check()
    context.close()
