"""Text on a web animation is legible at the width it is shown, read from the GIF's own pixels.

A row of capitals at each of several font sizes is drawn by a web animation's camera and encoded as
a real GIF 480 px wide; in the decoded frame every row that is drawn has capitals at least
``MIN_CAP_PX`` pixels tall (measured: the rows of pixels the row's ink spans), and every row whose
capitals would be lower is not drawn at all. The cap-height constant the rule rests on is measured
from pixels too, and a real scene's GIF says what it left out and keeps everything at a width
where all of it is legible."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from manim import DOWN, LEFT, Scene, Typst, VGroup, tempconfig
from manim.scene.scene_file_writer import SceneFileWriter
from PIL import Image

from scenes.cli.main import cli
from scenes.kit.base import SMALL_SIZE
from scenes.kit.frame_layout import LONG_SIDE
from scenes.kit.legibility import CAP_HEIGHT_PER_POINT, MIN_CAP_PX, cap_height_px
from scenes.render.manim_door.cameras import PathCachingCamera, camera_for_animation
from scenes.render.manim_door.renderer import PipelineRenderer
from scenes.render.media.gif import encode_gif

SIZES = (20, 26, 29, 31, 36, 44)  # at 480 px shown: caps of 4.6, 5.9, 6.6, 7.1, 8.2, 10.0 px
SHOWN = 480


class Rows(Scene):
    """Rows of capitals, one font size each, down the left of a black frame."""

    def construct(self):
        rows = VGroup(*(Typst("HHHH", font_size=size) for size in SIZES)).arrange(DOWN, buff=0.45)
        self.add(rows.to_edge(LEFT))


def drawn_frame(tmp_path, camera_class, pixels=(854, 480), scene_class=Rows) -> np.ndarray:
    """The last frame of ``scene_class`` drawn by ``camera_class`` (RGB, the render's own size)."""
    options = {"media_dir": str(tmp_path), "pixel_width": pixels[0], "pixel_height": pixels[1], "write_to_movie": False,
               "disable_caching": True, "progress_bar": "none", "verbosity": "ERROR"}
    with tempconfig(options):
        scene = scene_class(renderer=PipelineRenderer(camera_class=camera_class, file_writer_class=SceneFileWriter))
        scene.render()
        scene.renderer.update_frame(scene)
        return np.array(scene.renderer.get_frame())[..., :3].copy()


def ink_bands(frame: np.ndarray, threshold: int = 80) -> list[tuple[int, int]]:
    """(first, last) pixel row of each horizontal band holding ink (pixels brighter than ``threshold``)."""
    rows = np.flatnonzero(frame.max(axis=2).max(axis=1) > threshold)
    bands, start = [], None
    for index, row in enumerate(rows):
        if start is None:
            start = row
        if index == len(rows) - 1 or rows[index + 1] != row + 1:
            bands.append((int(start), int(row)))
            start = None
    return bands


def gif_frame(tmp_path, frame: np.ndarray, width: int) -> np.ndarray:
    target = tmp_path / "rows.gif"
    encode_gif([(frame, 1.0)], target, width)
    with Image.open(target) as image:
        return np.array(image.convert("RGB"))


def test_every_text_drawn_in_a_480_px_gif_has_capitals_at_least_the_least_height(tmp_path):
    frame = drawn_frame(tmp_path, camera_for_animation(PathCachingCamera, SHOWN, "en"))
    shown = gif_frame(tmp_path, frame, SHOWN)
    assert shown.shape[1] == SHOWN
    heights = [last - first + 1 for first, last in ink_bands(shown)]
    expected = [size for size in SIZES if size * CAP_HEIGHT_PER_POINT * SHOWN / LONG_SIDE >= MIN_CAP_PX["en"]]
    assert expected == [31, 36, 44]  # the rule, worked by hand in the module's table above
    assert len(heights) == len(expected), f"{len(heights)} rows drawn, {len(expected)} legible: {heights}"
    assert min(heights) >= MIN_CAP_PX["en"], f"capitals {heights} px tall in the GIF"


def test_the_same_rows_are_all_drawn_where_the_gif_is_wide_enough_and_in_a_video(tmp_path):
    wide = gif_frame(tmp_path, drawn_frame(tmp_path, camera_for_animation(PathCachingCamera, 1280, "en"), (1280, 720)), 1280)
    assert len(ink_bands(wide)) == len(SIZES)
    video = drawn_frame(tmp_path, PathCachingCamera)  # a video's (and a still's) camera keeps every text
    assert len(ink_bands(video)) == len(SIZES)


def test_the_cap_height_per_point_is_what_the_font_draws(tmp_path):
    """One row of capitals at 100 points in a 1920-px frame, measured in pixels (±1 px of antialiasing)."""

    class Big(Scene):
        def construct(self):
            self.add(Typst("HHHH", font_size=100))

    bands = ink_bands(drawn_frame(tmp_path, PathCachingCamera, (1920, 1080), Big), threshold=128)
    assert len(bands) == 1
    measured = bands[0][1] - bands[0][0] + 1
    assert abs(measured - cap_height_px(100, 1920, LONG_SIDE)) <= 1.0, measured


def test_a_chinese_text_needs_taller_capitals():
    assert MIN_CAP_PX["zh"] > MIN_CAP_PX["en"] == MIN_CAP_PX["ru"]


@pytest.mark.render
def test_a_scenes_small_gif_says_what_it_left_out_and_a_wide_one_keeps_everything(tmp_path):
    """radial-projection's smallest texts are its labels at SMALL_SIZE: at 480 px they are left out and
    named; the width the summary offers is the least at which a capital of that size reaches 7 px, and
    there nothing is left out."""
    runner = CliRunner()
    small = runner.invoke(cli, ["gif", "radial-projection", "--width", "480", "--out", str(tmp_path)])
    assert small.exit_code == 0, small.output
    keeps = math.ceil(MIN_CAP_PX["en"] / (SMALL_SIZE * CAP_HEIGHT_PER_POINT / LONG_SIDE))
    assert f"too small to read at this width left out (--width {keeps} keeps every text)" in small.output
    manifest = json.loads((tmp_path / "manifest.json").read_text())["artifacts"]
    record = manifest["radial-projection/radial-projection.en.dark.480px.gif"]["gif"]
    assert sorted(record["text_left_out"]) == sorted([
        "the direction is kept, only the length changes", "zero-mean hyperplane $sum_i v_i = 0$",
        "sphere $norm(v)_2 = 1$"])
    wide = runner.invoke(cli, ["gif", "radial-projection", "--width", str(keeps), "--out", str(tmp_path)])
    assert wide.exit_code == 0, wide.output
    assert "left out" not in wide.output
    manifest = json.loads((tmp_path / "manifest.json").read_text())["artifacts"]
    assert manifest[f"radial-projection/radial-projection.en.dark.{keeps}px.gif"]["gif"]["text_left_out"] == []
