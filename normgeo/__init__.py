"""normgeo: the geometry of normalization layers, exact and numpy-only.

Radial projection onto spheres, the decomposition x = μ·1 + (x − μ·1), every
normalization layer as one formula over different axes, degrees of freedom,
conditioning, and the small simulations the videos plot. Never imports manim.
"""

from normgeo.circles import circle_in_plane, hyperplane_basis, sphere_rings, square_in_plane, unit_angles
from normgeo.batch_dependence import (
    BatchMeanSpread,
    TrainEvalGap,
    TwoBatches,
    batch_mean_spread,
    running_statistics,
    same_example_in_two_batches,
    train_eval_gap,
)
from normgeo.conditioning import (
    ConditioningDemo,
    GradientDescentRun,
    condition_number,
    conditioning_demo,
    gradient_descent_path,
    gradient_descent_run,
    largest_stable_step,
    least_squares_hessian,
    contour_levels,
    quadratic_contours,
    quadratic_value,
    scaled_features,
    standardize_features,
    steps_to_tolerance,
)
from normgeo.covariate_shift import VARIANTS, CovariateShiftStudy, TrainingRun, covariate_shift_study, train_mlp
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
from normgeo.residual_stacks import StackGradients, block_gradient_norms, make_stack, prenorm_postnorm_study
from normgeo.samples import sample_vectors
from normgeo.scale_invariance import (
    ScaledOutputs,
    WeightDecayRun,
    linear_layer_norm,
    linear_layer_norm_loss,
    scaled_outputs,
    weight_decay_run,
)
from normgeo.statistic_groups import GroupStatistics, averaged_axes, statistic_groups, statistics_by_group

__version__ = "0.1.0"

__all__ = [
    "averaged_axes",
    "batch_mean_spread",
    "batch_norm",
    "BatchMeanSpread",
    "block_gradient_norms",
    "circle_in_plane",
    "condition_number",
    "conditioning_demo",
    "ConditioningDemo",
    "constraints",
    "contour_levels",
    "covariate_shift_study",
    "CovariateShiftStudy",
    "decompose",
    "Decomposition",
    "degrees_of_freedom",
    "distance",
    "distance_to_sphere",
    "distance_to_zero_mean_hyperplane",
    "EmptyInputError",
    "euclidean_norm",
    "gradient_descent_path",
    "gradient_descent_run",
    "GradientDescentRun",
    "GroupStatistics",
    "group_norm",
    "hyperplane_basis",
    "InvalidParameterError",
    "l2_normalize",
    "largest_stable_step",
    "Layer",
    "layer_norm",
    "least_squares_hessian",
    "linear_layer_norm",
    "linear_layer_norm_loss",
    "make_stack",
    "NonFiniteError",
    "normalize",
    "NormGeoError",
    "on_sphere",
    "on_zero_mean_hyperplane",
    "ones_direction",
    "output_radius",
    "parse_layer",
    "prenorm_postnorm_study",
    "project_to_zero_mean_hyperplane",
    "quadratic_contours",
    "quadratic_value",
    "radial_projection",
    "rms_norm",
    "root_mean_square",
    "running_statistics",
    "same_example_in_two_batches",
    "sample_vectors",
    "scaled_features",
    "scaled_outputs",
    "ScaledOutputs",
    "ShapeError",
    "sphere_rings",
    "square_in_plane",
    "StackGradients",
    "standardize_features",
    "statistic_groups",
    "statistics_by_group",
    "steps_to_tolerance",
    "train_eval_gap",
    "train_mlp",
    "TrainEvalGap",
    "TrainingRun",
    "TwoBatches",
    "unit_angles",
    "unit_direction",
    "UnknownLayerError",
    "VARIANTS",
    "weight_decay_run",
    "WeightDecayRun",
    "ZeroVarianceError",
    "ZeroVectorError",
]
