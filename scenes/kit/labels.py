"""Labels that sit next to what they name and move with it: an arrow's label beside its tip, a
circle's label just outside the circle, a point's label beside the point.

Every placement puts the label's whole box on the far side of a line through the anchor point:
with ``u`` the unit direction from the anchor to the label, the box's centre goes to
``anchor + u·(buff + a·|uₓ| + b·|u_y|)`` (``a``, ``b`` the box's half width and height), so the
box's nearest point along ``u`` is ``buff`` past the anchor. For a circle the line is its tangent,
so no label ever covers the circle it names.

>>> import numpy as np
>>> np.round(beyond(np.zeros(3), np.array([1.0, 0.0, 0.0]), 2.0, 1.0, 0.1), 6).tolist()
[1.1, 0.0, 0.0]

``follow(label, place)`` keeps a label where ``place`` puts it on every frame (an updater), so it
moves with its object; the functions take scene points (``scenes.kit.adapters.to_points``).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

__all__ = ["beyond", "at_point", "on_circle", "at_tip", "clearest_angle", "clearest_place", "box_gap", "polygon_segments", "follow"]

BUFF = 0.12


def _unit(vector) -> np.ndarray:
    v = np.asarray(vector, dtype=float)[:3]
    v = np.concatenate([v, np.zeros(3 - v.size)])
    length = np.linalg.norm(v[:2])
    if length == 0:
        raise ValueError("a label needs a direction of non-zero length")
    return np.array([v[0] / length, v[1] / length, 0.0])


def beyond(anchor, direction, width: float, height: float, buff: float = BUFF) -> np.ndarray:
    """The centre of a ``width`` × ``height`` box whose nearest point along ``direction`` is ``buff``
    past ``anchor`` (the whole box beyond the line through ``anchor`` normal to ``direction``)."""
    u = _unit(direction)
    reach = width / 2 * abs(u[0]) + height / 2 * abs(u[1])
    return np.asarray(anchor, dtype=float)[:3] + u * (buff + reach)


def at_point(label, point, direction, buff: float = BUFF):
    """``label`` beside ``point`` (a dot), towards ``direction``."""
    return label.move_to(beyond(point, direction, label.width, label.height, buff))


def on_circle(label, center, radius: float, angle: float, buff: float = BUFF, inside: bool = False):
    """``label`` just outside the circle of ``radius`` (scene units) about ``center``, at polar
    ``angle`` (radians): beyond the circle's tangent there; with ``inside``, just inside it instead
    (its box as far in from the tangent, which for a label narrower than the circle keeps it inside)."""
    u = np.array([np.cos(angle), np.sin(angle), 0.0])
    point = np.asarray(center, dtype=float)[:3] + radius * u
    return label.move_to(beyond(point, -u if inside else u, label.width, label.height, buff))


def at_tip(label, start, end, avoid=(), buff: float = BUFF, lean: float = 0.35):
    """``label`` beside the tip ``end`` of the arrow from ``start``: off the arrow's normal,
    leaning ``lean`` (a share of the normal) forward past the tip, on the side whose place is
    farther from the points ``avoid`` (other tips, other labels; the left side when none)."""
    along = _unit(np.asarray(end, dtype=float) - np.asarray(start, dtype=float))
    left = np.array([-along[1], along[0], 0.0])
    best, best_gap = None, -np.inf
    for side in (left, -left):
        place = beyond(end, side + lean * along, label.width, label.height, buff)
        gap = min((np.linalg.norm((place - np.asarray(p, dtype=float)[:3])[:2]) for p in avoid), default=0.0)
        if gap > best_gap + 1e-9:
            best, best_gap = place, gap
    return label.move_to(best)


def clearest_angle(center, points, candidates=None) -> float:
    """Of the ``candidates`` polar angles (radians; 16 around the circle by default), the one farthest
    in angle from the directions of ``points`` seen from ``center``: where a circle's label crowds
    nothing."""
    candidates = np.linspace(0, 2 * np.pi, 16, endpoint=False) if candidates is None else np.asarray(candidates)
    offsets = np.asarray(points, dtype=float).reshape(-1, 3)[:, :2] - np.asarray(center, dtype=float)[:2]
    offsets = offsets[np.linalg.norm(offsets, axis=1) > 1e-9]
    if not offsets.size:
        return float(candidates[0])
    taken = np.arctan2(offsets[:, 1], offsets[:, 0])
    gaps = [np.min(np.abs(np.angle(np.exp(1j * (c - taken))))) for c in candidates]
    return float(candidates[int(np.argmax(gaps))])


def _outside(center, width: float, height: float, segments) -> np.ndarray:
    """How far each of 24 samples per segment lies outside the box (0 inside it)."""
    segments = np.asarray(segments, dtype=float).reshape(-1, 2, 3)
    t = np.linspace(0.0, 1.0, 24)[None, :, None]
    points = (segments[:, :1, :2] * (1 - t) + segments[:, 1:, :2] * t).reshape(-1, 2)
    return np.linalg.norm(np.maximum(np.abs(points - np.asarray(center, dtype=float)[:2]) - [width / 2, height / 2], 0.0),
                          axis=1)


def box_gap(center, width: float, height: float, segments) -> float:
    """The least distance from the ``width`` × ``height`` box about ``center`` to the ``segments``
    (pairs of scene points; 0 where one crosses the box), sampled at 24 points per segment."""
    if not len(segments):
        return np.inf
    return float(np.min(_outside(center, width, height, segments)))


def clearest_place(label, places, segments, inside=None, faint=()):
    """Move ``label`` to the one of ``places`` (candidate centres) whose box lies farthest from the
    ``segments`` (pairs of scene points: arrows, lines, a circle as a polygon), and among places as
    far from them, the one that covers the least of the ``faint`` segments (things drawn dimmed, which a
    label may cross);
    with ``inside`` ((left, bottom), (right, top)), only places whose box fits in it, where there are any."""
    places = [np.asarray(p, dtype=float)[:3] for p in places]
    if inside is not None:
        (left, bottom), (right, top) = inside
        w, h = label.width / 2, label.height / 2
        fitting = [p for p in places if left <= p[0] - w and p[0] + w <= right and bottom <= p[1] - h and p[1] + h <= top]
        places = fitting or places
    def clearance(place):
        crossed = int(np.sum(_outside(place, label.width, label.height, faint) == 0)) if len(faint) else 0
        return round(box_gap(place, label.width, label.height, segments), 6), -crossed

    best = max(places, key=clearance)
    return label.move_to(best)


def polygon_segments(points) -> np.ndarray:
    """The closed polygon through ``points`` (scene points, e.g. sampled on a circle) as segments."""
    points = np.asarray(points, dtype=float)
    return np.stack([points, np.roll(points, -1, axis=0)], axis=1)


def follow(label, place: Callable):
    """Keep ``label`` where ``place(label)`` puts it, every frame (it moves with its object)."""
    label.add_updater(lambda mobject: place(mobject))
    place(label)
    return label
