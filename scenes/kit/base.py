"""The base every normgeo scene builds on: spec, palette, its own text file, numbers, narration.

A scene module ``scenes/<name>.py`` defines one scene class with ``spec_class`` and a ``construct``
that calls one method per narrated step. Its id is derived from the module name (``layernorm_2d``
→ ``layernorm-2d``) and its text is read from ``scenes/<name>.toml`` beside it. Built with no
arguments (as plain ``manim render`` does) it uses its spec's defaults; ``Scene(spec=...)`` renders
any other spec. Each narrated step becomes one or more subtitle cues and is recorded, with its
start and end, in ``self.steps`` (the manifest and the presenter mode use it).

The scene keeps its own record of the narration as it runs (a split render joins parts by it):
when each animation began (``play_starts``), every cue as it was asked for (``cues``), and the
scene's end with its steps before they were clipped to it (``end_time``, ``steps_at_end``). A
caption's cues go to Manim once their end is known: when the next caption starts, or the scene
ends (frames round the scene's clock, so a cue may not end where it was planned).

A narrated render hands the scene ``speech``, a callable giving the seconds a step's line takes to
say (``speech(step, line, start)``): the step then lasts at least that plus :data:`SPEECH_PAUSE` (less at
most a frame, where Manim's frames round the clock). Only the
hold after the animations stretches; animations keep their run times. ``spoken`` records when each
step's speech starts. Without ``speech`` the scene is exactly the silent one.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import ClassVar, Protocol

import numpy as np
from manim import RIGHT, UL, ManimColor, Scene, ThreeDScene, config, tempconfig
from manim.utils.space_ops import rotation_about_z, rotation_matrix

from scenes.kit.claims import Outcome
from scenes.kit.frame_layout import EDGE, STACKED_COLUMN_MIN, Layout
from scenes.kit.captions import cue_times, reading_seconds, split_into_cues
from scenes.kit.numbers import NumberFormat
from scenes.kit.spec import SceneSpec, scene_id_of_module
from scenes.kit.text import TextFile, fill, message, text_file
from scenes.kit.theme import palette
from scenes.kit.widgets import math_mobject, text_mobject

__all__ = ["scene_config", "PLANE_CENTER", "PLANE_HEIGHT", "COLUMN_WIDTH", "reading_seconds", "fit_width", "NarratedScene",
           "NormGeoScene", "NormGeoThreeDScene", "TITLE_SIZE", "BODY_SIZE", "SMALL_SIZE", "EDGE", "Step", "Speech",
           "SPEECH_PAUSE", "Layout"]

# The 16:9 layout: a square plane on the left, a column of text on the right. A scene places its
# parts through ``self.layout`` (scenes.kit.frame_layout), which gives these values at 16:9 only.
PLANE_CENTER = (-3.3, -0.45, 0.0)
PLANE_HEIGHT = 6.6
COLUMN_WIDTH = 6.25

TITLE_SIZE = 40
BODY_SIZE = 28
SMALL_SIZE = 27  # the least size of text holding a word: capitals 24 px high at 1920×1080 (issue 33)

# seconds of silence after a step's speech before the next step starts
SPEECH_PAUSE = 0.5


class Speech(Protocol):
    """What a narrated render hands a scene: ``ask`` starts making the line of ``step`` while the
    scene goes on; a call gives the seconds it takes to say (waiting for it if need be), its speech
    starting at scene time ``start``."""

    def ask(self, step: str, line: str) -> None: ...

    def __call__(self, step: str, line: str, start: float) -> float: ...


def fit_width(mobject, max_width: float):
    """Shrink ``mobject`` (never enlarge it) so that it is at most ``max_width`` wide."""
    if mobject.width > max_width:
        mobject.scale_to_fit_width(max_width)
    return mobject


def scene_config(spec: SceneSpec) -> dict:
    """The Manim config a scene of ``spec`` is built with (a renderer handed to it is built with it
    too): its theme's background, unless the render is transparent."""
    return {} if config.transparent else {"background_color": palette(spec.theme).background}


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
    # the height the text column needs below the figure in a square or tall frame (the figure
    # shrinks to leave it; see scenes.kit.frame_layout)
    stacked_column_height: ClassVar[float] = STACKED_COLUMN_MIN

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__module__.startswith("scenes.kit"):
            cls.scene_id = scene_id_of_module(cls.__module__)

    @classmethod
    def text_file(cls) -> TextFile:
        """The text file beside the scene's module."""
        return text_file(Path(sys.modules[cls.__module__].__file__).with_suffix(".toml"))

    def __init__(self, *args, spec: SceneSpec | None = None, speech: Speech | None = None, **kwargs):
        self.spec = spec if spec is not None else self.spec_class()
        self.speech = speech
        self.spoken: list[tuple[str, float]] = []  # (step, scene time its speech starts), narrated renders only
        if not isinstance(self.spec, self.spec_class):
            raise TypeError(f"{type(self).__name__} needs a {self.spec_class.__name__}, got {type(self.spec).__name__}")
        self.fmt = NumberFormat(self.spec.lang)
        self.narration: list[str] = []
        self.steps: list[Step] = []
        self.claims_made: dict[str, Outcome] = {}  # message key → the outcome that chose its variant
        self.play_starts: dict[int, float] = {}  # animation number → scene time when it began
        self.cues: list[tuple[float, float, float, str]] = []  # (time asked, start, end, text) of every cue
        self.end_time: float | None = None
        self.steps_at_end: list[Step] = []
        self._open_cues: list[tuple[str, float, float]] = []  # (text, start, end) not yet given to Manim
        settings = scene_config(self.spec)
        with tempconfig(settings):
            super().__init__(*args, **kwargs)
        if settings and ManimColor(self.camera.background_color) != ManimColor(settings["background_color"]):
            raise ValueError(f"{type(self).__name__}: the renderer handed in was built without the theme's background; "
                             "build it inside tempconfig(scene_config(spec))")

    def setup(self) -> None:
        super().setup()
        self.palette = palette(self.spec.theme)
        self.layout = Layout.of_config(self.stacked_column_height)  # the frame as the render set it: 16:9, square or tall

    def play(self, *args, **kwargs) -> None:
        self.play_starts.setdefault(self.renderer.num_plays, float(self.time))
        super().play(*args, **kwargs)

    def tear_down(self) -> None:
        self.end_time, self.steps_at_end = float(self.time), list(self.steps)
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
        """The scene's title, top left (narrowed to the frame's width in a tall frame)."""
        title = fit_width(self.text("title", font_size=TITLE_SIZE), self.layout.content_width)
        return title.to_corner(UL, buff=EDGE)

    # ----------------------------------------------------------- narration
    def caption(self, step: str, run_time: float, hold: float, when: Outcome | None = None, **values) -> float:
        """Narrate ``say.<step>`` (the variant ``when`` names, for a claim) as subtitles starting now;
        return the hold (seconds to wait after ``run_time``), lengthened so that the line can be read in
        full and, in a narrated render, said in full with a pause after it."""
        return self.held_caption(self.begin_caption(step, when, **values), run_time, hold)

    def begin_caption(self, step: str, when: Outcome | None = None, **values) -> tuple[str, str, float]:
        """The moment the narration of ``step`` starts (the step before it ends here): (step, its line,
        the scene time); the cues before it end, and its speech is asked for (made while what comes
        before the hold is rendered). :meth:`held_caption` finishes it."""
        line, start = self.words(f"say.{step}", when, **values), float(self.time)
        self._close_cues(start)
        if self.speech is not None:
            self.speech.ask(step, line)
        self.narration.append(line)
        self.steps.append(Step(step, line, start, start))  # the step now shown; its end comes with the hold
        return step, line, start

    def held_caption(self, begun: tuple[str, str, float], run_time: float, hold: float) -> float:
        """The hold of the caption ``begun`` (see :meth:`caption`), its cues and its step recorded
        from its start."""
        step, line, start = begun
        hold = max(hold, reading_seconds(line, self.spec.lang) - run_time)
        if self.speech is not None:
            hold = max(hold, self.speech(step, line, start) + SPEECH_PAUSE - run_time)
            self.spoken.append((step, start))
        duration = run_time + hold
        cues = split_into_cues(line, self.spec.lang)
        for cue, (cue_start, cue_end) in zip(cues, cue_times(cues, start, duration)):
            offset, length = cue_start - start, cue_end - cue_start
            # the times Manim gives a cue added now, kept until its end is known
            self._open_cues.append((cue, float(start + offset), float(start + offset + length)))
            self.cues.append((start, start + offset, start + offset + length, cue))
        self.steps[-1] = Step(step, line, start, start + duration)
        return hold

    def _close_cues(self, now: float) -> None:
        """No cue may outlast the moment the next caption starts (frames round the scene's clock),
        nor the scene: the open cues go to Manim ending there at the latest, with the very times
        Manim would have given them when asked; the step spans are clipped the same way."""
        limit = timedelta(seconds=now)
        for cue, start, end in self._open_cues:
            begins = timedelta(seconds=start)
            ends = timedelta(seconds=end) if timedelta(seconds=end) <= limit else max(begins, limit)
            offset = _addend(now, begins)
            self.add_subcaption(cue, duration=_addend(now + offset, ends), offset=offset)
        self._open_cues = []
        if self.steps and self.steps[-1].end > now:
            last = self.steps[-1]
            self.steps[-1] = Step(last.key, last.text, last.start, max(last.start, now))

    def say(self, step: str, *animations, run_time: float = 1.5, hold: float = 1.0, when: Outcome | None = None,
            **values) -> None:
        """Narrate one step: its line is subtitled while ``animations`` play and the hold passes."""
        run_time = run_time if animations else 0.0
        begun = self.begin_caption(step, when, **values)
        if animations:
            self.play(*animations, run_time=run_time)  # (a narrated render makes the speech meanwhile)
        hold = self.held_caption(begun, run_time, hold)
        if hold > 0:
            self.wait(hold)


def _addend(base: float, target: timedelta) -> float:
    """A float ``x`` with ``timedelta(seconds=base + x) == target`` (Manim times a cue added at
    ``base`` seconds that way): the difference, moved by a few ulps if rounding needs it.

    >>> _addend(10.0, timedelta(seconds=2.5)), _addend(0.1, timedelta(microseconds=300001))
    (-7.5, 0.200001)
    """
    guess = target.total_seconds() - base
    for _ in range(64):
        got = timedelta(seconds=base + guess)
        if got == target:
            return guess
        guess = math.nextafter(guess, math.inf if got < target else -math.inf)
    raise ArithmeticError(f"no float puts {base} s at {target}")


class NormGeoScene(NarratedScene, Scene):
    """A 2-D normgeo scene."""


class NormGeoThreeDScene(NarratedScene, ThreeDScene):
    """A 3-D normgeo scene; labels go through ``fix_in_frame`` so they stay readable."""

    def fix_in_frame(self, *mobjects):
        self.add_fixed_in_frame_mobjects(*mobjects)
        return mobjects

    def view_from(self, phi: float | None = None, theta: float | None = None, zoom: float | None = None) -> dict:
        """The camera settings that look from ``phi``, ``theta`` (and ``zoom``, times the layout's
        ``view_scale``; the current ones where not given) with the world's origin drawn at the height of the layout's ``view_center``: the
        camera draws a point x at zoom·f/(f − z)·(the first two of p), p = R·(x − c), z = p's third
        (f the focal distance), so c = (0, 0, c_z) draws the origin at height h = zoom·f·(−c_z·u_y)/(f + c_z·u_z),
        u = R·e_z, that is c_z = −h·f/(zoom·f·u_y + h·u_z) (the screen's vertical, for γ = 0). Only c_z
        moves: Cairo shifts the whole picture, text fixed in the frame too, by c's x and y. R is
        R_z(γ)·R_x(−φ)·R_z(−θ − π/2), whose last factor leaves e_z alone, so u does not depend on θ;
        looking straight down (u_y = 0) no c_z moves the origin, and it stays 0."""
        camera = self.renderer.camera
        phi = camera.get_phi() if phi is None else phi
        theta = camera.get_theta() if theta is None else theta
        zoom = camera.get_zoom() if zoom is None else zoom * self.layout.view_scale
        up = rotation_about_z(camera.get_gamma()) @ rotation_matrix(-phi, RIGHT) @ np.array([0.0, 0.0, 1.0])
        height = self.layout.view_center[1]
        focal, lift = camera.get_focal_distance(), up[1]
        center = np.array([0.0, 0.0, -height * focal / (zoom * focal * lift + height * up[2])
                           if height and abs(lift) > 1e-6 else 0.0])
        return {"phi": phi, "theta": theta, "zoom": zoom, "frame_center": center}

    def look_from(self, **view) -> None:
        """Set the camera (``phi``, ``theta``, ``zoom``) with the origin at the layout's view centre."""
        self.set_camera_orientation(**self.view_from(**view))

    def turn_to(self, run_time: float, added_anims=(), **view) -> None:
        """Move the camera to ``phi``, ``theta``, ``zoom``, the origin kept at the layout's view centre."""
        self.move_camera(run_time=run_time, added_anims=list(added_anims), **self.view_from(**view))
