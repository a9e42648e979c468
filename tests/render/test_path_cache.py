"""Path cache: a mobject whose points did not change gets its cairo path back instead of a new
one, and the frames are Manim's, pixel for pixel."""

from __future__ import annotations

import numpy as np
import pytest
from manim import DEGREES, Circle, Scene, Square, Text, ThreeDScene, tempconfig

from manim.camera.camera import Camera
from manim.camera.three_d_camera import ThreeDCamera
from manim.renderer.cairo_renderer import CairoRenderer

from scenes.render.manim_door.cameras import PathCachingCamera, PathCachingThreeDCamera


class Shrinking(Scene):
    """A caption added after a shrinking circle: Manim redraws it in every frame, same points."""

    def construct(self):
        circle = Circle(radius=1.5, color="#ff8040")
        self.add(circle, Text("redrawn in every frame, same points", font_size=30).to_edge([0, -1, 0]))
        self.play(circle.animate.scale(0.5), run_time=0.5)


class Turning(ThreeDScene):
    """Text fixed in the frame while the camera turns around a square (projected anew each frame)."""

    def construct(self):
        self.set_camera_orientation(phi=60 * DEGREES, theta=-40 * DEGREES)
        self.add(Square(side_length=2, color="#40a0ff"))
        self.add_fixed_in_frame_mobjects(Text("fixed in the frame while the camera turns", font_size=30).to_corner([-1, 1, 0]))
        self.move_camera(theta=20 * DEGREES, run_time=0.5)


def render(scene_class, cached: bool, monkeypatch):
    frames, built = [], 0
    build = Camera.set_cairo_context_path

    def counted(self, ctx, vmobject):  # Manim's own path building, counted
        nonlocal built
        built += 1
        return build(self, ctx, vmobject)

    monkeypatch.setattr(Camera, "set_cairo_context_path", counted)
    three_d = issubclass(scene_class, ThreeDScene)
    camera_class = (PathCachingThreeDCamera if three_d else PathCachingCamera) if cached else \
        (ThreeDCamera if three_d else Camera)
    with tempconfig({"frame_rate": 15, "pixel_width": 320, "pixel_height": 180, "disable_caching": True,
                     "progress_bar": "none", "verbosity": "ERROR", "write_to_movie": False}):
        scene = scene_class(renderer=CairoRenderer(camera_class=camera_class))
        add_frame = scene.renderer.add_frame
        scene.renderer.add_frame = lambda frame, num_frames=1: (frames.append(frame.copy()),
                                                                add_frame(frame, num_frames))
        scene.render()
    return frames, built


@pytest.mark.render
@pytest.mark.parametrize("scene_class", [Shrinking, Turning])
def test_reused_paths_leave_every_frame_as_manim_draws_it(scene_class, monkeypatch):
    plain, plain_built = render(scene_class, cached=False, monkeypatch=monkeypatch)
    cached, cached_built = render(scene_class, cached=True, monkeypatch=monkeypatch)
    assert len(cached) == len(plain) > 5
    assert all(np.array_equal(a, b) for a, b in zip(plain, cached))
    # the text's glyphs keep their points (redrawn, or fixed while the camera turns): built once
    assert cached_built < 0.6 * plain_built
