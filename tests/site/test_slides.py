"""`normgeo slides` on real renders (a narrated and a silent scene, tiny frames): the PowerPoint
deck read back with python-pptx and opened by LibreOffice Impress, each clip decoded against its
scene video, the PDF handout's text and chapters read back in three languages, the HTML deck
played from a folder holding nothing else; bad input and failed builds."""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import av
import numpy as np
import pypdf
import pytest
from click.testing import CliRunner
from pptx import Presentation

from scenes.cli.main import cli
from scenes.kit.registry import entry
from scenes.render.manifest import Manifest
from scenes.render.slides.clips import cut_clip
from scenes.render.slides.words import deck_words
from tests.site.conftest import write_video

pytestmark = pytest.mark.render
TINY = ("--resolution", "192x108")
NARRATED = "layernorm-2d/layernorm-2d.en.dark.voice-en.192x108p15.mp4"
SILENT = "radial-projection/radial-projection.en.dark.192x108p15.mp4"
IDS = ("layernorm-2d", "radial-projection")
SOFFICE = shutil.which("soffice")


def normgeo(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    folder = tmp_path_factory.mktemp("slides")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NORMGEO_SPEECH_CACHE", str(folder / "speech"))
        for args in (("layernorm-2d", "--voice", "en"), ("layernorm-2d", "--lang", "en,zh,ru"), ("radial-projection",)):
            result = normgeo("render", *args, *TINY, "--out", folder, "--jobs", 1)
            assert result.exit_code == 0, result.output
    return folder


def steps_of(out: Path, name: str) -> list[dict]:
    return Manifest(out).get(name)["steps"]


def decoded(path: Path) -> list[tuple[float, np.ndarray]]:
    with av.open(str(path)) as container:
        return [(float(f.pts * f.time_base), f.to_ndarray(format="rgb24")) for f in container.decode(video=0)]


def on_screen(frames: list[tuple[float, np.ndarray]], at: float) -> np.ndarray:
    return [picture for time, picture in frames if time <= at + 1e-3][-1]


def stream_seconds(path: Path, kind: str) -> float:
    with av.open(str(path)) as container:
        stream = getattr(container.streams, kind)[0]
        return float(stream.duration * stream.time_base)


@pytest.fixture(scope="module")
def pptx(out):
    result = normgeo("slides", *IDS, "--format", "pptx", "--out", out)
    assert result.exit_code == 0, result.output
    (path,) = (out / "slides").glob("*.pptx")
    assert str(path) in result.output and "14 clips cut without re-encoding" in result.output
    return path


def test_the_deck_has_a_title_a_section_per_scene_and_a_slide_per_step_with_its_notes(out, pptx):
    deck = Presentation(str(pptx))
    slides = list(deck.slides)
    expected = [deck_words("en")["title"]]
    for scene_id, name in zip(IDS, (NARRATED, SILENT)):
        expected.append(entry(scene_id).description("en"))
        expected += [step["text"] for step in steps_of(out, name)]
    assert len(slides) == 1 + 2 + 7 + 7
    notes = [slide.notes_slide.notes_text_frame.text if slide.has_notes_slide else deck_words("en")["title"]
             for slide in slides]
    assert notes == expected
    movies = [[shape for shape in slide.shapes if shape.shape_type == 16] for slide in slides]  # MSO_SHAPE_TYPE.MEDIA
    assert [len(m) for m in movies] == [0, 0] + [1] * 7 + [0] + [1] * 7
    texts = [" ".join(shape.text_frame.text for shape in slide.shapes if shape.has_text_frame) for slide in slides]
    assert entry("layernorm-2d").title("en") in texts[1] and entry("radial-projection").title("en") in texts[9]
    sections = re.findall(rb'<p14:section name="([^"]+)"', zipfile.ZipFile(pptx).read("ppt/presentation.xml"))
    assert [name.decode() for name in sections] == [deck_words("en")["title"], *(entry(i).title("en") for i in IDS)]


def _clips(pptx: Path, folder: Path) -> list[Path]:
    """The deck's videos in slide order, unpacked into ``folder``."""
    archive = zipfile.ZipFile(pptx)
    clips = []
    for number in range(1, len(Presentation(str(pptx)).slides) + 1):
        rels = archive.read(f"ppt/slides/_rels/slide{number}.xml.rels").decode()
        for target in re.findall(r'Target="\.\./media/([^"]+\.mp4)"', rels)[:1]:
            clips.append(folder / target)
            clips[-1].write_bytes(archive.read(f"ppt/media/{target}"))
    return clips


def test_each_clip_is_its_step_of_the_scene_video_with_its_voice(out, pptx, tmp_path):
    clips = _clips(pptx, tmp_path)
    assert len(clips) == 14
    for clip, (name, index) in zip(clips, [(NARRATED, i) for i in range(7)] + [(SILENT, i) for i in range(7)]):
        steps = steps_of(out, name)
        step = steps[index]
        length = (steps[index + 1]["start"] if index + 1 < len(steps) else Manifest(out).get(name)["duration_s"]) - step["start"]
        assert stream_seconds(clip, "video") == pytest.approx(length, abs=1 / 15 + 1e-3)
        source, cut = decoded(out / name), decoded(clip)
        for at in np.linspace(0, length - 0.1, 5):  # copied packets: the very same pictures
            assert np.array_equal(on_screen(cut, at), on_screen(source, step["start"] + at))
        with av.open(str(clip)) as container:
            assert len(container.streams.audio) == (name == NARRATED)
        if name == NARRATED:
            assert stream_seconds(clip, "audio") == pytest.approx(length, abs=0.05)


def test_each_step_slide_plays_its_clip_as_it_opens(pptx):
    deck = Presentation(str(pptx))
    for slide in list(deck.slides)[2:9]:
        (movie,) = [shape for shape in slide.shapes if shape.shape_type == 16]
        xml = slide._element.xml
        assert re.search(r'<p:cond evt="onBegin" delay="0">\s*<p:tn val="2"/>', xml)  # with the slide, no click
        assert 'presetClass="mediacall"' in xml and 'nodeType="afterEffect"' in xml and "clickEffect" not in xml
        assert re.findall(r'<p:spTgt spid="(\d+)"/>', xml) == [str(movie.shape_id)] * 2
        assert 'cmd="playFrom(0.0)"' in xml


def test_impress_opens_the_deck_with_a_page_per_slide_and_each_clip_playing_on_open(pptx, tmp_path):
    assert SOFFICE, "LibreOffice Impress is not installed (./run test installs it)"
    for fmt in ("pdf", "odp"):
        done = subprocess.run([SOFFICE, f"-env:UserInstallation=file://{tmp_path}/profile", "--headless",
                               "--convert-to", fmt, "--outdir", str(tmp_path), str(pptx)],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    assert len(pypdf.PdfReader(tmp_path / f"{pptx.stem}.pdf").pages) == 17
    content = zipfile.ZipFile(tmp_path / f"{pptx.stem}.odp").read("content.xml").decode()
    plays = re.findall(r'<anim:par smil:begin="0s"[^>]*presentation:node-type="after-previous"[^>]*'
                       r'presentation:preset-class="media-call"[^>]*><anim:command smil:dur="([\d.]+)s"[^>]*'
                       r'anim:command="play"/>', content)
    assert len(plays) == 14  # Impress read every step's clip as playing when its slide begins
    assert 'smil:begin="next"' not in content and 'node-type="on-click"' not in content


def test_a_clip_whose_step_starts_between_keyframes_is_encoded_once(tmp_path):
    source = write_video(tmp_path / "one-keyframe.mp4", seconds=3.0, fps=15)  # x264's first keyframe only
    clip = cut_clip(source, 1.0, 2.2, tmp_path / "clip.mp4", 15)
    assert not clip.copied and clip.seconds == pytest.approx(1.2)
    assert stream_seconds(clip.path, "video") == pytest.approx(1.2, abs=1e-6)
    cut, whole = decoded(clip.path), decoded(source)
    assert len(cut) == 18
    for at in (0.0, 0.5, 1.1):  # the bar at the same place (a re-encode: within a few levels)
        assert np.abs(on_screen(cut, at).astype(int) - on_screen(whole, 1.0 + at)).mean() < 3


@pytest.mark.parametrize("lang", ["en", "zh", "ru"])
def test_the_handout_has_a_chapter_per_scene_and_every_steps_text(out, lang):
    ids = ("layernorm-2d",) if lang != "en" else IDS
    result = normgeo("slides", *ids, "--format", "pdf", "--lang", lang, "--out", out)
    assert result.exit_code == 0, result.output
    (path,) = (out / "slides").glob(f"slides.{lang}.dark.*.pdf")
    reader = pypdf.PdfReader(path)
    assert [item.title for item in reader.outline] == [f"{n}. {entry(i).title(lang)}" for n, i in enumerate(ids, 1)]
    text = re.sub(r"\s+", "", "".join(page.extract_text() for page in reader.pages))
    assert re.sub(r"\s+", "", deck_words(lang)["contents"]) in text
    name = {"en": NARRATED, "zh": "layernorm-2d/layernorm-2d.zh.dark.192x108p15.mp4",
            "ru": "layernorm-2d/layernorm-2d.ru.dark.192x108p15.mp4"}[lang]
    for step in steps_of(out, name):
        assert re.sub(r"\s+", "", step["text"]) in text
    images = sum(len(page.images) for page in reader.pages)
    assert images == sum(len(steps_of(out, n)) for n in ((NARRATED, SILENT) if lang == "en" else (name,)))


def test_the_html_deck_is_one_file_that_plays_the_narrated_steps(out, open_page, tmp_path):
    result = normgeo("slides", *IDS, "--format", "html", "--out", out)
    assert result.exit_code == 0, result.output
    (built,) = (out / "slides").glob("*.html")
    alone = tmp_path / "deck.html"  # nothing beside it
    shutil.copyfile(built, alone)
    page = open_page(alone)  # fails on any request that is not file:, data: or blob:
    assert not re.search(r'(?:src|href)="(?!data:|#)[^"]+', alone.read_text(encoding="utf-8"))
    assert page.evaluate("document.getElementById('presenter').dataset.total") == "14"
    page.keyboard.press("Space")
    page.wait_for_function("() => document.getElementById('present-video').currentTime > 0.5", timeout=30000)
    size = page.evaluate("""async () => {
        const video = document.getElementById('present-video');
        return (await (await fetch(video.currentSrc)).arrayBuffer()).byteLength; }""")
    assert size == (out / NARRATED).stat().st_size
    assert page.evaluate("document.getElementById('presenter').dataset.scene") == "layernorm-2d"


def test_a_missing_render_is_one_line_naming_the_command_and_writes_nothing(out):
    before = sorted(p.name for p in (out / "slides").iterdir()) if (out / "slides").exists() else []
    result = normgeo("slides", "layernorm-2d", "conditioning", "--lang", "ru", "--out", out)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert "conditioning (ru, dark)" in result.output and "layernorm-2d" not in result.output.split(";")[0]
    assert f"`normgeo render conditioning --lang ru --theme dark --out {out}`" in result.output
    after = sorted(p.name for p in (out / "slides").iterdir()) if (out / "slides").exists() else []
    assert after == before


def test_a_build_that_fails_keeps_the_earlier_deck_and_leaves_nothing_behind(out, tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(out, folder, ignore=shutil.ignore_patterns("slides", "speech"))
    assert normgeo("slides", "radial-projection", "--format", "pptx", "--out", folder).exit_code == 0
    (deck,) = (folder / "slides").glob("*.pptx")
    earlier = deck.read_bytes()
    (folder / SILENT).write_bytes(b"not a video" * 100)
    result = normgeo("slides", "radial-projection", "--format", "pptx", "--out", folder)
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "cannot be read" in result.output and "--force" in result.output
    assert deck.read_bytes() == earlier
    assert [p.name for p in (folder / "slides").iterdir()] == [deck.name]


def test_a_voice_asked_for_chooses_the_videos(out):
    result = normgeo("slides", "layernorm-2d", "--voice", "none", "--format", "html", "--out", out)
    assert result.exit_code == 0, result.output
    path = Path(re.search(r"html: (\S+)", result.output).group(1))
    inside = json.loads(re.search(r"window\.NORMGEO_MEDIA = (\{.*?\});</script>", path.read_text()).group(1))
    silent = (out / "layernorm-2d/layernorm-2d.en.dark.192x108p15.mp4").read_bytes()
    videos = [uri for uri in inside.values() if uri.startswith("data:video/")]  # (and the video's poster)
    assert [base64.b64decode(uri.split(",", 1)[1]) for uri in videos] == [silent]
    assert "note:" not in result.output  # one scene, silent: nothing mixed


def test_a_deck_mixing_narrated_and_silent_scenes_says_so(out):
    """layernorm-2d is narrated, radial-projection silent: the deck plays both as --voice any asks,
    and says so, with the two ways to make it one thing; a handout (no sound) says nothing."""
    result = normgeo("slides", *IDS, "--format", "html", "--out", out)
    assert result.exit_code == 0, result.output
    notes = [line for line in result.output.splitlines() if line.startswith("note:")]
    assert notes == [f"note: this deck mixes narrated and silent scenes (narrated with --voice en: layernorm-2d; "
                     f"silent: radial-projection): `--voice none` makes it silent and `normgeo render "
                     f"radial-projection --lang en --theme dark --voice en --out {out}` narrates the rest"]
    assert "note:" not in normgeo("slides", *IDS, "--format", "pdf", "--out", out).output
