"""Real renders through manim at 480p15: files, subtitles, manifest, cache and atomic writes."""

import json

import pytest

from scenes.render import files as file_writing
from scenes.render.running import produce as rendering



@pytest.mark.render
def test_render_writes_video_subtitles_and_manifest_then_hits_the_cache(run, tmp_path):
    """The MP4 read back from the file has the preset's size and frame rate and the scene's
    duration (from an independent dry-run build); the .srt's cues, in order, are the scene's
    narration; the manifest records it; a second run does no work; another spec is another file."""
    import av
    import srt

    from scenes.radial_projection import RadialProjection, RadialProjectionSpec
    from tests.scenes.helpers import build_scene

    result = run("render", "radial-projection", "--out", tmp_path, "--jobs", 1)
    assert result.exit_code == 0, result.output
    video = tmp_path / "radial-projection" / "radial-projection.en.dark.480p15.mp4"
    scene = build_scene(RadialProjection, RadialProjectionSpec(), tmp_path / "dry")
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        frames = sum(1 for _ in container.decode(stream))
        assert (stream.width, stream.height) == (854, 480)
        assert stream.average_rate == 15
        duration = float(stream.duration * stream.time_base)
    assert duration == pytest.approx(scene.time, abs=0.25)  # frames round each animation's length
    assert frames == pytest.approx(duration * 15, abs=1)
    cues = list(srt.parse(video.with_suffix(".srt").read_text(encoding="utf-8")))
    assert len(cues) == len(scene.renderer.file_writer.subcaptions)
    assert " ".join(" ".join(cue.content.split()) for cue in cues) == " ".join(" ".join(line.split()) for line in scene.narration)
    assert cues[-1].end.total_seconds() <= duration + 0.05
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    record = manifest["artifacts"]["radial-projection/radial-projection.en.dark.480p15.mp4"]
    assert record["size_bytes"] == video.stat().st_size + video.with_suffix(".srt").stat().st_size + \
        video.with_suffix(".vtt").stat().st_size
    assert [step["text"] for step in record["steps"]] == scene.narration
    before = video.stat().st_mtime_ns

    again = run("render", "radial-projection", "--out", tmp_path)
    assert "cached" in again.output and "0 made" in again.output
    assert video.stat().st_mtime_ns == before

    changed = run("render", "radial-projection", "--out", tmp_path, "--set", "radius=2", "--jobs", 1)
    assert "1 made" in changed.output  # a different spec is a different input, in a file of its own
    assert video.stat().st_mtime_ns == before
    assert len(list((tmp_path / "radial-projection").glob("*.mp4"))) == 2


@pytest.mark.render
def test_still_writes_the_final_frame_in_chinese(run, tmp_path):
    """`normgeo still` → a 854×480 PNG; no temporary files are left in the output folder."""
    from PIL import Image

    result = run("still", "layernorm-2d", "--lang", "zh", "--theme", "light", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    png = tmp_path / "layernorm-2d" / "layernorm-2d.zh.light.480p15.png"
    with Image.open(png) as image:
        assert image.size == (854, 480)
        assert image.getpixel((2, 2))[:3] == (255, 255, 255)  # light theme background
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
        assert len(colours) > 50  # not blank: text and geometry are drawn
        dark = sum(count for count, rgb in colours if sum(rgb) < 300)
        assert dark > 2000  # the dark text and lines of the light theme cover thousands of pixels
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(".")]


@pytest.mark.render
def test_failed_or_interrupted_render_keeps_the_previous_file(run, tmp_path, monkeypatch):
    """A render that dies midway leaves the earlier good file and no partial files."""
    assert run("still", "radial-projection", "--out", tmp_path).exit_code == 0
    still = tmp_path / "radial-projection" / "radial-projection.en.dark.480p15.png"
    good = still.read_bytes()

    def crash(job, scratch, verbose):
        (scratch / "half.png").write_bytes(b"\x89PNG half")
        raise RuntimeError("simulated crash in the middle of a render")

    monkeypatch.setattr(rendering, "_render_with_manim", crash)
    failed = run("still", "radial-projection", "--out", tmp_path, "--force")
    assert failed.exit_code == 1 and "simulated crash" in failed.output and "1 failed" in failed.output
    assert still.read_bytes() == good

    def interrupt(job, scratch, verbose):
        (scratch / "half.png").write_bytes(b"\x89PNG half")
        raise KeyboardInterrupt

    monkeypatch.setattr(rendering, "_render_with_manim", interrupt)
    stopped = run("still", "radial-projection", "--out", tmp_path, "--force")
    assert stopped.exit_code == 130
    assert still.read_bytes() == good
    assert sorted(p.name for p in tmp_path.rglob("*")) == sorted(
        ["manifest.json", "radial-projection", "radial-projection.en.dark.480p15.png"]
    )


def test_interrupted_copy_leaves_no_partial_file(tmp_path, monkeypatch):
    """install_file writes under a hidden name and renames: a crash mid-copy leaves nothing."""
    source = tmp_path / "source.mp4"
    source.write_bytes(b"x" * 1000)
    target = tmp_path / "out" / "video.mp4"

    def broken_copy(src, dst):
        open(dst, "wb").write(b"x" * 10)
        raise KeyboardInterrupt

    monkeypatch.setattr(file_writing.shutil, "copyfile", broken_copy)
    with pytest.raises(KeyboardInterrupt):
        file_writing.install_file(source, target)
    assert list((tmp_path / "out").iterdir()) == []
