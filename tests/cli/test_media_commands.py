"""Real renders of every format at a tiny size, the blog GIF, the lecture with chapters, the
gallery in headless Chromium, and a batch in which one scene fails."""

import json

import av
import pytest
import srt

from scenes.render.running import produce as rendering

TINY = ("--resolution", "192x108")


@pytest.mark.render
@pytest.mark.parametrize("fmt", ["mp4", "webm", "mov", "png"])
def test_every_format_renders(run, tmp_path, fmt):
    """One short scene per format; videos have subtitles beside them (SRT and WebVTT)."""
    result = run("render", "scale-invariance", "--format", fmt, *TINY, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    produced = tmp_path / "scale-invariance" / f"scale-invariance.en.dark.192x108p15.{fmt}"
    assert produced.stat().st_size > 1000
    if fmt != "png":
        with av.open(str(produced)) as container:
            stream = container.streams.video[0]
            assert (stream.width, stream.height) == (192, 108)
        assert produced.with_suffix(".vtt").read_text(encoding="utf-8").startswith("WEBVTT")


@pytest.mark.render
def test_transparent_webm_has_an_alpha_channel(run, tmp_path):
    """--transparent with webm encodes VP9 with alpha (yuva420p)."""
    result = run("render", "scale-invariance", "--format", "webm", "--transparent", *TINY, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    video = tmp_path / "scale-invariance" / "scale-invariance.en.dark.192x108p15.alpha.webm"
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        assert "alpha" in str(stream.metadata).lower() or "yuva" in (stream.codec_context.pix_fmt or "")


@pytest.mark.render
def test_gif_reports_size_and_ssim_and_respects_a_budget(run, tmp_path):
    """The GIF read back has the asked width and lasts as long as the scene; its size and SSIM
    (by a named method) are printed and recorded; a budget it can meet is met."""
    import av

    result = run("gif", "scale-invariance", "--width", 160, "--fps", 5, *TINY, "--max-size", "150k", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    gif = tmp_path / "scale-invariance" / "scale-invariance.en.dark.160px.from192x108.5fps.max150kB.gif"
    assert 0 < gif.stat().st_size <= 150_000
    record = json.loads((tmp_path / "manifest.json").read_text())["artifacts"][gif.relative_to(tmp_path).as_posix()]
    details = record["gif"]
    assert details["fits_budget"] and 0.9 < details["ssim"] <= 1.0 and details["ssim_method"].startswith("SSIM (FFmpeg")
    with av.open(str(gif)) as container:
        stream = container.streams.video[0]
        assert (stream.codec_context.width, stream.codec_context.height) == (160, 90) == (details["width"], details["height"])
        shown = sum(float(frame.duration * frame.time_base) for frame in container.decode(stream))
    assert shown == pytest.approx(record["duration_s"], abs=0.05)
    assert "SSIM" in result.output and "160×90" in result.output
    with av.open(str(gif)) as container:  # the first frame is the finished picture, never a blank one
        first = next(container.decode(video=0)).to_ndarray(format="rgb24")
    assert first.reshape(-1, 3).std(axis=0).max() > 10


@pytest.mark.render
def test_a_budget_no_gif_can_meet_is_refused_and_leaves_nothing(run, tmp_path):
    """--max-size below the smallest GIF the frames make: the render fails (exit 1) with the smallest
    size in the summary, before any search, and writes no file, trial or scratch litter."""
    result = run("gif", "scale-invariance", "--width", 160, "--fps", 5, *TINY, "--max-size", "2k", "--out", tmp_path)
    assert result.exit_code == 1
    assert "cannot be met" in result.output and "the smallest GIF" in result.output and "1 failed" in result.output
    assert "BudgetNotMet" not in result.output and "Error:" not in result.output
    assert not list(tmp_path.rglob("*.gif")) and not [p for p in tmp_path.rglob("*") if p.name.startswith(".")]


def test_a_budget_no_gif_of_that_size_can_meet_is_refused_before_rendering(run, tmp_path, monkeypatch):
    """--max-size below what any GIF of the asked size takes (measured from the shell: 7.1 s on
    two cores at load 11, most of it importing Manim; about 30 s before, when the frames were
    rendered first): one line, exit 2, no frame rendered
    and no file or folder made."""

    def no_render(*args, **kwargs):
        raise AssertionError("a frame was rendered for a budget no GIF can meet")

    monkeypatch.setattr(rendering, "_render_with_manim", no_render)
    out = tmp_path / "out"
    result = run("gif", "scale-invariance", "--max-size", "500", "--out", out)
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        "normgeo: error: --max-size 500 bytes cannot be met: any GIF of 640×360 pixels takes at least 762 bytes "
        "(give a larger --max-size or a smaller --width)"]
    assert not out.exists()


@pytest.mark.render
@pytest.mark.parametrize(("args", "name"), [
    (("--format", "webp"), "160px.from192x108.5fps.webp"),
    (("--format", "webp", "--lossless"), "160px.from192x108.5fps.lossless.webp"),
    (("--format", "mp4"), "160px.from192x108.5fps.loop.mp4")])
def test_webp_and_looping_mp4_are_the_other_web_animations(run, tmp_path, args, name):
    result = run("gif", "scale-invariance", "--width", 160, "--fps", 5, *TINY, *args, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    produced = tmp_path / "scale-invariance" / f"scale-invariance.en.dark.{name}"
    assert produced.stat().st_size > 1000
    record = json.loads((tmp_path / "manifest.json").read_text())["artifacts"][produced.relative_to(tmp_path).as_posix()]
    assert 0.9 < record["gif"]["ssim"] <= 1.0


def test_bad_gif_budget(run, tmp_path):
    result = run("gif", "scale-invariance", "--max-size", "lots", "--out", tmp_path)
    assert result.exit_code == 2 and "--max-size" in result.output


def test_bad_resolution(run, tmp_path):
    result = run("render", "scale-invariance", "--resolution", "191x108", "--out", tmp_path)
    assert result.exit_code == 2 and "even number" in result.output


@pytest.mark.render
def test_lecture_joins_scenes_with_chapters_and_subtitles(run, tmp_path):
    """Two scenes (`--scenes`, in the order given) → one MP4 with two chapters named by the scene
    titles, and joined .srt/.vtt."""
    result = run("lecture", "--scenes", "scale-invariance,layernorm-2d", "--out", tmp_path, "--jobs", 1)
    assert result.exit_code == 0, result.output
    [video] = (tmp_path / "lecture").glob("lecture.en.dark.????????.480p15.mp4")  # a selection's name has a tag
    with av.open(str(video)) as container:
        chapters = container.chapters()
        duration = container.duration / av.time_base
    assert [c["metadata"]["title"] for c in chapters] == ["Only the direction of the weights matters",
                                                          "LayerNorm in 2-D: only two points left"]
    parts = [json.loads((tmp_path / "manifest.json").read_text())["artifacts"][f"{i}/{i}.en.dark.480p15.mp4"]["duration_s"]
             for i in ("scale-invariance", "layernorm-2d")]
    assert duration == pytest.approx(sum(parts), abs=0.5)
    srt_text = video.with_suffix(".srt").read_text(encoding="utf-8")
    assert "LayerNorm" in srt_text and video.with_suffix(".vtt").read_text().startswith("WEBVTT")
    cues = list(srt.parse(srt_text))
    for before, after in zip(cues, cues[1:]):
        assert before.end <= after.start, (before, after)  # never two cues on screen at once
    assert all(cue.content.count("\n") <= 1 for cue in cues)


@pytest.mark.render
def test_one_failing_scene_does_not_stop_the_others(run, tmp_path, monkeypatch):
    """With --jobs 2 a crash in one scene is reported; the other is made; the exit status is 1."""
    real = rendering._render_with_manim

    def sometimes(job, scratch, verbose):
        if job.scene_id == "layernorm-2d":
            raise RuntimeError("boom")
        return real(job, scratch, verbose)

    monkeypatch.setattr(rendering, "_render_with_manim", sometimes)
    result = run("still", "layernorm-2d", "sphere-radii", *TINY, "--jobs", 2, "--out", tmp_path)
    assert result.exit_code == 1
    assert "1 made, 0 cached, 1 failed" in result.output and "boom" in result.output
    assert (tmp_path / "sphere-radii" / "sphere-radii.en.dark.192x108p15.png").is_file()


@pytest.mark.render
def test_quiet_prints_nothing_and_render_format_gif_uses_the_gif_pipeline(run, tmp_path):
    """--quiet: no output on success; `render --format gif` makes the same kind of GIF as `normgeo gif`."""
    result = run("render", "scale-invariance", "--format", "gif", *TINY, "--quiet", "--out", tmp_path)
    assert result.exit_code == 0 and result.output.strip() == ""
    gif = tmp_path / "scale-invariance" / "scale-invariance.en.dark.192px.from192x108.gif"
    record = json.loads((tmp_path / "manifest.json").read_text())["artifacts"][gif.relative_to(tmp_path).as_posix()]
    assert record["gif"]["ssim"] >= 0.98


def test_a_gif_wider_than_the_asked_resolution_is_refused_in_one_line(run, tmp_path):
    result = run("gif", "scale-invariance", "--width", 300, "--resolution", "192x108", "--out", tmp_path)
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert "--width 300 is wider than the frames" in result.output and not list(tmp_path.rglob("*.gif"))


@pytest.mark.render
def test_a_gif_wider_than_480p_is_rendered_from_frames_that_wide(run, tmp_path):
    """--width 1001 (wider than the default 854×480 frames): the GIF is 1001 pixels wide, not 854."""
    from PIL import Image

    result = run("gif", "scale-invariance", "--width", 1001, "--fps", 2, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    (gif,) = tmp_path.rglob("*.gif")
    assert gif.name.endswith(".1001px.2fps.gif") and Image.open(gif).size[0] == 1001


def animation_name(width=640, fps=15, loop=0, max_size=None, fmt="gif", lossless=False, quality="l", resolution=None):
    """The file `normgeo gif` writes with these settings (as its command builds the job)."""
    from pathlib import Path

    from scenes.render.running.job import RenderJob
    from scenes.render.settings import GifOptions, RenderSettings, frames_for_width
    from scenes.render.specs import spec_class

    settings = RenderSettings(quality, fmt, False, frames_for_width(width, quality, resolution))
    job = RenderJob("scale-invariance", spec_class("scale-invariance")(), settings, Path("renders"),
                    gif=GifOptions(width, fps, loop, max_size, fmt, lossless))
    return job.relative_path.split("/")[-1]


def test_every_setting_that_changes_an_animations_bytes_is_in_its_name():
    """Two runs with different settings never write one file (so one never replaces the other);
    the defaults keep their short names, on which the site and the README rely."""
    assert animation_name() == "scale-invariance.en.dark.640px.gif"
    assert animation_name(fmt="webp") == "scale-invariance.en.dark.640px.webp"
    assert animation_name(fmt="mp4") == "scale-invariance.en.dark.640px.loop.mp4"
    assert animation_name(width=1001) == "scale-invariance.en.dark.1001px.gif"  # 1280×720 frames: what -q l makes
    runs = [{}, {"fps": 30}, {"fps": 5}, {"loop": 1}, {"max_size": 2_000_000}, {"max_size": 500_000},
            {"quality": "h"}, {"resolution": (1080, 1080)}, {"resolution": (960, 540)}, {"width": 320},
            {"fmt": "webp"}, {"fmt": "webp", "lossless": True}, {"fmt": "webp", "fps": 30},
            {"fmt": "webp", "loop": 2}, {"fmt": "mp4"}, {"fmt": "mp4", "fps": 30}]
    names = [animation_name(**settings) for settings in runs]
    assert len(set(names)) == len(names), names


def test_a_loop_count_for_a_looping_mp4_is_refused(run, tmp_path):
    result = run("gif", "scale-invariance", "--format", "mp4", "--loop", 3, "--out", tmp_path)
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert "--loop goes with --format gif or webp" in result.output
