"""scenes.kit.depth: the sphere's half facing the camera is the bright one, from any view; a pinned
label sits where the camera draws its point after the camera turns; opacity follows depth."""

import numpy as np
import pytest
from manim import DEGREES, ThreeDScene, tempconfig

from scenes.kit.adapters import make_space_axes, to_coordinates
from scenes.kit.depth import BACK, FRONT, DepthSphere, axis_names, depths, follow_depth, outermost, pin_label
from scenes.kit.theme import palette
from scenes.kit.widgets import math_mobject

VIEWS = [(0.0, 0.0), (68 * DEGREES, -35 * DEGREES), (90 * DEGREES, -45 * DEGREES), (120 * DEGREES, 200 * DEGREES)]


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    with tempconfig({"dry_run": True, "media_dir": str(tmp_path_factory.mktemp("media")), "verbosity": "ERROR"}):
        scene = ThreeDScene(skip_animations=True)
        scene.setup()
        yield scene


def toward_camera(phi, theta):
    """The unit vector from the origin to the camera, from Manim's spherical angles (independent of R)."""
    return np.array([np.sin(phi) * np.cos(theta), np.sin(phi) * np.sin(theta), np.cos(phi)])


@pytest.mark.parametrize("phi, theta", VIEWS)
def test_the_near_half_of_every_ring_faces_the_camera(scene, phi, theta):
    scene.set_camera_orientation(phi=phi, theta=theta)
    axes = make_space_axes(2.0, 4.0, palette("dark"))
    sphere = DepthSphere(axes, scene.renderer.camera, 1.5, palette("dark").rmsnorm)
    sphere.update()
    eye = toward_camera(phi, theta)
    step = 2 * np.pi * 1.5 / 72 * 1.01  # one sample's arc: the sample across the cut
    for near, far in zip(sphere.near, sphere.far):
        for part, sign in ((near, 1), (far, -1)):
            if np.ptp(part.points, axis=0).max() > 0:  # an empty half is one repeated point
                core = to_coordinates(axes, part.points, 3)
                assert (sign * core @ eye >= -step).all()
    assert all(m.get_stroke_opacity() == pytest.approx(FRONT) for m in sphere.near)
    assert all(m.get_stroke_opacity() == pytest.approx(BACK) for m in sphere.far)
    assert sphere.far[0].get_stroke_width() < sphere.near[0].get_stroke_width()


def test_depth_has_the_sign_of_the_view_direction(scene):
    phi, theta = 68 * DEGREES, -35 * DEGREES
    scene.set_camera_orientation(phi=phi, theta=theta)
    axes = make_space_axes(2.0, 4.0, palette("dark"))
    eye = toward_camera(phi, theta)
    got = depths(scene.renderer.camera, axes, np.array([eye, -eye, np.cross(eye, [0, 0, 1.0])]))
    unit = axes.get_x_unit_size()
    assert got == pytest.approx([unit, -unit, 0.0], abs=1e-9)


def test_a_pinned_label_follows_its_point_when_the_camera_turns(scene):
    scene.set_camera_orientation(phi=68 * DEGREES, theta=-35 * DEGREES)
    axes = make_space_axes(2.0, 4.0, palette("dark"))
    label = pin_label(scene, axes, [1.0, 0.0, 0.0], math_mobject("x", "#ffffff"))
    before = label.get_center().copy()
    scene.set_camera_orientation(phi=30 * DEGREES, theta=60 * DEGREES)
    label.update()
    camera = scene.renderer.camera
    camera.reset_rotation_matrix()
    screen = camera.project_point(axes.c2p(1.0, 0.0, 0.0))
    assert not np.allclose(before, label.get_center())
    assert label.get_corner((-1, -1, 0))[:2] == pytest.approx(screen[:2] + 0.12, abs=1e-9)
    names = axis_names(scene, axes, 2.0, palette("dark").muted)
    assert len(names) == 3 and all(name in camera.fixed_in_frame_mobjects for name in names)


def test_opacity_follows_depth(scene):
    scene.set_camera_orientation(phi=0.0, theta=0.0)  # from above: depth is x₃
    axes = make_space_axes(2.0, 4.0, palette("dark"))
    top = follow_depth(math_mobject("a", "#ffffff"), axes, scene.renderer.camera, [0, 0, 2.0], extent=2.0)
    bottom = follow_depth(math_mobject("b", "#ffffff"), axes, scene.renderer.camera, [0, 0, -2.0], extent=2.0)
    assert top.get_fill_opacity() == pytest.approx(1.0) and bottom.get_fill_opacity() == pytest.approx(0.35)


def test_outermost_is_the_point_drawn_farthest_that_way(scene):
    scene.set_camera_orientation(phi=0.0, theta=-90 * DEGREES)  # from above, x₁ to the right
    axes = make_space_axes(2.0, 4.0, palette("dark"))
    points = np.array([[1.0, 0, 0], [-1.0, 0, 0], [0, 1.0, 0], [0, -1.0, 0]])
    assert outermost(scene.renderer.camera, axes, points, (1, 0, 0)).tolist() == [1.0, 0, 0]
    assert outermost(scene.renderer.camera, axes, points, (0, 1, 0)).tolist() == [0, 1.0, 0]
