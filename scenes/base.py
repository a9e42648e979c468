"""The base every normgeo scene builds on: spec, palette, text from the catalog, narration.

A scene class sets ``scene_id`` and ``spec_class`` and implements ``construct``. Built with no
arguments (as plain ``manim render`` does) it uses its spec's defaults; ``Scene(spec=...)``
renders any other spec. Each narrated step is a subtitle (``add_subcaption``) and is also
kept in ``self.narration`` for tests.
"""

from __future__ import annotations

from typing import ClassVar

from manim import UL, Scene, ThreeDScene, config

from scenes.languages import message
from scenes.spec import SceneSpec
from scenes.theme import palette
from scenes.widgets import math_mobject, text_mobject

__all__ = ["PLANE_CENTER", "PLANE_HEIGHT", "COLUMN_WIDTH", "reading_seconds", "fit_width", "NarratedScene", "NormGeoScene", "NormGeoThreeDScene", "TITLE_SIZE", "BODY_SIZE", "SMALL_SIZE"]

# Subtitle reading speed, in characters per second (CJK characters carry more per glyph).
READING_SPEED = {"en": 19.0, "ru": 18.0, "zh": 7.5}

# The 2-D layout: a square plane on the left, a column of text on the right.
PLANE_CENTER = (-3.3, -0.45, 0.0)
PLANE_HEIGHT = 6.6
COLUMN_WIDTH = 6.25

TITLE_SIZE = 40
BODY_SIZE = 28
SMALL_SIZE = 22
EDGE = 0.35


def reading_seconds(line: str, lang: str) -> float:
    """Seconds a viewer needs to read ``line`` as a subtitle (at least one second)."""
    return max(1.0, len(line) / READING_SPEED[lang])


def fit_width(mobject, max_width: float):
    """Shrink ``mobject`` (never enlarge it) so that it is at most ``max_width`` wide."""
    if mobject.width > max_width:
        mobject.scale_to_fit_width(max_width)
    return mobject


class NarratedScene:
    """Mixin holding the spec, the palette and the narration; combine with a Manim scene class."""

    scene_id: ClassVar[str] = ""
    spec_class: ClassVar[type[SceneSpec]] = SceneSpec

    def __init__(self, *args, spec: SceneSpec | None = None, **kwargs):
        self.spec = spec if spec is not None else self.spec_class()
        if not isinstance(self.spec, self.spec_class):
            raise TypeError(f"{type(self).__name__} needs a {self.spec_class.__name__}, got {type(self.spec).__name__}")
        self.narration: list[str] = []
        super().__init__(*args, **kwargs)

    def setup(self) -> None:
        super().setup()
        self.palette = palette(self.spec.theme)
        if not config.transparent:
            self.camera.background_color = self.palette.background

    # ---------------------------------------------------------------- text
    def words(self, key: str, **values) -> str:
        """Catalog text ``key`` in the spec's language."""
        return message(key, self.spec.lang, **values)

    def text(self, key: str, font_size: float = BODY_SIZE, color: str | None = None, **values):
        """Catalog text ``key`` typeset in the spec's language and theme."""
        return text_mobject(self.words(key, **values), self.spec.lang, color or self.palette.text, font_size)

    def formula(self, expression: str, font_size: float = 32, color: str | None = None):
        """Display math (Typst), coloured from the theme."""
        return math_mobject(expression, color or self.palette.text, font_size)

    def make_title(self):
        """The scene's title, top left."""
        title = self.text(f"scene.{self.scene_id}.title", font_size=TITLE_SIZE)
        return title.to_corner(UL, buff=EDGE)

    # ----------------------------------------------------------- narration
    def caption(self, key: str, run_time: float, hold: float, **values) -> float:
        """Add the narration line ``key`` as a subtitle starting now; return the hold (seconds
        to wait after ``run_time``), lengthened so that the line can be read in full."""
        line = self.words(key, **values)
        hold = max(hold, reading_seconds(line, self.spec.lang) - run_time)
        self.narration.append(line)
        self.add_subcaption(line, duration=run_time + hold)
        return hold

    def say(self, key: str, *animations, run_time: float = 1.5, hold: float = 1.0, **values) -> None:
        """Narrate one step: its line becomes a subtitle while ``animations`` play and the hold passes."""
        run_time = run_time if animations else 0.0
        hold = self.caption(key, run_time, hold, **values)
        if animations:
            self.play(*animations, run_time=run_time)
        if hold > 0:
            self.wait(hold)


class NormGeoScene(NarratedScene, Scene):
    """A 2-D normgeo scene."""


class NormGeoThreeDScene(NarratedScene, ThreeDScene):
    """A 3-D normgeo scene; labels go through ``fix_in_frame`` so they stay readable."""

    def fix_in_frame(self, *mobjects):
        self.add_fixed_in_frame_mobjects(*mobjects)
        return mobjects


