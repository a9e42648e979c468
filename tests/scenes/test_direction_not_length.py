"""direction-not-length: x and y merge on the unit circle; z stays apart."""

import numpy as np
import pytest

from normgeo import l2_normalize
from scenes.direction_not_length import DirectionNotLength, DirectionNotLengthSpec
from scenes.kit.languages import LANGUAGES
from scenes.kit.spec import SpecError
from tests.scenes.helpers import (
    GEOMETRY_TOLERANCE,
    assert_layout_is_clean,
    assert_narrates_every_step,
    build_scene,
    ends,
)


def check(scene, spec):
    vectors = np.array([spec.x, spec.y, spec.z])
    tips = ends(scene.zoom_plane, scene.projected_arrows)
    assert np.allclose(tips, l2_normalize(vectors), atol=GEOMETRY_TOLERANCE)
    assert np.allclose(tips[0], tips[1], atol=GEOMETRY_TOLERANCE)
    assert not np.allclose(tips[0], tips[2], atol=1e-3)
    assert scene.merged
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_same_direction_merges_other_direction_survives(lang, media_dir):
    """The source's example: (3, 4), (6, 8) → (0.6, 0.8); (4, 3) → (0.8, 0.6)."""
    spec = DirectionNotLengthSpec(lang=lang)
    scene = build_scene(DirectionNotLength, spec, media_dir)
    check(scene, spec)
    tips = ends(scene.zoom_plane, scene.projected_arrows)
    assert np.allclose(tips, [[0.6, 0.8], [0.6, 0.8], [0.8, 0.6]])
    # "what is discarded is the length" carries its scope
    summary = scene.narration[-1]
    assert "ε = 0" in summary and "LayerNorm" in summary and "BatchNorm" in summary


def test_custom_vectors(media_dir):
    """x = (−1, 2), y = 3x, z = (2, 1)."""
    spec = DirectionNotLengthSpec(x=(-1.0, 2.0), y=(-3.0, 6.0), z=(2.0, 1.0), theme="light")
    check(build_scene(DirectionNotLength, spec, media_dir), spec)


def test_spec_refuses_vectors_that_would_make_the_narration_false():
    """y must be a positive multiple of x other than x itself ("only their lengths differ"), and z
    must not be along x."""
    with pytest.raises(SpecError, match="same way"):
        DirectionNotLengthSpec(y=(8.0, 6.0))
    with pytest.raises(SpecError, match="differ from x in length"):
        DirectionNotLengthSpec(y=(3.0, 4.0))
    DirectionNotLengthSpec(y=(1.5, 2.0))  # shorter is another length: accepted
    with pytest.raises(SpecError, match="another direction"):
        DirectionNotLengthSpec(z=(0.3, 0.4))


def test_arrows_are_named_at_their_tips(media_dir):
    """x, y, z beside their tips on the full-scale plane, x̂ = ŷ and ẑ beside theirs on the circle;
    the inputs in the input colour, their images in L2's."""
    spec = DirectionNotLengthSpec()
    scene = build_scene(DirectionNotLength, spec, media_dir, check_each_step=False)
    colors = scene.palette
    for key, arrow in zip("xyz", scene.arrows):
        assert np.linalg.norm(scene.arrow_names[key].get_center() - arrow.get_end()) < 1.2, key
        assert arrow.get_color().to_hex().lower() == colors.input.lower()
    for key, arrow in (("merged", scene.landed[0]), ("kept", scene.landed[2])):
        assert np.linalg.norm(scene.image_names[key].get_center() - arrow.get_end()) < 2.0, key
        assert arrow.get_color().to_hex().lower() == colors.l2.lower()
