"""Every checked parameter of the core is refused by its own name, with the bound it breaks, in
one message: ``steps must be ≥ 1, got 0``, ``radius must be a positive number, got 0.0``,
``tol must be ≥ 0, got -1.0``, ``start holds nan at index [0]; …``. A message naming another
parameter (or none), or a bound off by one, is a bug a user meets first."""

import re

import numpy as np
import pytest

import normgeo
from normgeo import NormGeoError
from normgeo.covariate_shift import TrainingRun, train_mlp
from normgeo.scale_invariance import teacher_problem

H = [[2.0, 0.0], [0.0, 1.0]]
U, W = normgeo.hyperplane_basis(3)


def dimension(name, minimum=1):
    return (minimum - 1, rf"^{re.escape(name)} must be ≥ {minimum}, got {minimum - 1}$")


def positive(name):
    return (0.0, rf"^{re.escape(name)} must be a positive number, got 0.0$")


def nonnegative(name):
    return (-1.0, rf"^{re.escape(name)} must be ≥ 0, got -1.0$")


def finite(name, shape=(2,)):
    value = np.zeros(shape)
    value.flat[0] = np.nan
    return (value, rf"^{re.escape(name)} holds nan at index \[{', '.join('0' * len(shape))}\]; only finite values")


CASES = [
    # (call taking the bad value, bad value, expected message)
    ("same_example_in_two_batches.n_features", lambda v: normgeo.same_example_in_two_batches(n_features=v), *dimension("n_features", 2)),
    ("same_example_in_two_batches.batch_size", lambda v: normgeo.same_example_in_two_batches(batch_size=v), *dimension("batch_size", 2)),
    ("batch_mean_spread.batch_sizes", lambda v: normgeo.batch_mean_spread(batch_sizes=(4, v), trials=10), *dimension("batch size")),
    ("batch_mean_spread.trials", lambda v: normgeo.batch_mean_spread(trials=v), *dimension("trials", 2)),
    ("batch_mean_spread.sigma", lambda v: normgeo.batch_mean_spread(sigma=v, trials=10), *positive("sigma")),
    ("train_eval_gap.batch_sizes", lambda v: normgeo.train_eval_gap(batch_sizes=(v,)), *dimension("batch size", 2)),
    ("angle_between.a", lambda v: normgeo.angle_between(v, [1.0, 2.0]), *finite("a")),
    ("angle_between.b", lambda v: normgeo.angle_between([1.0, 2.0], v), *finite("b")),
    ("rms_layer_norm_angle.eps", lambda v: normgeo.rms_layer_norm_angle([1.0, 2.0, 4.0], eps=v), *nonnegative("eps")),
    ("centring_angle.mean_over_std", lambda v: normgeo.centring_angle(v), *finite("mean_over_std", (1,))),
    ("centring_angle_sweep.ratios", lambda v: normgeo.centring_angle_sweep(ratios=v), *finite("ratios")),
    ("centring_angle_sweep.n", lambda v: normgeo.centring_angle_sweep(n=v), *dimension("n", 2)),
    ("arc_between.radius", lambda v: normgeo.arc_between([1.0, 0.0], [0.0, 1.0], v), *positive("radius")),
    ("arc_between.samples", lambda v: normgeo.arc_between([1.0, 0.0], [0.0, 1.0], 1.0, samples=v), *dimension("samples", 2)),
    ("arc_between.a", lambda v: normgeo.arc_between(v, [0.0, 1.0], 1.0), *finite("a")),
    ("arc_between.b", lambda v: normgeo.arc_between([1.0, 0.0], v, 1.0), *finite("b")),
    ("hyperplane_basis.n", lambda v: normgeo.hyperplane_basis(v), *dimension("n", 2)),
    ("unit_angles.samples", lambda v: normgeo.unit_angles(v), *dimension("samples", 3)),
    ("circle_in_plane.u", lambda v: normgeo.circle_in_plane(v, W, 1.0), *finite("u")),
    ("circle_in_plane.w", lambda v: normgeo.circle_in_plane(U, v, 1.0), *finite("w")),
    ("circle_in_plane.radius", lambda v: normgeo.circle_in_plane(U, W, v), *positive("radius")),
    ("circle_in_plane.center", lambda v: normgeo.circle_in_plane(U, W, 1.0, center=v), *finite("center", (3,))),
    ("sphere_rings.radius", lambda v: normgeo.sphere_rings(v), *positive("radius")),
    ("sphere_rings.latitudes", lambda v: normgeo.sphere_rings(1.0, latitudes=v), *dimension("latitudes")),
    ("sphere_rings.longitudes", lambda v: normgeo.sphere_rings(1.0, longitudes=v), *dimension("longitudes")),
    ("square_in_plane.u", lambda v: normgeo.square_in_plane(v, W, 1.0), *finite("u")),
    ("square_in_plane.w", lambda v: normgeo.square_in_plane(U, v, 1.0), *finite("w")),
    ("square_in_plane.half_side", lambda v: normgeo.square_in_plane(U, W, v), *positive("half_side")),
    ("scaled_features.n_samples", lambda v: normgeo.scaled_features(n_samples=v), *dimension("n_samples", 2)),
    ("scaled_features.scales", lambda v: normgeo.scaled_features(scales=v), *finite("scales")),
    ("gradient_descent_path.start", lambda v: normgeo.gradient_descent_path(H, v, 0.1, 3), *finite("start")),
    ("gradient_descent_path.step", lambda v: normgeo.gradient_descent_path(H, [1.0, 1.0], v, 3), *positive("step")),
    ("gradient_descent_path.n_steps", lambda v: normgeo.gradient_descent_path(H, [1.0, 1.0], 0.1, v), *dimension("n_steps", 0)),
    ("gradient_descent_path.minimum", lambda v: normgeo.gradient_descent_path(H, [1.0, 1.0], 0.1, 3, minimum=v), *finite("minimum")),
    ("steps_to_tolerance.start", lambda v: normgeo.steps_to_tolerance(H, v, 0.1), *finite("start")),
    ("steps_to_tolerance.step", lambda v: normgeo.steps_to_tolerance(H, [1.0, 1.0], v), *positive("step")),
    ("steps_to_tolerance.tol", lambda v: normgeo.steps_to_tolerance(H, [1.0, 1.0], 0.1, tol=v), *positive("tol")),
    ("steps_to_tolerance.minimum", lambda v: normgeo.steps_to_tolerance(H, [1.0, 1.0], 0.1, minimum=v), *finite("minimum")),
    ("gradient_descent_run.step_fraction", lambda v: normgeo.gradient_descent_run(H, [1.0, 1.0], step_fraction=v), *positive("step_fraction")),
    ("quadratic_value.w", lambda v: normgeo.quadratic_value(H, v), *finite("w")),
    ("quadratic_value.minimum", lambda v: normgeo.quadratic_value(H, [1.0, 1.0], minimum=v), *finite("minimum")),
    ("contour_levels.ratio", lambda v: normgeo.contour_levels(H, [1.0, 1.0], ratio=v), *positive("ratio")),
    ("contour_levels.count", lambda v: normgeo.contour_levels(H, [1.0, 1.0], count=v), *dimension("count")),
    ("quadratic_contours.levels", lambda v: normgeo.quadratic_contours(H, v), *finite("levels")),
    ("quadratic_contours.level", lambda v: normgeo.quadratic_contours(H, [1.0, v]), *positive("level")),
    ("quadratic_contours.samples", lambda v: normgeo.quadratic_contours(H, [1.0], samples=v), *dimension("samples", 3)),
    ("quadratic_contours.minimum", lambda v: normgeo.quadratic_contours(H, [1.0], minimum=v), *finite("minimum")),
    ("conditioning_demo.drawn_kappa", lambda v: normgeo.conditioning_demo(drawn_kappa=v), *positive("drawn_kappa")),
    ("output_radius.n", lambda v: normgeo.output_radius("rmsnorm", v), *dimension("n")),
    ("degrees_of_freedom.n", lambda v: normgeo.degrees_of_freedom("l2", v), *dimension("n")),
    ("train_mlp.steps", lambda v: train_mlp("none", steps=v), *dimension("steps")),
    ("train_mlp.learning_rate", lambda v: train_mlp("none", learning_rate=v), *positive("learning_rate")),
    ("smoothed_losses.window", lambda v: TrainingRun("none", np.ones(3), np.ones(2), np.ones(2)).smoothed_losses(v),
     *dimension("window")),
    ("ones_direction.n", lambda v: normgeo.ones_direction(v), *dimension("n")),
    ("dynamic_tanh.alpha", lambda v: normgeo.dynamic_tanh([1.0, 2.0], v), *finite("alpha", (1,))),
    ("dynamic_tanh_fit.tokens", lambda v: normgeo.dynamic_tanh_fit(tokens=v), *dimension("tokens", 2)),
    ("dynamic_tanh_fit.channels", lambda v: normgeo.dynamic_tanh_fit(channels=v, massive_channels=0), *dimension("channels", 2)),
    ("dynamic_tanh_fit.massive_channels", lambda v: normgeo.dynamic_tanh_fit(massive_channels=v),
     *dimension("massive_channels", 0)),
    ("dynamic_tanh_fit.largest_massive", lambda v: normgeo.dynamic_tanh_fit(largest_massive=v), *positive("largest_massive")),
    ("layer_norm_gradient_split.x", lambda v: normgeo.layer_norm_gradient_split(v, [1.0, 2.0]), *finite("x")),
    ("layer_norm_gradient_split.gradient", lambda v: normgeo.layer_norm_gradient_split([1.0, 3.0], v), *finite("gradient")),
    ("normalize.eps", lambda v: normgeo.normalize([1.0, 2.0], eps=v), *nonnegative("eps")),
    ("l2_normalize.eps", lambda v: normgeo.l2_normalize([1.0, 2.0], eps=v), *nonnegative("eps")),
    ("group_norm.num_groups", lambda v: normgeo.group_norm([[1.0, 2.0]], v), *dimension("num_groups")),
    ("distance.a", lambda v: normgeo.distance(v, [1.0, 2.0]), *finite("a")),
    ("distance.b", lambda v: normgeo.distance([1.0, 2.0], v), *finite("b")),
    ("layer_norm_output_radius.sigma", lambda v: normgeo.layer_norm_output_radius(v, 3, 0.1), *finite("sigma")),
    ("layer_norm_output_radius.n", lambda v: normgeo.layer_norm_output_radius(1.0, v, 0.1), *dimension("n", 2)),
    ("layer_norm_output_radius.eps", lambda v: normgeo.layer_norm_output_radius(1.0, 3, v), *nonnegative("eps")),
    ("layer_norm_output_curve.weight", lambda v: normgeo.layer_norm_output_curve(weight=v), *finite("weight", (3,))),
    ("layer_norm_output_curve.bias", lambda v: normgeo.layer_norm_output_curve(bias=v), *finite("bias", (3,))),
    ("radial_projection.radius", lambda v: normgeo.radial_projection([1.0, 2.0], v), *positive("radius")),
    ("make_stack.depth", lambda v: normgeo.make_stack(depth=v), *dimension("depth")),
    ("make_stack.width", lambda v: normgeo.make_stack(width=v), *dimension("width", 2)),
    ("make_stack.sublayer_scale", lambda v: normgeo.make_stack(sublayer_scale=v), *positive("sublayer_scale")),
    ("prenorm_postnorm_study.stacks", lambda v: normgeo.prenorm_postnorm_study(stacks=v), *dimension("stacks")),
    ("sample_vectors.count", lambda v: normgeo.sample_vectors(v, 3), *dimension("count")),
    ("sample_vectors.n", lambda v: normgeo.sample_vectors(2, v), *dimension("n")),
    ("sample_vectors.scale", lambda v: normgeo.sample_vectors(2, 3, scale=v), *positive("scale")),
    ("linear_layer_norm.w", lambda v: normgeo.linear_layer_norm(v, np.ones((1, 2))), *finite("W", (2, 2))),
    ("linear_layer_norm.x", lambda v: normgeo.linear_layer_norm(np.eye(2), v), *finite("x", (1, 2))),
    ("linear_layer_norm_loss.w", lambda v: normgeo.linear_layer_norm_loss(v, np.ones((1, 2)), np.ones((1, 2))),
     *finite("W", (2, 2))),
    ("linear_layer_norm_loss.x", lambda v: normgeo.linear_layer_norm_loss(np.eye(2), v, np.ones((1, 2))), *finite("x", (1, 2))),
    ("linear_layer_norm_loss.target", lambda v: normgeo.linear_layer_norm_loss(np.eye(2), np.ones((1, 2)) * [1, 2], v),
     *finite("target", (1, 2))),
    ("teacher_problem.noise", lambda v: teacher_problem(noise=v), *nonnegative("noise")),
    ("teacher_problem.d_in", lambda v: teacher_problem(d_in=v), *dimension("d_in")),
    ("teacher_problem.d_out", lambda v: teacher_problem(d_out=v), *dimension("d_out", 2)),
    ("weight_decay_run.steps", lambda v: normgeo.weight_decay_run(steps=v), *dimension("steps")),
    ("weight_decay_run.learning_rate", lambda v: normgeo.weight_decay_run(learning_rate=v), *positive("learning_rate")),
    ("weight_decay_run.weight_decay", lambda v: normgeo.weight_decay_run(weight_decay=v), *nonnegative("weight_decay")),
    ("weight_decay_run.initial_norm", lambda v: normgeo.weight_decay_run(initial_norm=v), *positive("initial_norm")),
    ("scaled_outputs.factors", lambda v: normgeo.scaled_outputs(factors=v), *finite("factors")),
    ("scaled_outputs.d_in", lambda v: normgeo.scaled_outputs(d_in=v), *dimension("d_in")),
    ("scaled_outputs.d_out", lambda v: normgeo.scaled_outputs(d_out=v), *dimension("d_out", 2)),
    ("norm_growth_run.steps", lambda v: normgeo.norm_growth_run(steps=v), *dimension("steps")),
    ("norm_growth_run.learning_rate", lambda v: normgeo.norm_growth_run(learning_rate=v), *positive("learning_rate")),
    ("norm_growth_run.weight_decay", lambda v: normgeo.norm_growth_run(weight_decay=v), *nonnegative("weight_decay")),
    ("norm_growth_run.batch_size", lambda v: normgeo.norm_growth_run(batch_size=v), *dimension("batch_size")),
    ("norm_growth_run.initial_norm", lambda v: normgeo.norm_growth_run(initial_norm=v), *positive("initial_norm")),
    ("distance_to_sphere.radius", lambda v: normgeo.distance_to_sphere([1.0, 2.0], v), *positive("radius")),
    ("on_sphere.radius", lambda v: normgeo.on_sphere([1.0, 2.0], v), *positive("radius")),
    ("on_sphere.tol", lambda v: normgeo.on_sphere([1.0, 2.0], 1.0, tol=v), *nonnegative("tol")),
    ("on_zero_mean_hyperplane.tol", lambda v: normgeo.on_zero_mean_hyperplane([1.0, -1.0], tol=v), *nonnegative("tol")),
    ("averaged_axes.ndim", lambda v: normgeo.averaged_axes("layernorm", v), *dimension("ndim")),
    ("statistic_groups.shape", lambda v: normgeo.statistic_groups("layernorm", (2, v)), *dimension("shape entry")),
    ("statistic_groups.num_groups", lambda v: normgeo.statistic_groups("groupnorm", (2, 4), num_groups=v),
     *dimension("num_groups")),
    ("statistics_by_group.values", lambda v: normgeo.statistics_by_group(v, np.zeros((1, 2), dtype=int)),
     *finite("values", (1, 2))),
    ("count_nearest.points", lambda v: normgeo.count_nearest(v, np.eye(2)), *finite("points", (1, 2))),
    ("count_nearest.targets", lambda v: normgeo.count_nearest(np.eye(2), v), *finite("targets", (1, 2))),
    ("count_nearest.tol", lambda v: normgeo.count_nearest(np.eye(2), np.eye(2), tol=v), *nonnegative("tol")),
    ("view_angles.direction", lambda v: normgeo.view_angles(v), *finite("direction", (3,))),
]


@pytest.mark.parametrize(("call", "bad", "message"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_bad_parameter_is_refused_by_its_own_name_and_bound(call, bad, message):
    with pytest.raises(NormGeoError) as error:
        call(bad)
    assert re.search(message, str(error.value)), str(error.value)


OTHER_REFUSALS = [
    ("layernorm of one number", lambda: normgeo.output_radius("layernorm", 1),
     r"^layernorm of a single number is always 0: it has no sphere \(n must be ≥ 2\)$"),
    ("hessian of a vector", lambda: normgeo.least_squares_hessian([1.0, 2.0]), r"^X must have at least 2 dimension"),
    ("hessian of a 3-D array", lambda: normgeo.least_squares_hessian(np.ones((2, 2, 2))), r"^X must be a 2-D matrix"),
    ("scales not positive", lambda: normgeo.scaled_features(scales=(1.0, 0.0)), r"^scales must be a 1-D list of positive numbers$"),
    ("too few samples", lambda: normgeo.scaled_features(n_samples=2, scales=(1.0, 1.0)),
     r"^n_samples must exceed the number of features \(2\)$"),
    ("impossible correlation", lambda: normgeo.scaled_features(correlation=-1.0),
     r"^correlation -1.0 does not give a positive definite correlation matrix$"),
    ("step at 2/L", lambda: normgeo.gradient_descent_run(H, [1.0, 1.0], step_fraction=1.0),
     r"^step_fraction must be below 1: at 2/L or above gradient descent does not converge$"),
    ("contours in 3-D", lambda: normgeo.quadratic_contours(np.eye(3), [1.0]), r"^contours are drawn for 2-D quadratics only$"),
    ("contours of a singular H", lambda: normgeo.quadratic_contours([[1.0, 0.0], [0.0, 0.0]], [1.0]),
     r"^H is not positive definite: its level sets are not ellipses$"),
    ("contours of an indefinite H", lambda: normgeo.quadratic_contours([[1.0, 0.0], [0.0, -1.0]], [1.0]),
     r"^H is not positive definite: its level sets are not ellipses$"),
    ("batchnorm has no per-vector constraint", lambda: normgeo.constraints("batchnorm"),
     r"^batchnorm normalizes across examples; it fixes no per-vector constraint$"),
    ("no fixed length", lambda: normgeo.output_radius("batchnorm", 3), r"^batchnorm outputs have no fixed length$"),
]


@pytest.mark.parametrize(("call", "message"), [case[1:] for case in OTHER_REFUSALS], ids=[c[0] for c in OTHER_REFUSALS])
def test_other_refusals_say_exactly_what_is_wrong(call, message):
    with pytest.raises(NormGeoError) as error:
        call()
    assert re.search(message, str(error.value)), str(error.value)
