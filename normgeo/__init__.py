"""normgeo: the geometry of normalization layers, exact and numpy-only.

Radial projection onto spheres, the decomposition x = μ·1 + (x − μ·1), every
normalization layer as one formula over different axes, degrees of freedom,
conditioning, and the small simulations the videos plot. Never imports manim.
"""

from normgeo.circles import circle_in_plane, hyperplane_basis, sphere_rings, square_in_plane, unit_angles
from normgeo.conditioning import (
    GradientDescentRun,
    condition_number,
    gradient_descent_path,
    gradient_descent_run,
    largest_stable_step,
    least_squares_hessian,
    scaled_features,
    standardize_features,
    steps_to_tolerance,
)
from normgeo.counting import constraints, degrees_of_freedom, output_radius
from normgeo.decomposition import Decomposition, decompose, ones_direction, project_to_zero_mean_hyperplane
from normgeo.errors import (
    EmptyInputError,
    InvalidParameterError,
    NonFiniteError,
    NormGeoError,
    ShapeError,
    UnknownLayerError,
    ZeroVarianceError,
    ZeroVectorError,
)
from normgeo.layers import Layer, parse_layer
from normgeo.normalize import batch_norm, group_norm, l2_normalize, layer_norm, normalize, rms_norm
from normgeo.norms import distance, euclidean_norm, root_mean_square
from normgeo.projection import radial_projection, unit_direction
from normgeo.sets import (
    distance_to_sphere,
    distance_to_zero_mean_hyperplane,
    on_sphere,
    on_zero_mean_hyperplane,
)
from normgeo.samples import sample_vectors
from normgeo.statistic_groups import averaged_axes, statistic_groups

__version__ = "0.1.0"

__all__ = [
    "Decomposition",
    "EmptyInputError",
    "GradientDescentRun",
    "InvalidParameterError",
    "Layer",
    "NonFiniteError",
    "NormGeoError",
    "ShapeError",
    "UnknownLayerError",
    "ZeroVarianceError",
    "ZeroVectorError",
    "averaged_axes",
    "batch_norm",
    "circle_in_plane",
    "hyperplane_basis",
    "sphere_rings",
    "square_in_plane",
    "unit_angles",
    "sample_vectors",
    "condition_number",
    "constraints",
    "decompose",
    "degrees_of_freedom",
    "distance",
    "distance_to_sphere",
    "distance_to_zero_mean_hyperplane",
    "euclidean_norm",
    "gradient_descent_path",
    "gradient_descent_run",
    "group_norm",
    "l2_normalize",
    "largest_stable_step",
    "layer_norm",
    "least_squares_hessian",
    "normalize",
    "on_sphere",
    "on_zero_mean_hyperplane",
    "ones_direction",
    "output_radius",
    "parse_layer",
    "project_to_zero_mean_hyperplane",
    "radial_projection",
    "rms_norm",
    "root_mean_square",
    "scaled_features",
    "standardize_features",
    "statistic_groups",
    "steps_to_tolerance",
    "unit_direction",
]
