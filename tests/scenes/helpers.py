"""Build a scene without rendering (dry run, animations skipped) and read its final geometry."""

from __future__ import annotations

import itertools

import numpy as np
from manim import Typst, VMobject, tempconfig

from scenes.kit.adapters import to_coordinates
from scenes.kit.frame_layout import frame_size

__all__ = ["assert_narrates_every_step", "build_scene", "ends", "centres", "text_boxes", "assert_layout_is_clean", "GEOMETRY_TOLERANCE",
           "ASPECTS", "content_box"]

# The frames every scene's layout is checked in: 16:9 (lecture video), 1:1 and 9:16 (blogs, feeds).
ASPECTS = {"16:9": (1920, 1080), "1:1": (1080, 1080), "9:16": (1080, 1920)}

# Scene points are float64 and plane conversions are affine: 1e-9 of a plane unit is exact.
GEOMETRY_TOLERANCE = 1e-9


def build_scene(scene_class, spec, media_dir, check_each_step: bool = True, resolution: tuple[int, int] | None = None):
    """Run ``construct`` to its final state without writing any frame or file, in a frame of
    ``resolution`` pixels (sized in scene units as a render of that resolution is) or Manim's
    default 16:9 one. With
    ``check_each_step`` the layout (no text overlapping, none outside the frame) is checked at the
    end of every narrated step, not only on the last frame: each step's end is the moment before
    the next step's narration starts."""
    options = {
        "dry_run": True,
        "media_dir": str(media_dir),
        "verbosity": "ERROR",
        "progress_bar": "none",
        "notify_outdated_version": False,
    }
    if resolution is not None:
        options["pixel_width"], options["pixel_height"] = resolution
        options["frame_width"], options["frame_height"] = frame_size(*resolution)
    with tempconfig(options):
        scene = scene_class(spec=spec, skip_animations=True)
        if check_each_step:
            narrate = scene.begin_caption  # where every step's narration starts (say and caption both)

            def caption_after_checking(step, *args, **kwargs):
                if scene.steps:  # the previous step has ended: what it left on screen must be clean
                    assert_layout_is_clean(scene, require_text=False, when=f"at the end of step {scene.steps[-1].key!r}")
                return narrate(step, *args, **kwargs)

            scene.begin_caption = caption_after_checking
        scene.render()
    return scene


def ends(coordinate_system, mobjects, dim: int = 2) -> np.ndarray:
    """Core coordinates of where each arrow or segment ends."""
    return to_coordinates(coordinate_system, np.array([m.get_end() for m in mobjects]), dim)


def centres(coordinate_system, mobjects, dim: int = 2) -> np.ndarray:
    """Core coordinates of each mobject's centre (dots)."""
    return to_coordinates(coordinate_system, np.array([m.get_center() for m in mobjects]), dim)


def text_boxes(scene) -> list[tuple[Typst, np.ndarray, np.ndarray]]:
    """Every visible piece of text on screen with its bounding box (lower-left, upper-right)."""
    seen, boxes = set(), []
    for top in scene.mobjects:
        for mobject in top.get_family():
            if isinstance(mobject, Typst) and id(mobject) not in seen and _visible(mobject):
                seen.add(id(mobject))
                boxes.append((mobject, mobject.get_corner((-1, -1, 0)), mobject.get_corner((1, 1, 0))))
    return boxes


def content_box(scene) -> tuple[np.ndarray, np.ndarray]:
    """The lower-left and upper-right corners of everything visible on screen (text and drawing),
    as the frame shows it (3-D parts where the camera projects them)."""
    camera, lows, highs = scene.camera, [], []
    fixed = set(getattr(camera, "fixed_in_frame_mobjects", ()))
    for top in scene.mobjects:
        for mobject in top.family_members_with_points():
            if isinstance(mobject, VMobject) and (mobject.get_fill_opacity() > 0 or mobject.get_stroke_opacity() > 0):
                points = mobject.points
                if hasattr(camera, "project_points") and mobject not in fixed:
                    points = camera.project_points(points)
                lows.append(points.min(axis=0))
                highs.append(points.max(axis=0))
    return np.min(lows, axis=0), np.max(highs, axis=0)


def _visible(mobject) -> bool:
    return any(part.get_fill_opacity() > 0 for part in mobject.family_members_with_points())


def assert_layout_is_clean(scene, margin: float = 0.05, require_text: bool = True, when: str = "on the last frame") -> None:
    """All text lies inside the frame and no two pieces of text overlap."""
    half_width, half_height = scene.camera.frame_width / 2, scene.camera.frame_height / 2  # the frame it was built for
    boxes = text_boxes(scene)
    assert boxes or not require_text, "the final frame shows no text"
    for mobject, low, high in boxes:
        assert low[0] >= -half_width - 1e-6 and high[0] <= half_width + 1e-6, f"{mobject!r} is cut off at the side {when}"
        assert low[1] >= -half_height - 1e-6 and high[1] <= half_height + 1e-6, \
            f"{mobject!r} is cut off at the top or bottom {when}"
    for (a, a_low, a_high), (b, b_low, b_high) in itertools.combinations(boxes, 2):
        overlap_x = min(a_high[0], b_high[0]) - max(a_low[0], b_low[0])
        overlap_y = min(a_high[1], b_high[1]) - max(a_low[1], b_low[1])
        assert overlap_x <= margin or overlap_y <= margin, f"{a!r} overlaps {b!r} {when}"


def _joined(cues, lang: str) -> str:
    glue = "" if lang == "zh" else " "
    return glue.join(" ".join(cue.split("\n")) if lang != "zh" else cue.replace("\n", "") for cue in cues)


def assert_narrates_every_step(scene) -> None:
    """The scene narrates exactly the steps of its text file, in the file's order, each once; the
    subtitle cues of each step, joined, are that step's text; no cue overlaps the next or has more
    than two lines."""
    expected = scene.text_file().steps()
    assert [step.key for step in scene.steps] == expected
    assert [step.text for step in scene.steps] == scene.narration
    assert all(line.strip() for line in scene.narration)
    cues = scene.renderer.file_writer.subcaptions
    for before, after in zip(cues, cues[1:]):
        assert before.end <= after.start, (before, after)
    lang = scene.spec.lang
    for step in scene.steps:
        mine = [c.content for c in cues if step.start - 1e-6 <= c.start.total_seconds() < step.end - 1e-6
                or (step.start == step.end and abs(c.start.total_seconds() - step.start) < 1e-6)]
        assert _joined(mine, lang) == " ".join(step.text.split()) if lang != "zh" else step.text, (step.key, mine)
        assert all(cue.count("\n") <= 1 for cue in mine)
