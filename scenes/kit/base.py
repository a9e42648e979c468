"""The base every normgeo scene builds on: spec, palette, its own text file, numbers, narration.

A scene module ``scenes/<name>.py`` defines one scene class with ``spec_class`` and a ``construct``
that calls one method per narrated step. Its id is derived from the module name (``layernorm_2d``
→ ``layernorm-2d``) and its text is read from ``scenes/<name>.toml`` beside it. Built with no
arguments (as plain ``manim render`` does) it uses its spec's defaults; ``Scene(spec=...)`` renders
any other spec. Each narrated step becomes one or more subtitle cues and is recorded, with its
start and end, in ``self.steps`` (the manifest and the presenter mode use it).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from manim import UL, Scene, ThreeDScene, config

from scenes.kit.claims import Outcome
from scenes.kit.captions import cue_times, reading_seconds, split_into_cues
from scenes.kit.numbers import NumberFormat
from scenes.kit.spec import SceneSpec, scene_id_of_module
from scenes.kit.text import TextFile, fill, message, text_file
from scenes.kit.theme import palette
from scenes.kit.widgets import math_mobject, text_mobject

__all__ = ["PLANE_CENTER", "PLANE_HEIGHT", "COLUMN_WIDTH", "reading_seconds", "fit_width", "NarratedScene",
           "NormGeoScene", "NormGeoThreeDScene", "TITLE_SIZE", "BODY_SIZE", "SMALL_SIZE", "EDGE", "Step"]

# The 2-D layout: a square plane on the left, a column of text on the right.
PLANE_CENTER = (-3.3, -0.45, 0.0)
PLANE_HEIGHT = 6.6
COLUMN_WIDTH = 6.25

TITLE_SIZE = 40
BODY_SIZE = 28
SMALL_SIZE = 22
EDGE = 0.35


def fit_width(mobject, max_width: float):
    """Shrink ``mobject`` (never enlarge it) so that it is at most ``max_width`` wide."""
    if mobject.width > max_width:
        mobject.scale_to_fit_width(max_width)
    return mobject


@dataclass(frozen=True)
class Step:
    """One narrated step as it was shown: its key, its text and its time span in seconds."""

    key: str
    text: str
    start: float
    end: float

    def as_dict(self) -> dict:
        return {"key": self.key, "text": self.text, "start": round(self.start, 3), "end": round(self.end, 3)}


class NarratedScene:
    """Mixin holding the spec, the palette, the text and the narration; combine with a Manim scene class."""

    scene_id: ClassVar[str] = ""
    spec_class: ClassVar[type[SceneSpec]] = SceneSpec

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__module__.startswith("scenes.kit"):
            cls.scene_id = scene_id_of_module(cls.__module__)

    @classmethod
    def text_file(cls) -> TextFile:
        """The text file beside the scene's module."""
        return text_file(Path(sys.modules[cls.__module__].__file__).with_suffix(".toml"))

    def __init__(self, *args, spec: SceneSpec | None = None, **kwargs):
        self.spec = spec if spec is not None else self.spec_class()
        if not isinstance(self.spec, self.spec_class):
            raise TypeError(f"{type(self).__name__} needs a {self.spec_class.__name__}, got {type(self.spec).__name__}")
        self.fmt = NumberFormat(self.spec.lang)
        self.narration: list[str] = []
        self.steps: list[Step] = []
        self.claims_made: dict[str, Outcome] = {}  # message key → the outcome that chose its variant
        super().__init__(*args, **kwargs)

    def setup(self) -> None:
        super().setup()
        self.palette = palette(self.spec.theme)
        if not config.transparent:
            self.camera.background_color = self.palette.background

    def tear_down(self) -> None:
        self._close_cues(float(self.time))
        super().tear_down()

    # ---------------------------------------------------------------- text
    def words(self, key: str, when: Outcome | None = None, **values) -> str:
        """Text ``key`` (from the scene's file, or ``common.<key>``) in the spec's language; a claim's
        variant is the one ``when`` (the core predicate's outcome, see ``scenes.kit.claims``) names."""
        if when is not None:
            self.claims_made[key] = when
        if key.startswith("common."):
            return message(self.scene_id, key, self.spec.lang, when, **values)
        return fill(self.text_file().template(key, self.spec.lang, when), self.spec.lang, values)

    def text(self, key: str, font_size: float = BODY_SIZE, color: str | None = None, when: Outcome | None = None,
             **values):
        """Text ``key`` typeset in the spec's language and theme."""
        return text_mobject(self.words(key, when, **values), self.spec.lang, color or self.palette.text, font_size)

    def formula(self, expression: str, font_size: float = 32, color: str | None = None):
        """Display math (Typst), coloured from the theme."""
        return math_mobject(expression, color or self.palette.text, font_size)

    def make_title(self):
        """The scene's title, top left."""
        title = self.text("title", font_size=TITLE_SIZE)
        return title.to_corner(UL, buff=EDGE)

    # ----------------------------------------------------------- narration
    def caption(self, step: str, run_time: float, hold: float, when: Outcome | None = None, **values) -> float:
        """Narrate ``say.<step>`` (the variant ``when`` names, for a claim) as subtitles starting now;
        return the hold (seconds to wait after ``run_time``), lengthened so that the line can be read."""
        line = self.words(f"say.{step}", when, **values)
        hold = max(hold, reading_seconds(line, self.spec.lang) - run_time)
        start, duration = float(self.time), run_time + hold
        self._close_cues(start)
        cues = split_into_cues(line, self.spec.lang)
        for cue, (cue_start, cue_end) in zip(cues, cue_times(cues, start, duration)):
            self.add_subcaption(cue, duration=cue_end - cue_start, offset=cue_start - start)
        self.narration.append(line)
        self.steps.append(Step(step, line, start, start + duration))
        return hold

    def _close_cues(self, now: float) -> None:
        """No cue may outlast the moment the next one starts (frames round the scene's clock), nor
        the scene; the step spans are clipped the same way."""
        from datetime import timedelta

        limit = timedelta(seconds=now)
        for cue in getattr(self.renderer.file_writer, "subcaptions", []):
            if cue.end > limit:
                cue.end = max(cue.start, limit)
        if self.steps and self.steps[-1].end > now:
            last = self.steps[-1]
            self.steps[-1] = Step(last.key, last.text, last.start, max(last.start, now))

    def say(self, step: str, *animations, run_time: float = 1.5, hold: float = 1.0, when: Outcome | None = None,
            **values) -> None:
        """Narrate one step: its line is subtitled while ``animations`` play and the hold passes."""
        run_time = run_time if animations else 0.0
        hold = self.caption(step, run_time, hold, when, **values)
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
