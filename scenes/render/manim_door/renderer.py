"""The pipeline's renderer: Manim's Cairo renderer drawing still overlays, with hooks for split parts.

Handed to a scene as ``Scene(renderer=PipelineRenderer(…))``; it builds its camera and file writer
through ``CairoRenderer(camera_class=…, file_writer_class=…)``. What it changes:

* each play's still runs of mobjects are drawn once, when the play begins, and laid over every
  frame (:mod:`.overlay`);
* with ``draws_while_skipping=False`` (split parts) a skipped animation draws nothing: Manim would
  draw its static image and one frame of what moves only to throw the pixels away, a full frame
  per animation before a part's range; the first animation rendered saves its own static image,
  so nothing drawn before is ever shown;
* a :class:`PlayHooks` (a split part's side of the hand-off) is asked around each animation,
  whether to skip one, and at each frame drawn;
* before each frame and each play's still layers its camera (one of :mod:`.cameras`) looks at the
  scene whole (``look_at``): a web animation's camera leaves out text too small to read.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from manim import config
from manim.renderer.cairo_renderer import CairoRenderer

from scenes.render.manim_door.overlay import StillOverlay, still_overlay

__all__ = ["PipelineRenderer", "PlayHooks", "PlayCost"]


class PlayHooks:
    """What a split part does around the animations of its run (nothing, here)."""

    def around_play(self, renderer: "PipelineRenderer", number: int, play: Callable[[], None]) -> None:
        """Play animation ``number`` (call ``play``), doing whatever the part needs around it."""
        play()

    def skips_animation(self, number: int) -> bool:
        """Whether animation ``number`` is skipped on top of what Manim skips."""
        return False

    def at_frame(self, renderer: "PipelineRenderer", number: int, fraction: float) -> None:
        """A frame of animation ``number`` is about to be drawn, ``fraction`` of the way through."""


@dataclass(frozen=True)
class PlayCost:
    """What one skipped animation of a measuring run showed: seconds it took skipped, seconds
    drawing what moves once, seconds in its update, whether it is a held frame, frames shown."""

    skipped: float
    draw: float
    updating: float
    frozen: bool
    shown: int


class PipelineRenderer(CairoRenderer):
    """Manim's Cairo renderer with still overlays and a split part's hooks."""

    def __init__(self, *, camera_class, file_writer_class, skip_animations: bool = False,
                 draws_while_skipping: bool = True, hooks: PlayHooks | None = None) -> None:
        super().__init__(file_writer_class=file_writer_class, camera_class=camera_class,
                         skip_animations=skip_animations)
        self.draws_while_skipping = draws_while_skipping
        self.hooks = hooks or PlayHooks()
        self.overlay: StillOverlay | None = None  # of the play being drawn (None: Manim's way)
        self.overlay_moving: list | None = None  # the play's moving mobjects, which the overlay draws
        self.updating = 0.0  # seconds between drawn frames (the scene's updates), for measuring runs
        self.updates_from: float | None = None
        self.playing = None  # the scene whose animation is playing

    # ------------------------------------------------------------------ drawing
    def _look_at(self, scene) -> None:
        """Let a pipeline camera (:mod:`.cameras`) see the scene whole before it draws; Manim's own
        cameras, which tests hand in to compare with Manim's frames, have nothing to look at."""
        if hasattr(self.camera, "look_at"):
            self.camera.look_at(scene)

    def save_static_frame_data(self, scene, static_mobjects):
        self._look_at(scene)
        moving = scene.moving_mobjects  # chosen by the scene as the play began
        self.overlay = None if self.skip_animations or not moving else still_overlay(scene, scene.animations, moving)
        self.overlay_moving = moving
        try:
            return super().save_static_frame_data(scene, static_mobjects)
        finally:
            self.updates_from = time.perf_counter()

    def update_frame(self, scene, mobjects=None, include_submobjects=True, ignore_skipping=True, **kwargs):
        if self.skip_animations and not self.draws_while_skipping:
            return None
        self._look_at(scene)
        if self.overlay is None or mobjects is not self.overlay_moving:
            return super().update_frame(scene, mobjects, include_submobjects, ignore_skipping, **kwargs)
        if self.skip_animations and not ignore_skipping:
            return None
        if self.static_image is not None:
            self.camera.set_frame_to_background(self.static_image)
        else:
            self.camera.reset()
        self.overlay.draw(self.camera)
        return None

    def render(self, scene, time_, moving_mobjects=None):
        if self.updates_from is not None:
            self.updating += time.perf_counter() - self.updates_from
        if not self.skip_animations:
            duration = float(scene.duration)
            self.hooks.at_frame(self, self.num_plays, min(1.0, time_ / duration) if duration > 0 else 0.0)
        super().render(scene, time_, moving_mobjects)
        self.updates_from = time.perf_counter()

    # --------------------------------------------------------------- animations
    def play(self, scene, *args, **kwargs) -> None:
        self.playing = scene
        self.hooks.around_play(self, self.num_plays, lambda: super(PipelineRenderer, self).play(scene, *args, **kwargs))

    def update_skipping_status(self) -> None:
        super().update_skipping_status()
        if self.hooks.skips_animation(self.num_plays):
            self.skip_animations = True

    @property
    def first_rendered(self) -> int:
        """The first animation rendered (Manim's ``from_animation_number``)."""
        return int(config.from_animation_number)

    def start_at(self, number: int) -> None:
        """Skip every animation before ``number`` (as Manim's ``from_animation_number``)."""
        config.from_animation_number = number

    def end_after(self, number: int) -> None:
        """End the scene after animation ``number`` (as if Manim's ``upto_animation_number`` had been
        given from the start)."""
        config.upto_animation_number = number

    def drain(self) -> None:
        """Wait until every segment written so far is encoded."""
        self.file_writer.join_all_encode_jobs()

    def measured_play(self, play: Callable[[], None]) -> PlayCost:
        """Play a skipped animation and measure it: its update and what drawing what moves in one
        of its frames costs (a rendered frame of a moving animation updates, then draws)."""
        start, self.updating, began = float(self.time), 0.0, time.perf_counter()
        play()
        skipped = time.perf_counter() - began
        scene = self.playing
        frozen = bool(scene.animations) and scene.is_current_animation_frozen_frame()
        began = time.perf_counter()
        self.camera.reset()
        self.camera.capture_mobjects(list(scene.moving_mobjects) + list(scene.foreground_mobjects))
        draw = time.perf_counter() - began
        shown = max(1, round((float(self.time) - start) * config.frame_rate))
        return PlayCost(skipped, draw, self.updating, frozen, shown)

    def scene_pixels(self, scene):
        """The whole scene drawn as it is now (RGBA), on the camera's background."""
        self.camera.reset()
        self.camera.capture_mobjects(scene.mobjects)
        return self.camera.pixel_array
