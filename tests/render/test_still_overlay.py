"""Still overlays: while a 3-D camera moves, fixed-in-frame mobjects that do not change are drawn
once into layers, and the frames stay Manim's (to rounding), with far fewer paths drawn."""

from __future__ import annotations

import numpy as np
import pytest
from manim import DEGREES, LEFT, ORIGIN, RIGHT, UL, Dot, Scene, Square, Text, ThreeDAxes, tempconfig

from scenes.kit.base import NormGeoThreeDScene, scene_config
from manim.camera.camera import Camera
from manim.camera.three_d_camera import ThreeDCamera
from manim.scene.scene_file_writer import SceneFileWriter

from scenes.render.manim_door.overlay import Layer
from scenes.render.manim_door.renderer import PipelineRenderer


class Recording(PipelineRenderer):
    """The pipeline's renderer, noting the layers each play got."""

    def __init__(self, camera_class):
        super().__init__(camera_class=camera_class, file_writer_class=SceneFileWriter)
        self.layers_seen = []

    def save_static_frame_data(self, scene, static_mobjects):
        result = super().save_static_frame_data(scene, static_mobjects)
        self.layers_seen.append(None if self.overlay is None else self.overlay.layers)
        return result


class CameraMove(NormGeoThreeDScene):
    """A still label under an animated square under another still label, and one above the axes,
    while the camera turns: three still runs between moving ones."""

    scene_id = "layernorm-hyperplane"  # any scene's text file; this scene shows none of it

    def construct(self):
        self.set_camera_orientation(phi=60 * DEGREES, theta=-40 * DEGREES)
        under = self.fix_in_frame(Text("under the square", font_size=40).move_to(ORIGIN))[0]
        self.add(ThreeDAxes(x_range=(-3, 3), y_range=(-3, 3), z_range=(-3, 3)))
        self.square = self.fix_in_frame(Square(side_length=1.5, fill_opacity=0.8, color="#ff0000"))[0]
        self.above = self.fix_in_frame(Text("corner", font_size=60).to_corner(UL), Text("over", font_size=60))
        self.move_camera(phi=75 * DEGREES, theta=30 * DEGREES, run_time=0.5,
                         added_anims=[self.square.animate.shift([0.8, 0, 0])])
        self.under = under
        self.wait(0.2)  # nothing moves: Manim draws one frame from its static image, no overlay



def render(manim_way: bool):
    """Frames and the count of paths drawn, with the overlay or the way plain Manim draws."""
    frames, paths = [], 0
    with tempconfig({"frame_rate": 15, "pixel_width": 320, "pixel_height": 180, "disable_caching": True,
                     "progress_bar": "none", "verbosity": "ERROR", "write_to_movie": False}):
        spec = CameraMove.spec_class()
        with tempconfig(scene_config(spec)):  # the theme's background, as the scene's own renderer has it
            options = {} if manim_way else {"renderer": Recording(ThreeDCamera)}
        scene = CameraMove(spec=spec, **options)
        renderer, camera = scene.renderer, scene.renderer.camera
        display = camera.display_vectorized

        def counted(*args, **kwargs):
            nonlocal paths
            paths += 1
            return display(*args, **kwargs)

        camera.display_vectorized = counted
        add_frame = renderer.add_frame
        renderer.add_frame = lambda frame, num_frames=1: (frames.append(frame.copy()), add_frame(frame, num_frames))
        scene.render()
    return frames, paths, scene


@pytest.mark.render
def test_camera_move_draws_still_labels_once_and_shows_manims_frames():
    manim_frames, manim_paths, _ = render(manim_way=True)
    frames, paths, scene = render(manim_way=False)
    assert len(frames) == len(manim_frames) > 5
    worst = max(int(np.abs(a.astype(int) - b).max()) for a, b in zip(frames, manim_frames))
    assert worst <= 2  # rounding on anti-aliased edges only
    move, waiting = scene.renderer.layers_seen
    members = sum(len(layer.members) for layer in move)
    assert manim_paths - paths >= 6 * members  # drawn once, not in each of the move's 7 frames
    assert waiting is None
    # "under" alone (before the axes and the animated square), then "corner" and "over" together
    drawn = [{m for m in mobject.get_family() if m.has_points()} for mobject in (scene.under, *scene.above)]
    assert [set(layer.members) for layer in move] == [drawn[0], drawn[1] | drawn[2]]
    assert all(isinstance(layer, Layer) and layer.runs for layer in move)


class FlatPlay(Scene):
    """A dot moves under a caption added after it, beside a still square added before it."""

    def construct(self):
        self.add(Square(side_length=2, fill_opacity=0.5, color="#3080ff").shift(LEFT * 3))
        dot = Dot(radius=0.6, color="#ff5030")
        self.add(dot, Text("a caption drawn over the dot", font_size=36))
        self.play(dot.animate.shift(RIGHT * 4), run_time=0.6)


def flat_frames(overlays: bool):
    frames, layers = [], []
    with tempconfig({"frame_rate": 15, "pixel_width": 320, "pixel_height": 180, "disable_caching": True,
                     "progress_bar": "none", "verbosity": "ERROR", "write_to_movie": False}):
        scene = FlatPlay(renderer=Recording(Camera)) if overlays else FlatPlay()
        renderer = scene.renderer
        add_frame = renderer.add_frame
        renderer.add_frame = lambda frame, num_frames=1: (frames.append(frame.copy()), add_frame(frame, num_frames))
        scene.render()
    return frames, renderer.layers_seen if overlays else []


@pytest.mark.render
def test_a_flat_scene_lays_the_caption_added_after_what_moves():
    """Manim redraws the caption in every frame because it was added after the dot; it is one
    layer here (the square before the dot stays in Manim's static image), the frames the same."""
    manim_frames, _ = flat_frames(False)
    frames, layers = flat_frames(True)
    assert len(frames) == len(manim_frames) > 5
    assert max(int(np.abs(a.astype(int) - b).max()) for a, b in zip(frames, manim_frames)) <= 2
    assert len(layers) == 1 and len(layers[0]) == 1 and len(layers[0][0].members) == len("acaptiondrawnoverthedot")
