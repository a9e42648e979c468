"""normgeo: the geometry of normalization layers, exact and numpy-only.

Radial projection onto spheres, the decomposition x = μ·1 + (x − μ·1), every
normalization layer as one formula over different axes, degrees of freedom,
conditioning, and the small simulations the videos plot. Never imports manim.
"""

from normgeo.batch_dependence import (
    BatchMeanSpread,
    TrainEvalGap,
    TwoBatches,
    batch_mean_spread,
    running_statistics,
    same_example_in_two_batches,
    train_eval_gap,
)
from normgeo.batch_geometry import ChannelColumns, batch_norm_columns
from normgeo.centring import CentringSweep, angle_between, centring_angle, centring_angle_sweep, rms_layer_norm_angle
from normgeo.centring_parts import MeanAndSpread, arc_between, mean_and_spread
from normgeo.circles import circle_in_plane, hyperplane_basis, sphere_rings, square_in_plane, unit_angles
from normgeo.conditioning import (
    ConditioningDemo,
    GradientDescentRun,
    condition_number,
    conditioning_demo,
    contour_levels,
    gradient_descent_path,
    gradient_descent_run,
    largest_stable_step,
    least_squares_hessian,
    quadratic_contours,
    quadratic_value,
    scaled_features,
    standardize_features,
    steps_to_tolerance,
)
from normgeo.counting import constraints, degrees_of_freedom, output_radius
from normgeo.covariate_shift import VARIANTS, CovariateShiftStudy, TrainingRun, covariate_shift_study, train_mlp
from normgeo.decomposition import Decomposition, decompose, ones_direction, project_to_zero_mean_hyperplane
from normgeo.depth_profile import DepthSummary, DepthTrend, LayerProfile, depth_summary, depth_trend, layer_profile
from normgeo.dynamic_tanh import DynamicTanhFit, dynamic_tanh, dynamic_tanh_fit
from normgeo.errors import (
    EmptyInputError,
    InvalidParameterError,
    NonFiniteError,
    NormGeoError,
    ShapeError,
    UnknownLayerError,
    UnmatchedPointError,
    ZeroVarianceError,
    ZeroVectorError,
)
from normgeo.effective_dimension import (
    EffectiveDimension,
    clip_lengths,
    output_span,
    participation_ratio,
    principal_directions,
    radial_view,
)
from normgeo.gradient_orthogonality import (
    GradientSplit,
    NormGrowthSummary,
    layer_norm_gradient_split,
    norm_growth_summary,
)
from normgeo.hidden_states import (
    MassiveTokens,
    as_token_states,
    massive_tokens,
    mean_share,
    normalized_radius,
    token_centring_angles,
    token_mean_and_spread,
    token_norms,
)
from normgeo.jacobians import layer_norm_jacobian, rms_norm_jacobian
from normgeo.layers import Layer, parse_layer
from normgeo.normalize import batch_norm, group_norm, l2_normalize, layer_norm, normalize, rms_norm
from normgeo.norms import distance, euclidean_norm, root_mean_square
from normgeo.output_ellipsoid import OutputEllipsoid, output_ellipsoid
from normgeo.step_size_sweep import (
    DEFAULT_STEP_SIZES,
    RegressionTask,
    StepSizeSweep,
    regression_task,
    step_size_sweep,
    task_loss_and_gradients,
    training_losses,
)
from normgeo.output_set import TYPICAL_EPS, layer_norm_output_curve, layer_norm_output_radius, spread_pulled_inside
from normgeo.projection import radial_projection, unit_direction
from normgeo.residual_stacks import StackGradients, block_gradient_norms, make_stack, prenorm_postnorm_study
from normgeo.samples import sample_vectors
from normgeo.scale_invariance import (
    NormGrowthRun,
    ScaledOutputs,
    WeightDecayRun,
    linear_layer_norm,
    linear_layer_norm_loss,
    norm_growth_run,
    scaled_outputs,
    weight_decay_run,
)
from normgeo.sets import (
    distance_to_sphere,
    distance_to_zero_mean_hyperplane,
    on_sphere,
    on_zero_mean_hyperplane,
)
from normgeo.statistic_groups import GroupStatistics, averaged_axes, statistic_groups, statistics_by_group
from normgeo.tally import count_nearest
from normgeo.view import view_angles

__version__ = "0.1.0"

__all__ = [
    "DepthSummary",
    "depth_summary",
    "clip_lengths",
    "DepthTrend",
    "LayerProfile",
    "depth_trend",
    "layer_profile",
    "EffectiveDimension",
    "output_span",
    "participation_ratio",
    "principal_directions",
    "radial_view",
    "MassiveTokens",
    "as_token_states",
    "massive_tokens",
    "mean_share",
    "normalized_radius",
    "token_centring_angles",
    "token_mean_and_spread",
    "token_norms",
    "OutputEllipsoid",
    "output_ellipsoid",
    "training_losses",
    "task_loss_and_gradients",
    "step_size_sweep",
    "regression_task",
    "StepSizeSweep",
    "RegressionTask",
    "DEFAULT_STEP_SIZES",
    "angle_between",
    "arc_between",
    "averaged_axes",
    "batch_mean_spread",
    "batch_norm",
    "batch_norm_columns",
    "BatchMeanSpread",
    "block_gradient_norms",
    "centring_angle",
    "centring_angle_sweep",
    "CentringSweep",
    "ChannelColumns",
    "circle_in_plane",
    "condition_number",
    "conditioning_demo",
    "ConditioningDemo",
    "constraints",
    "contour_levels",
    "count_nearest",
    "covariate_shift_study",
    "CovariateShiftStudy",
    "decompose",
    "Decomposition",
    "degrees_of_freedom",
    "distance",
    "distance_to_sphere",
    "distance_to_zero_mean_hyperplane",
    "dynamic_tanh",
    "dynamic_tanh_fit",
    "DynamicTanhFit",
    "EmptyInputError",
    "euclidean_norm",
    "gradient_descent_path",
    "gradient_descent_run",
    "GradientDescentRun",
    "GradientSplit",
    "group_norm",
    "GroupStatistics",
    "hyperplane_basis",
    "InvalidParameterError",
    "l2_normalize",
    "largest_stable_step",
    "Layer",
    "layer_norm",
    "layer_norm_gradient_split",
    "layer_norm_jacobian",
    "layer_norm_output_curve",
    "layer_norm_output_radius",
    "least_squares_hessian",
    "linear_layer_norm",
    "linear_layer_norm_loss",
    "make_stack",
    "mean_and_spread",
    "MeanAndSpread",
    "NonFiniteError",
    "norm_growth_run",
    "norm_growth_summary",
    "normalize",
    "NormGeoError",
    "NormGrowthRun",
    "NormGrowthSummary",
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
    "rms_layer_norm_angle",
    "rms_norm",
    "rms_norm_jacobian",
    "root_mean_square",
    "running_statistics",
    "same_example_in_two_batches",
    "sample_vectors",
    "scaled_features",
    "scaled_outputs",
    "ScaledOutputs",
    "ShapeError",
    "sphere_rings",
    "spread_pulled_inside",
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
    "TYPICAL_EPS",
    "unit_angles",
    "unit_direction",
    "UnknownLayerError",
    "UnmatchedPointError",
    "VARIANTS",
    "view_angles",
    "weight_decay_run",
    "WeightDecayRun",
    "ZeroVarianceError",
    "ZeroVectorError",
]
