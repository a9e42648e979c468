"""Every scene lays itself out for its frame: at 16:9, 1:1 and 9:16 no text overlaps other text or
leaves the frame at the end of any step; in a square or tall frame the text column is below the
figure (no text beside it) and the picture is filled, not letterboxed."""

import numpy as np
import pytest
from manim import VMobject

from scenes.kit.registry import entry, scene_ids
from tests.scenes.helpers import ASPECTS, assert_layout_is_clean, build_scene, content_box, text_boxes

# the least share of a square or tall frame's height the content spans (a 16:9 layout letterboxed
# in a 9:16 frame spans 8 / 14.2 = 56 % of it, in a 1:1 frame 56 % too)
FILLED = 0.7
LABEL_GAP = 0.4  # a label of the figure lies closer to it than this; a column beside it (0.45 and a swatch) farther
FIGURE_SIDE = 2.0  # a plane, plot or grid is at least this wide and tall (scene units)


def build(scene_id, aspect, media_dir, **spec):
    scene_class = entry(scene_id).load()
    return build_scene(scene_class, scene_class.spec_class(**spec), media_dir, resolution=ASPECTS[aspect])


@pytest.mark.parametrize("aspect", list(ASPECTS))
@pytest.mark.parametrize("scene_id", scene_ids())
def test_layout_is_clean_in_every_aspect(scene_id, aspect, media_dir):
    """No text overlaps or is cut off at the end of any step (build_scene checks each) nor at the end."""
    scene = build(scene_id, aspect, media_dir)
    assert (scene.camera.frame_width > scene.camera.frame_height) == (aspect == "16:9")
    assert scene.layout.stacked == (aspect != "16:9")
    assert_layout_is_clean(scene)


def projected(scene, mobject) -> np.ndarray:
    """The points of ``mobject`` where the frame shows them (3-D parts as the camera projects them)."""
    camera = scene.camera
    if hasattr(camera, "project_points") and mobject not in set(getattr(camera, "fixed_in_frame_mobjects", ())):
        return camera.project_points(mobject.points)
    return mobject.points


def main_figure(scene):
    """The figure: of the top-level parts on screen, the one whose drawing (its text left out) covers
    the largest box at least FIGURE_SIDE across both ways; its box and the text that belongs to it
    (tick labels, axis names)."""
    texts = {id(m) for m, _, _ in text_boxes(scene)}
    best = None
    for top in scene.mobjects:
        family = top.get_family()
        inside_text = {id(p) for m in family if id(m) in texts for p in m.get_family()}
        points = [projected(scene, m) for m in top.family_members_with_points()
                  if isinstance(m, VMobject) and id(m) not in inside_text and (m.get_fill_opacity() > 0 or m.get_stroke_opacity() > 0)]
        if not points:
            continue
        points = np.vstack(points)
        low, high = points.min(axis=0), points.max(axis=0)
        size = high - low
        if min(size[0], size[1]) >= FIGURE_SIDE and (best is None or size[0] * size[1] > best[0]):
            best = (size[0] * size[1], low, high, {id(m) for m in family})
    return None if best is None else (best[1], best[2], best[3])


@pytest.mark.parametrize("aspect", ["1:1", "9:16"])
@pytest.mark.parametrize("scene_id", scene_ids())
def test_square_and_tall_frames_stack_and_fill(scene_id, aspect, media_dir):
    """No text sits beside the figure (in its row band and clear of it sideways): the column is
    below; and the content spans at least 70 % of the frame's height."""
    scene = build(scene_id, aspect, media_dir)
    beside = beside_texts(scene)
    assert not beside, f"{beside[0]!r} is beside the figure in a {aspect} frame"
    content_low, content_high = content_box(scene)
    height = scene.camera.frame_height
    assert content_high[1] - content_low[1] >= FILLED * height, \
        f"the content spans {(content_high[1] - content_low[1]) / height:.0%} of the {aspect} frame's height"


@pytest.mark.parametrize("lang", ["ru", "zh"])
@pytest.mark.parametrize("scene_id", scene_ids())
def test_tall_layout_is_clean_in_other_languages(scene_id, lang, media_dir):
    """Russian runs longest and Chinese is typeset differently: at 9:16 (the narrowest frame) their
    text overlaps nothing and stays inside the frame too."""
    assert_layout_is_clean(build(scene_id, "9:16", media_dir, lang=lang))


def beside_texts(scene) -> list:
    """The text beside the figure: sharing its rows and more than LABEL_GAP clear of it sideways (an
    axis name or a grid's label sits closer); none when the scene draws no figure (a formula and a table)."""
    figure = main_figure(scene)
    if figure is None:
        return []
    low, high, own = figure
    return [m for m, a, b in text_boxes(scene) if id(m) not in own
            and min(b[1], high[1]) - max(a[1], low[1]) > 0.05 and (b[0] < low[0] - LABEL_GAP or a[0] > high[0] + LABEL_GAP)]


@pytest.mark.parametrize("scene_id", ["radial-projection", "sphere-radii"])
def test_the_stacking_check_sees_a_column_beside_the_figure(scene_id, media_dir):
    """The check above is not blind: at 16:9 the same scenes' legend and readouts are beside the plane."""
    assert beside_texts(build(scene_id, "16:9", media_dir))
