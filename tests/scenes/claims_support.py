"""Property tests of what scenes say: specs drawn across every field's declared range, each scene
built in dry run with the values of every narrated step recorded, and helpers to compare a step's
line with the variant its claim's outcome names.

``spec_strategy(SpecClass)`` reads each setting's type hint and declared range (``setting(low=…,
high=…, items=…)``): whole numbers and numbers over their range (with the ends and, for ranges over
two decades, a log-uniform draw so that small values such as the smallest weight decay come up),
tuples of the declared length, vectors of 2 to 6 entries mixing small whole numbers (so that means
cancel and pairs repeat) with numbers over the range. A drawn spec the scene's ``validate`` refuses
is rejected (a refusal is one line, tested elsewhere), so what is checked is every accepted spec.
"""

from __future__ import annotations

import math
import os
import typing
from typing import Literal, get_args, get_origin

from hypothesis import HealthCheck, assume, settings
from hypothesis import strategies as st
from manim import tempconfig

from scenes.kit.claims import Outcome
from scenes.kit.languages import LANGUAGES
from scenes.kit.spec import SpecError, Vector, Vectors
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step

__all__ = ["spec_strategy", "scene_settings", "build_recorded", "said", "variant", "assert_claims"]

# A scene build takes seconds: a share of the dev profile's examples, at least ``least``. CI (the
# derandomized profile) runs exactly ``least`` examples per scene, a fixed list, to stay within its time.
_BASE = settings()


def scene_settings(share: float = 0.25, least: int = 6):
    """A share of the profile's examples; NORMGEO_SCENE_EXAMPLES sets the count outright (a quick run)."""
    drawn = least if _BASE.derandomize else max(least, int(_BASE.max_examples * share))
    count = int(os.environ.get("NORMGEO_SCENE_EXAMPLES", 0)) or drawn
    return settings(max_examples=count, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])


def _floats(low, high):
    low = -1e4 if low is None else float(low)
    high = 1e4 if high is None else float(high)
    choices = [st.just(low), st.just(high), st.floats(low, high, allow_nan=False, allow_infinity=False)]
    if low > 0 and high / low >= 100:
        choices.append(st.floats(math.log(low), math.log(high)).map(lambda v: min(high, max(low, math.exp(v)))))
    return st.one_of(*choices)


def _integers(low, high):
    low = -1000 if low is None else int(math.ceil(low))
    high = 1000 if high is None else int(math.floor(high))
    return st.one_of(st.just(low), st.just(high), st.integers(low, high))


def _entries(low, high):
    """Vector entries: small whole numbers (cancelling means, equal pairs) or numbers over the range."""
    low = -20.0 if low is None else max(float(low), -1e3)
    high = 20.0 if high is None else min(float(high), 1e3)
    small = st.integers(int(max(low, -3)), int(min(high, 3))).map(float)
    return st.one_of(small, st.floats(low, high, allow_nan=False, allow_infinity=False).map(lambda v: round(v, 3)))


def _field_strategy(hint, meta):
    low, high, items = meta.get("low"), meta.get("high"), meta.get("items")
    if hint is bool:
        return st.booleans()
    if hint is int:
        return _integers(low, high)
    if hint is float:
        return _floats(low, high)
    if get_origin(hint) is Literal:
        return st.sampled_from(get_args(hint))
    count = st.integers(*(items or (1, 5)))
    if hint == Vectors:
        return st.tuples(count, st.integers(2, 6)).flatmap(
            lambda shape: st.lists(st.lists(_entries(low, high), min_size=shape[1], max_size=shape[1]).map(tuple),
                                   min_size=shape[0], max_size=shape[0]).map(tuple))
    if hint == Vector:
        return count.flatmap(lambda n: st.lists(_entries(low, high), min_size=n, max_size=n).map(tuple))
    if get_origin(hint) is tuple:
        inner = _integers(low, high) if get_args(hint)[0] is int else _floats(low, high)
        return count.flatmap(lambda n: st.lists(inner, min_size=n, max_size=n).map(tuple))
    return None  # text fields keep their default


@st.composite
def spec_strategy(draw, spec_class, **fixed):
    """A spec of ``spec_class`` with every setting drawn over its declared range (``fixed`` values,
    strategies, or functions of the fields drawn before it giving a strategy, replace a field's draw),
    in a drawn language; refused specs are rejected."""
    hints = typing.get_type_hints(spec_class)
    values = {"lang": draw(st.sampled_from(LANGUAGES))}
    for field in spec_class.settings():
        given = fixed.get(field.name)
        if callable(given) and not isinstance(given, st.SearchStrategy):
            given = given(values)  # a strategy built from the fields drawn so far
        if given is not None:
            values[field.name] = draw(given) if isinstance(given, st.SearchStrategy) else given
            continue
        strategy = _field_strategy(hints[field.name], field.metadata)
        if strategy is not None:
            values[field.name] = draw(strategy)
    try:
        return spec_class(**values)
    except SpecError:
        assume(False)


def build_recorded(scene_class, spec, media_dir, check_layout: bool = True):
    """Build the scene in dry run; ``scene.said_values[step]`` are the values its narration was filled with.
    With ``check_layout`` the layout is checked at the end of every step and on the last frame."""
    options = {"dry_run": True, "media_dir": str(media_dir), "verbosity": "ERROR", "progress_bar": "none",
               "notify_outdated_version": False}
    with tempconfig(options):
        scene = scene_class(spec=spec, skip_animations=True)
        scene.said_values = {}
        narrate = scene.begin_caption  # where every step's narration starts (say and caption both)

        def recording(step, when=None, **values):
            if check_layout and scene.steps:
                assert_layout_is_clean(scene, require_text=False, when=f"at the end of step {scene.steps[-1].key!r}")
            scene.said_values[step] = dict(values)
            return narrate(step, when, **values)

        scene.begin_caption = recording
        scene.render()
    assert_narrates_every_step(scene)
    if check_layout:
        assert_layout_is_clean(scene)
    return scene


def said(scene) -> dict[str, str]:
    """Each narrated step's line, by step."""
    return {step.key: step.text for step in scene.steps}


def variant(scene, key: str, claim_name: str, outcome, **values) -> str:
    """The text of ``key``'s variant for ``outcome`` (a bool or an outcome name), filled with ``values``."""
    value = ("true" if outcome else "false") if isinstance(outcome, bool) else outcome
    return scene.words(key, when=Outcome(claim_name, value), **values)


def assert_claims(scene, expected: dict[str, tuple[str, object]]) -> None:
    """Every claim the scene made is one of ``expected`` (key → (predicate, outcome computed by the
    test)), with that outcome; a narrated claim's line is that variant filled with the step's values."""
    lines = said(scene)
    assert set(scene.claims_made) == set(expected), (sorted(scene.claims_made), sorted(expected))
    for key, (name, outcome) in expected.items():
        value = ("true" if outcome else "false") if isinstance(outcome, bool) else outcome
        assert scene.claims_made[key] == Outcome(name, value), f"{key}: the scene said {scene.claims_made[key]}, the numbers say {value}"
        if key.startswith("say."):
            step = key.removeprefix("say.")
            assert lines[step] == variant(scene, key, name, outcome, **scene.said_values[step]), key
