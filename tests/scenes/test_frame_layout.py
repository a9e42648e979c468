"""The frame's size for a resolution and the layout's regions: 16:9 is Manim's own frame and the
16:9 layout the one every scene had; a square or tall frame stacks; a render's options carry the size."""

from pathlib import Path

import numpy as np
import pytest
from manim import Square

from scenes.kit.base import COLUMN_WIDTH, PLANE_CENTER, PLANE_HEIGHT
from scenes.kit.frame_layout import Layout, frame_size, keep_clear, overlaps
from scenes.render.manim_door.run import manim_options
from scenes.render.settings import RenderSettings


@pytest.mark.parametrize("pixels", [(1920, 1080), (854, 480), (1280, 720), (3840, 2160)])
def test_wide_frames_are_manims_own(pixels):
    """Manim's default frame is 8 units tall and as wide as the pixels' aspect makes it."""
    width, height = frame_size(*pixels)
    assert height == 8.0 and width == pytest.approx(8.0 * pixels[0] / pixels[1], rel=1e-12)


@pytest.mark.parametrize("pixels", [(1080, 1080), (1080, 1920), (1080, 1350), (600, 1800)])
def test_square_and_tall_frames_keep_the_long_side_and_the_aspect(pixels):
    width, height = frame_size(*pixels)
    assert max(width, height) == pytest.approx(8.0 * 16 / 9, rel=1e-12)
    assert width / height == pytest.approx(pixels[0] / pixels[1], rel=1e-12)


def test_the_16_9_layout_is_the_one_the_scenes_had():
    layout = Layout.for_frame(*frame_size(1920, 1080))
    assert not layout.stacked
    assert layout.figure_center == pytest.approx(PLANE_CENTER) and layout.figure_height == PLANE_HEIGHT
    assert layout.column_width == pytest.approx(COLUMN_WIDTH)
    assert layout.view_center == (0.0, 0.0, 0.0) and layout.view_scale == 1.0


@pytest.mark.parametrize("pixels", [(1080, 1080), (1080, 1920)])
def test_square_and_tall_layouts_put_the_column_under_the_figure_inside_the_frame(pixels):
    layout = Layout.for_frame(*frame_size(*pixels))
    assert layout.stacked
    x, y, _ = layout.figure_center
    half = layout.figure_height / 2
    assert -layout.width / 2 < x - half and x + half < layout.width / 2 and y + half < layout.height / 2
    figure, column = Square(layout.figure_height).move_to(layout.figure_center), Square(1.0)
    layout.start_column(column, figure)
    assert column.get_top()[1] < figure.get_bottom()[1] and column.get_left()[0] == pytest.approx(layout.column_left)
    assert layout.column_left + layout.column_width <= layout.width / 2


def test_a_resolution_sets_the_frame_of_the_render(tmp_path: Path):
    options = manim_options("radial-projection", RenderSettings("l", "png", False, (1080, 1920)), tmp_path, video=False)
    assert (options["pixel_width"], options["pixel_height"]) == (1080, 1920)
    assert options["frame_width"] / options["frame_height"] == pytest.approx(1080 / 1920)
    assert "frame_width" not in manim_options("radial-projection", RenderSettings("l", "png"), tmp_path, video=False)


def test_keep_clear_moves_a_label_past_the_one_it_covers():
    label, other = Square(0.4), Square(0.4).shift(np.array([0.1, 0.1, 0.0]))
    assert overlaps(label, other)
    keep_clear(label, other)
    assert not overlaps(label, other, margin=0.0) and label.get_x() == pytest.approx(0.0)
