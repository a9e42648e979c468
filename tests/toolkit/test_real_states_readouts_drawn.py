"""The real-states dimension and γ readouts as they are played and drawn (dry run, the shipped
SmolLM2 file): each fades in, over 1 s, as the one animation of its step; each is set at the kit's
small size (narrower than the readout column there, so never shrunk); one at a time, in one place:
each replaces the last.
"""

from __future__ import annotations

import pytest

from scenes.kit.base import SMALL_SIZE
from tests.toolkit.test_real_states_steps import DimensionAndGamma, build


class PlayedDimensionAndGamma(DimensionAndGamma):
    """The same steps, keeping what each ``play`` call was given (a scene method overridden)."""

    def play(self, *animations, **kwargs):
        if not hasattr(self, "played"):
            self.played = []
        self.played.append((animations, kwargs))
        super().play(*animations, **kwargs)


@pytest.fixture
def scene(tmp_path):
    """Built for each test (not once per module, under the first test only, where mutation testing
    would map the scene's steps to that test alone)."""
    return build(PlayedDimensionAndGamma, tmp_path)


def test_each_readout_fades_in_over_one_second_as_the_last_fades_out(scene):
    fades = [(animations, kwargs) for animations, kwargs in scene.played
             if any(type(a).__name__ == "FadeIn" for a in animations)]
    last = fades[-2:]  # after the introduction's own fade-in
    assert [[a.mobject for a in animations if type(a).__name__ == "FadeIn"] for animations, _ in last] == \
        [[scene.dimension_text], [scene.gamma_text]]
    assert [[a.mobject for a in animations if type(a).__name__ == "FadeOut"] for animations, _ in last] == \
        [[], [scene.dimension_text]]
    assert [kwargs.get("run_time") for _, kwargs in last] == [1.0, 1.0]


def test_the_readouts_are_set_at_the_small_size(scene):
    assert scene.dimension_text.width < scene.readout_width and scene.gamma_text.width < scene.readout_width
    assert scene.dimension_text.font_size == pytest.approx(SMALL_SIZE, rel=1e-9)
    assert scene.gamma_text.font_size == pytest.approx(SMALL_SIZE, rel=1e-9)


def test_the_readouts_share_one_place_left_of_the_view(scene):
    assert scene.dimension_text.get_left()[0] == pytest.approx(scene.gamma_text.get_left()[0], abs=1e-9)
    assert scene.dimension_text.get_y() == pytest.approx(1.4, abs=1e-9) == scene.gamma_text.get_y()
    assert scene.gamma_text.get_left()[0] == pytest.approx(scene.about.get_left()[0], abs=1e-9)
