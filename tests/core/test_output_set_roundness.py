"""OutputEllipsoid.is_round: γ ⊙ S is a sphere exactly when every |γᵢ| is equal (RMSNorm), against
the semi-axes written by hand and against points of the image measured directly."""

import math

import numpy as np
import pytest

from normgeo import output_ellipsoid


@pytest.mark.parametrize("gamma, round_", [((2.0, 2.0), True), ((1.7, 0.55), False), ((0.1, 0.1), True),
                                           ((3.0, 3.0, 3.0), True), ((3.0, 3.0, 3.0 + 1e-6), False),
                                           ((-2.0, 2.0), True)])
def test_round_exactly_when_the_image_of_the_circle_has_one_radius(gamma, round_):
    ellipsoid = output_ellipsoid(gamma, centred=False)
    assert ellipsoid.is_round is round_
    # by hand: the images γ ⊙ (√n eᵢ) of the sphere's axis points have lengths √n·|γᵢ|
    n = len(gamma)
    lengths = [math.sqrt(n) * abs(g) for g in gamma]
    assert (max(lengths) - min(lengths) <= 1e-9 * max(lengths)) is round_
    # measured: points of γ ⊙ S on a 2-D slice all at one distance iff round
    t = np.linspace(0, 2 * np.pi, 64)
    points = math.sqrt(n) * np.stack([np.cos(t), np.sin(t)], axis=1) * np.abs(gamma[:2])
    radii = np.linalg.norm(points, axis=1)
    if gamma[0] != gamma[1] and abs(gamma[0]) != abs(gamma[1]):
        assert not round_ and np.ptp(radii) > 0
