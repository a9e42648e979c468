"""layernorm-2d: every output dot is LN(input), and is (1, −1) or (−1, 1); dof = 0 is computed."""

import numpy as np
import pytest

from normgeo import degrees_of_freedom, layer_norm, sample_vectors
from scenes.kit.languages import LANGUAGES
from scenes.layernorm_2d import LayerNorm2D, LayerNorm2DSpec
from tests.scenes.helpers import (
    GEOMETRY_TOLERANCE,
    assert_layout_is_clean,
    assert_narrates_every_step,
    build_scene,
    centres,
)


def check(scene, spec):
    inputs = sample_vectors(spec.count, 2, seed=spec.seed, scale=spec.spread, min_spread=1e-3)
    outputs = centres(scene.plane, scene.output_dots)
    assert np.allclose(outputs, layer_norm(inputs, eps=0.0), atol=GEOMETRY_TOLERANCE)
    meeting = centres(scene.plane, scene.meeting_dots)
    assert np.allclose(sorted(meeting.tolist()), [[-1.0, 1.0], [1.0, -1.0]], atol=GEOMETRY_TOLERANCE)
    for point in outputs:
        assert min(np.abs(point - m).max() for m in meeting) < GEOMETRY_TOLERANCE
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_input_ends_at_one_of_two_points(lang, media_dir):
    """Default spec, every language; the last narration states dof 0 and 894 from the core."""
    spec = LayerNorm2DSpec(lang=lang)
    scene = build_scene(LayerNorm2D, spec, media_dir)
    check(scene, spec)
    last = scene.narration[-1]
    assert str(degrees_of_freedom("layernorm", 2)) in last and str(degrees_of_freedom("layernorm", 896)) in last
    # the count n − 2 is stated at ε = 0
    assert "ε = 0" in scene.narration[-1]


def test_custom_count_seed_and_dimension(media_dir):
    """More points, another seed and high_dim = 4096: the same two end points."""
    spec = LayerNorm2DSpec(count=60, seed=11, spread=3.0, high_dim=4096, theme="light")
    scene = build_scene(LayerNorm2D, spec, media_dir)
    check(scene, spec)
    assert "4,094" in scene.narration[-1]  # English groups thousands (CLDR)


@pytest.mark.parametrize("spread", [0.1, 100.0])
def test_the_picture_stays_readable_at_the_ends_of_the_spread(spread, media_dir):
    """Inputs 0.1 or 100 wide: the last frame still shows the circle large (at least a quarter of the
    figure's height across), and each point's label beside its dot, clear of the circle, naming its
    coordinates and how many inputs landed there (issue 38: the circle used to collapse to a dot)."""
    spec = LayerNorm2DSpec(spread=spread)
    scene = build_scene(LayerNorm2D, spec, media_dir, check_each_step=False)
    circle = scene.drawn["circle"]
    assert circle.width >= scene.layout.figure_height / 4
    centre, radius = circle.get_center(), circle.width / 2
    for dot, label, landed in zip(scene.meeting_dots, scene.drawn["point_labels"], (scene.at_p, scene.at_q)):
        corners = [label.get_corner(c) for c in ((-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0))]
        assert min(np.linalg.norm(c[:2] - centre[:2]) for c in corners) > radius
        assert np.linalg.norm(label.get_center() - dot.get_center()) < 1.5
        assert label[1].typst_code == scene.words("landed", count=landed)
    assert scene.at_p + scene.at_q == spec.count
