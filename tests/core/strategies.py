"""Input strategies and tolerances for the core's property tests.

Bounds, and why:
* entries lie in ±1e6 away from 0 by at least 1e-6 in the largest entry, so that a
  vector has a direction; float64 then keeps ~10 significant digits through a norm,
  hence RELATIVE_TOLERANCE = 1e-9;
* "wide" vectors span 1e-200 … 1e200 to exercise the scaling that avoids overflow;
* derivative checks use "moderate" vectors: entries in ±10 with σ ≥ 0.1. A central difference
  with step FD_STEP = 1e-6 then errs by about h²·|y‴| ≲ 1e-12·(few/σ³) ≈ 1e-9 (truncation)
  plus ~1e-16·√n/h ≈ 4e-10 (rounding), so FD_TOLERANCE = 1e-6 on Jacobian entries of size
  up to 1/σ = 10 leaves a margin of 100, while a wrong term (say a missing 11ᵀ/(nσ), with
  n ≤ 12 and σ ≤ 10) would be off by at least 1/120 ≈ 8e-3;
* channel-first arrays have shape (N, C), (N, C, L) or (N, C, H, W) with N ≤ 5, C ≤ 6 and
  entries in ±100, with max − min ≥ 1e-3 over the whole array (a single group may still be
  constant: tests that need every group to vary assume it).
"""

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

RELATIVE_TOLERANCE = 1e-9
FD_STEP = 1e-6
FD_TOLERANCE = 1e-6

finite_entries = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
dimensions = st.integers(min_value=2, max_value=12)
batch_shapes = st.lists(st.integers(min_value=1, max_value=4), min_size=0, max_size=2).map(tuple)
positive_scales = st.floats(min_value=1e-3, max_value=1e3)
radii = st.floats(min_value=1e-3, max_value=1e3)


@st.composite
def vectors(draw, n=None, batch=None):
    """Arrays of shape batch + (n,) whose every row has a direction (max |xᵢ| ≥ 1e-6)."""
    n = draw(dimensions) if n is None else n
    batch = draw(batch_shapes) if batch is None else batch
    array = draw(arrays(np.float64, (*batch, n), elements=finite_entries))
    assume(np.all(np.max(np.abs(array), axis=-1) >= 1e-6))
    return array


@st.composite
def spread_vectors(draw, n=None, batch=None):
    """Vectors whose entries are not all equal (σ > 0 relative to their size), for LayerNorm at ε = 0."""
    array = draw(vectors(n=n, batch=batch))
    spread = np.max(array, axis=-1) - np.min(array, axis=-1)
    assume(np.all(spread >= 1e-6 * np.max(np.abs(array), axis=-1)))
    return array


@st.composite
def moderate_vectors(draw, n=None, batch=None):
    """Vectors with entries in ±10 and (biased) σ ≥ 0.1 along the last axis, for finite differences."""
    n = draw(dimensions) if n is None else n
    batch = draw(batch_shapes) if batch is None else batch
    array = draw(arrays(np.float64, (*batch, n), elements=st.floats(-10, 10, allow_nan=False)))
    assume(np.all(array.std(axis=-1) >= 0.1))
    return array


@st.composite
def wide_vectors(draw):
    """Vectors with entries of magnitude between 1e-200 and 1e200 (same exponent per vector)."""
    exponent = draw(st.sampled_from([-200, -100, 0, 100, 200]))
    mantissas = draw(vectors(batch=()))
    return mantissas * 10.0**exponent


BATCH_SIZES = st.integers(2, 5)
SPATIAL_SHAPES = st.sampled_from([(), (1,), (3,), (2, 3)])


def channel_first_arrays(min_channels=1, batch=BATCH_SIZES, spatial=SPATIAL_SHAPES):
    """Arrays of shape (N, C), (N, C, L) or (N, C, H, W) (PyTorch's (N, C, *)) with spread."""
    shapes = st.tuples(batch, st.integers(min_channels, 6), spatial).map(lambda t: (t[0], t[1]) + t[2])
    return shapes.flatmap(
        lambda shape: arrays(np.float64, shape, elements=st.floats(-100, 100, allow_nan=False)).filter(
            lambda a: np.ptp(a) > 1e-3
        )
    )


def close(a, b, scale=1.0):
    """Element-wise equality within RELATIVE_TOLERANCE of ``scale``."""
    return np.allclose(a, b, rtol=RELATIVE_TOLERANCE, atol=RELATIVE_TOLERANCE * scale)
