"""The layout check the scene tests rely on must be able to fail: overlapping texts and text
outside the frame are caught, a clean layout passes."""

import pytest
from manim import LEFT, RIGHT, UP

from scenes.kit.base import NormGeoScene
from scenes.kit.widgets import text_mobject
from tests.scenes.helpers import assert_layout_is_clean, build_scene


class TwoTexts(NormGeoScene):
    """Two labels placed by ``placement``: side by side, on top of each other, or off the frame."""

    placement = "apart"

    def construct(self) -> None:
        a = text_mobject("first label", "en", "#ffffff", 28)
        b = text_mobject("second label", "en", "#ffffff", 28)
        if self.placement == "apart":
            a.shift(LEFT * 3)
            b.shift(RIGHT * 3)
        elif self.placement == "overlapping":
            b.shift(RIGHT * 0.4 + UP * 0.05)
        elif self.placement == "outside":
            b.shift(RIGHT * 7.5)
        self.add(a, b)




def scene_with(placement, tmp_path):
    cls = type(f"TwoTexts_{placement}", (TwoTexts,), {"placement": placement})
    return build_scene(cls, cls.spec_class(), tmp_path, check_each_step=False)


def test_a_clean_layout_passes(tmp_path):
    assert_layout_is_clean(scene_with("apart", tmp_path))


def test_two_overlapping_texts_fail(tmp_path):
    with pytest.raises(AssertionError, match="overlaps"):
        assert_layout_is_clean(scene_with("overlapping", tmp_path))


def test_text_outside_the_frame_fails(tmp_path):
    with pytest.raises(AssertionError, match="cut off"):
        assert_layout_is_clean(scene_with("outside", tmp_path))
