"""GIF, WebP and loop-video encoders and the SSIM they are measured with: real encodes of small
synthetic frames and of a real scene's frames (the docs GIF), decoded back and checked."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from scenes.render.media.gif import GifStats, encode_gif
from scenes.render.media.gif_budget import FLOOR_QUALITY, fit_gif_to_size, smallest_possible_gif, smallest_reachable_size
from scenes.render.media.loop import CODECS, encode_loop_video
from scenes.render.media.quality import (
    METHODS,
    decoded_frames,
    method_name,
    ssim,
    ssim_of_animation,
    ssim_of_frames,
    timed_frames,
)
from scenes.render.media.webp import encode_webp

REPO = Path(__file__).resolve().parents[2]
DOCS_GIF = REPO / "docs" / "radial-projection.gif"
FPS = 15


# ------------------------------------------------------------------------------------------
# frames


def moving_disc(count: int = 24, width: int = 160, height: int = 90, hold_every: int = 8,
                hold_seconds: float = 0.5):
    """A soft-edged disc crossing a dark background, with a caption-like bar, and every
    ``hold_every``-th frame held for ``hold_seconds`` (a Manim ``wait``). New arrays each time."""
    ys, xs = np.mgrid[0:height, 0:width]
    for index in range(count):
        frame = np.empty((height, width, 3), dtype=np.uint8)
        frame[:] = (17, 20, 26)
        cx, cy = 20 + index * (width - 40) / max(1, count - 1), height / 2
        distance = np.hypot(xs - cx, ys - cy)
        cover = np.clip(12.5 - distance, 0, 1)[..., None]
        frame[:] = (frame * (1 - cover) + np.array([90, 190, 240]) * cover).astype(np.uint8)
        frame[6:10, 8:8 + 4 * index] = (230, 120, 150)
        seconds = hold_seconds if index % hold_every == hold_every - 1 else 1 / FPS
        yield frame, seconds


def source_duration(frames) -> float:
    return sum(seconds for _, seconds in frames)


def real_frames(limit: int = 45):
    """A real scene's frames: the first ``limit`` frames of the docs GIF, as shown."""
    assert DOCS_GIF.is_file(), f"{DOCS_GIF} is committed with the docs: this checkout is incomplete"
    frames = []
    for frame, seconds in decoded_frames(DOCS_GIF):
        frames.append((frame, seconds))
        if len(frames) == limit:
            break
    return frames


def leftovers(folder: Path, keep: set[str]) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


# ------------------------------------------------------------------------------------------
# SSIM: known answers


def ffmpeg_ssim_reference(a: np.ndarray, b: np.ndarray) -> float:
    """FFmpeg's (x264's) SSIM written out from its definition: on each plane, sums over 4×4
    blocks, 8×8 windows on a 4-pixel grid, constants 0.01²·255²·64 and 0.03²·255²·64·63; the
    planes' mean. An independent check of the filter as reached through PyAV."""
    c1, c2 = 0.01 ** 2 * 255 ** 2 * 64, 0.03 ** 2 * 255 ** 2 * 64 * 63
    height, width = a.shape[:2]
    h4, w4 = height // 4, width // 4
    values = []
    for plane in range(3):
        x = a[: h4 * 4, : w4 * 4, plane].astype(np.float64).reshape(h4, 4, w4, 4)
        y = b[: h4 * 4, : w4 * 4, plane].astype(np.float64).reshape(h4, 4, w4, 4)
        sums = [v.sum(axis=(1, 3)) for v in (x, y, x * x + y * y, x * y)]
        windows = [s[:-1, :-1] + s[1:, :-1] + s[:-1, 1:] + s[1:, 1:] for s in sums]
        s1, s2, ss, s12 = windows
        variance = ss * 64 - s1 * s1 - s2 * s2
        covariance = s12 * 64 - s1 * s2
        value = (2 * s1 * s2 + c1) * (2 * covariance + c2) / ((s1 * s1 + s2 * s2 + c1) * (variance + c2))
        values.append(value.mean())
    return float(np.mean(values))


def test_identical_images_have_ssim_one_by_every_method():
    frame = next(moving_disc())[0]
    for method in METHODS:
        assert ssim(frame, frame.copy(), method) == pytest.approx(1.0, abs=1e-9)


def test_flat_images_have_the_closed_form_ssim():
    # flat 100 against flat 110: only the luminance term, (2·100·110 + C1) / (100² + 110² + C1)
    a = np.full((64, 64, 3), 100, dtype=np.uint8)
    b = np.full((64, 64, 3), 110, dtype=np.uint8)
    c1 = (0.01 * 255) ** 2
    expected = (2 * 100 * 110 + c1) / (100 ** 2 + 110 ** 2 + c1)
    assert expected == pytest.approx(0.99548, abs=1e-5)
    for method in METHODS:
        assert ssim(a, b, method) == pytest.approx(expected, abs=2e-4)


def test_ffmpeg_ssim_matches_its_published_definition_on_a_distorted_pair():
    rng = np.random.default_rng(12)
    a = next(moving_disc(width=96, height=64))[0]
    noise = rng.normal(0, 12, a.shape)
    b = np.clip(a + noise, 0, 255).astype(np.uint8)
    value = ssim(a, b, "ffmpeg")
    assert value == pytest.approx(ffmpeg_ssim_reference(a, b), abs=2e-4)
    assert 0.3 < value < 0.95


def test_skimage_method_is_scikit_images_own_value():
    from skimage.metrics import structural_similarity

    rng = np.random.default_rng(3)
    a = next(moving_disc(width=96, height=64))[0]
    b = np.clip(a + rng.normal(0, 8, a.shape), 0, 255).astype(np.uint8)
    assert ssim(a, b, "skimage") == structural_similarity(a, b, channel_axis=2, data_range=255)


def test_the_method_is_named_and_an_unknown_one_refused():
    assert "FFmpeg" in method_name("ffmpeg") and "scikit-image" in method_name("skimage")
    with pytest.raises(ValueError, match="valid: ffmpeg, skimage"):
        method_name("box8x8")


def test_animations_are_compared_by_time_not_by_frame_index():
    a, b = np.zeros((16, 16, 3), np.uint8), np.full((16, 16, 3), 255, np.uint8)
    reference = [(a, 0.5), (b, 0.5)]
    # same pictures, split differently: identical on screen at every moment
    assert ssim_of_frames([(a, 0.25), (a, 0.25), (b, 1.0)], reference) == pytest.approx(1.0)
    # the switch comes 0.25 s late: a quarter of the time the wrong picture is shown
    late = ssim_of_frames([(a, 0.75), (b, 0.25)], reference)
    assert late == pytest.approx(0.75 + 0.25 * ssim(a, b), abs=1e-6)


def test_timed_frames_keep_the_total_duration_in_whole_units():
    frames = [(np.zeros((2, 2, 3), np.uint8), 1 / 15)] * 31
    timed = list(timed_frames(frames, 15, 100))
    assert timed[-1][2] == round(31 / 15 * 100)
    delays = [end - start for _, start, end in timed]
    assert sum(delays) == 207 and set(delays) <= {6, 7}


def test_timed_frames_thin_to_the_frame_rate():
    frames = [(np.zeros((2, 2, 3), np.uint8), 1 / 30)] * 30
    kept = [item for item in timed_frames(frames, 15, 100) if item[0] is not None]
    assert len(kept) == 15


# ------------------------------------------------------------------------------------------
# GIF


def decoded_gif(path: Path):
    return list(decoded_frames(path))


def test_gif_lasts_as_long_as_the_source_and_keeps_held_frames(tmp_path):
    frames = list(moving_disc())
    target = tmp_path / "disc.gif"
    stats = encode_gif(iter(frames), target, width=160, fps=FPS, quality=80)
    assert isinstance(stats, GifStats)
    shown = decoded_gif(target)
    assert stats.duration_s == pytest.approx(source_duration(frames), abs=0.005)
    assert source_duration(shown) == pytest.approx(source_duration(frames), abs=0.005)
    # the three holds (0.5 s each) are single frames of 50 cs
    assert sum(1 for _, seconds in shown if seconds == pytest.approx(0.5)) == 3
    assert stats.frames == len(shown) <= len(frames)
    assert (stats.width, stats.height) == (160, 90) == Image.open(target).size
    assert stats.size_bytes == target.stat().st_size
    assert ssim_of_animation(target, frames) > 0.99
    assert leftovers(tmp_path, {"disc.gif"}) == []


def test_gif_is_scaled_to_the_width_asked(tmp_path):
    frames = moving_disc(count=6, width=200, height=100)
    stats = encode_gif(frames, tmp_path / "x.gif", width=120, fps=FPS)
    assert (stats.width, stats.height) == (120, 60)
    # never wider than the frames
    stats = encode_gif(moving_disc(count=4), tmp_path / "y.gif", width=4000, fps=FPS)
    assert stats.width == 160


def test_gif_merges_identical_frames_into_one_longer_delay(tmp_path):
    frame = next(moving_disc())[0]
    other = frame.copy()
    other[40:50, 40:50] = 255
    frames = [(frame, 1 / 15)] * 10 + [(other, 1 / 15)] * 5
    target = tmp_path / "held.gif"
    stats = encode_gif(frames, target, width=160, fps=FPS)
    shown = decoded_gif(target)
    assert stats.frames == len(shown) == 2
    assert [round(seconds, 2) for _, seconds in shown] == [0.67, 0.33]


def test_lower_quality_is_smaller(tmp_path):
    frames = real_frames()
    high = encode_gif(frames, tmp_path / "high.gif", width=320, fps=FPS, quality=95)
    low = encode_gif(frames, tmp_path / "low.gif", width=320, fps=FPS, quality=40)
    assert low.size_bytes < high.size_bytes
    assert ssim_of_animation(tmp_path / "high.gif", frames) > ssim_of_animation(tmp_path / "low.gif", frames) > 0.95


def colours_shown(path: Path) -> int:
    return len(np.unique(np.concatenate([frame.reshape(-1, 3) for frame, _ in decoded_frames(path)]), axis=0))


def test_the_palette_grows_only_for_frames_that_need_more_colours(tmp_path):
    """Quality 70 starts from 64 colours. Stripes of 150 random colours, scrolling, fall short of
    its SSIM floor on 64, so the palette doubles (more colours reach the file); the moving disc,
    a few colours and their anti-aliasing, keeps its 64 at most."""
    rng = np.random.default_rng(7)
    colours = rng.integers(0, 256, size=(150, 3), dtype=np.uint8)
    stripes = [(np.repeat(np.roll(colours, shift, axis=0), 2, axis=0)[:, None, :].repeat(120, axis=1), 1 / FPS)
               for shift in range(6)]
    many = encode_gif(stripes, tmp_path / "many.gif", width=120, fps=FPS, quality=70)
    few = encode_gif(moving_disc(), tmp_path / "few.gif", width=160, fps=FPS, quality=70)
    assert colours_shown(many.path) > 64
    assert colours_shown(few.path) <= 64


def test_real_frames_encode_sharp(tmp_path):
    frames = real_frames()
    target = tmp_path / "real.gif"  # at the docs GIF's own width (720 since 220ba78), so nothing is resampled
    stats = encode_gif(iter(frames), target, width=frames[0][0].shape[1], fps=FPS, quality=80)
    assert stats.width == frames[0][0].shape[1]
    assert stats.duration_s == pytest.approx(source_duration(frames), abs=0.005)
    assert ssim_of_animation(target, frames) > 0.99


ENCODE = {"old.gif": lambda frames, target: encode_gif(frames, target, width=160, fps=FPS),
          "old.webp": lambda frames, target: encode_webp(frames, target, width=160, fps=FPS),
          "old.mp4": lambda frames, target: encode_loop_video(frames, target, width=160, fps=FPS)}


@pytest.mark.parametrize("name", sorted(ENCODE))
def test_a_failing_frame_source_leaves_nothing_behind(tmp_path, name):
    """Every encoder writes through scenes.render.files.atomic_target: frames that stop with an
    error, or change size midway, leave the earlier file as it was and no hidden file."""
    encode = ENCODE[name]
    old = tmp_path / name
    encode(moving_disc(count=4), old)
    before = old.read_bytes()

    def broken():
        yield from moving_disc(count=5)
        raise RuntimeError("renderer died")

    with pytest.raises(RuntimeError, match="renderer died"):
        encode(broken(), old)

    def resized():
        yield from moving_disc(count=3)
        yield from moving_disc(count=2, width=200, height=100)

    with pytest.raises(ValueError, match="one size"):
        encode(resized(), old)
    assert old.read_bytes() == before
    assert leftovers(tmp_path, {name}) == []


def test_memory_stays_bounded_when_frames_come_from_a_generator(tmp_path):
    count, width, height = 160, 640, 360  # 160 frames of 640x360 RGB: 110 MB if all were held

    def frames():
        ys, xs = np.mgrid[0:height, 0:width]
        for index in range(count):
            frame = np.full((height, width, 3), 20, dtype=np.uint8)
            frame[((xs - 4 * index) ** 2 + (ys - 180) ** 2) < 900] = (200, 120, 60)
            frame[300:310, : 4 * index % width] = (90, 190, 240)
            yield frame, 1 / FPS

    tracemalloc.start()
    try:
        stats = encode_gif(frames(), tmp_path / "long.gif", width=width, fps=FPS)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert stats.frames == count
    assert peak < 40 * 2 ** 20, f"peak {peak / 2 ** 20:.0f} MB"


def test_a_budget_below_the_floor_is_known_before_searching(tmp_path):
    frames = real_frames(30)
    estimate = smallest_reachable_size(iter(frames), width=320, fps=FPS)
    assert not estimate.reachable(estimate.smallest_bytes // 2)
    search = fit_gif_to_size(lambda: iter(frames), tmp_path / "fit.gif", width=320,
                             max_size=estimate.smallest_bytes // 2, estimate=estimate)
    assert not search.met
    assert search.smallest_bytes == search.result.size_bytes == estimate.smallest_bytes
    assert len(search.tried) == 1


@pytest.mark.parametrize(("width", "height"), [(64, 36), (160, 90), (640, 360), (1280, 720), (1080, 1920)])
def test_no_gif_of_a_size_is_smaller_than_its_bound_and_the_bound_is_tight(tmp_path, width, height):
    """The bound a budget is refused by before rendering: a one-colour animation (the most
    compressible there is) at the lowest quality, and Pillow's own GIF of one such frame (another
    LZW encoder), are never below it, and ours is within 40 bytes above it (the extensions)."""
    bound = smallest_possible_gif(width, height)
    flat = [(np.full((height, width, 3), 20, np.uint8), 0.5)] * 3
    ours = encode_gif(iter(flat), tmp_path / "flat.gif", width=width, fps=FPS, quality=FLOOR_QUALITY).size_bytes
    Image.new("P", (width, height), 0).save(tmp_path / "pillow.gif")
    assert bound <= ours <= bound + 40
    assert bound <= (tmp_path / "pillow.gif").stat().st_size


def test_a_reachable_budget_is_met(tmp_path):
    frames = real_frames(30)
    generous = encode_gif(frames, tmp_path / "q90.gif", width=320, fps=FPS, quality=90).size_bytes
    budget = int(generous * 0.85)
    search = fit_gif_to_size(lambda: iter(frames), tmp_path / "fit.gif", width=320, max_size=budget)
    assert search.met and search.result.size_bytes <= budget
    assert (tmp_path / "fit.gif").stat().st_size == search.result.size_bytes
    assert leftovers(tmp_path, {"q90.gif", "fit.gif"}) == []


# ------------------------------------------------------------------------------------------
# WebP and loop video


def test_lossless_webp_is_exact_and_lasts_as_long(tmp_path):
    frames = list(moving_disc())
    target = tmp_path / "disc.160px.lossless.webp"
    stats = encode_webp(iter(frames), target, width=160, fps=FPS, lossless=True)
    assert target.name == "disc.160px.lossless.webp"
    assert stats.size_bytes == target.stat().st_size
    shown = list(decoded_frames(target))
    assert source_duration(shown) == pytest.approx(source_duration(frames), abs=0.002)
    assert all(np.array_equal(a, b) for (a, _), (b, _) in zip(shown, frames))  # every pixel kept
    # by time, only the millisecond rounding of the frame boundaries is left
    assert ssim_of_animation(target, frames) == pytest.approx(1.0, abs=1e-3)
    assert leftovers(tmp_path, {target.name}) == []


def test_lossy_webp_is_smaller_than_lossless(tmp_path):
    frames = real_frames(30)
    lossy = encode_webp(frames, tmp_path / "a.webp", width=320, fps=FPS, quality=70)
    lossless = encode_webp(frames, tmp_path / "b.webp", width=320, fps=FPS, lossless=True)
    assert lossy.size_bytes < lossless.size_bytes
    assert ssim_of_animation(tmp_path / "a.webp", frames) > 0.95


@pytest.mark.parametrize("codec", ["h264", "vp9"])
def test_loop_video_lasts_as_long_and_has_even_dimensions(tmp_path, codec):
    frames = list(moving_disc(width=161, height=91))
    target = tmp_path / f"disc.160px.loop{CODECS[codec][0]}"
    stats = encode_loop_video(iter(frames), target, width=161, fps=FPS, crf=30, codec=codec)
    assert stats.width % 2 == 0 and stats.height % 2 == 0
    assert stats.duration_s == pytest.approx(source_duration(frames), abs=1 / FPS)
    assert source_duration(decoded_frames(target)) == pytest.approx(source_duration(frames), abs=1 / FPS)
    assert leftovers(tmp_path, {target.name}) == []


# ------------------------------------------------------------------------------------------
# the benchmark's command line


def test_the_benchmark_refuses_an_unknown_scene_with_the_valid_ones():
    import subprocess
    import sys

    run = subprocess.run([sys.executable, str(REPO / "bench" / "exports.py"), "--scenes", "radial-projection,nope"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert "unknown scene nope; valid:" in run.stderr and "radial-projection" in run.stderr


def test_no_gif_delay_is_under_two_centiseconds(tmp_path):
    # 60 frames a second, thinned to 50: some frames would last 1 cs, which browsers show as 10 cs
    frames = [(frame, 1 / 60) for frame, _ in moving_disc(count=30, hold_every=1000)]
    target = tmp_path / "fast.gif"
    stats = encode_gif(frames, target, width=160, fps=50)
    shown = decoded_gif(target)
    assert min(seconds for _, seconds in shown) >= 0.02
    assert stats.duration_s == pytest.approx(0.5, abs=0.005)
    assert source_duration(shown) == pytest.approx(0.5, abs=0.005)
