"""scale-invariance's and layernorm-gradient's predicates about ‖W‖, against the closed-form growth law
‖W′‖² = (1 − ηλ)²‖W‖² + η²‖∇‖² and against longer runs (brute force: a settled norm stays put)."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from normgeo import norm_growth_run, weight_decay_run
from normgeo.scale_invariance import WeightDecayRun


@given(lr=st.floats(1e-4, 1.0), steps=st.integers(10, 200), seed=st.integers(0, 2**32 - 1))
def test_without_decay_the_norm_never_falls(lr, steps, seed):
    """λ = 0: each step adds η²‖∇‖² ≥ 0 to ‖W‖², so the trend is never "falls"."""
    run = weight_decay_run(steps, lr, 0.0, seed=seed)
    assert np.all(np.diff(run.weight_norms) >= -1e-12 * run.weight_norms[1:])
    assert run.norm_trend() in ("rises", "flat")


def test_the_smallest_weight_decay_lets_the_norm_rise_and_the_largest_makes_it_fall():
    """The hard case of the issue: λ = 10⁻⁴ (the spec's smallest) at η = 0.2 over 150 steps."""
    small = weight_decay_run(150, 0.2, 1e-4)
    assert small.weight_norms[-1] > small.weight_norms[0] and small.norm_trend() == "rises"
    assert small.effective_steps[-1] < small.effective_steps[0]
    large = weight_decay_run(150, 0.2, 0.5)
    assert large.weight_norms[-1] < large.weight_norms[0] and large.norm_trend() == "falls"


def test_a_pure_decay_run_falls_by_the_closed_form():
    """With no gradient the norm is ‖W₀‖(1 − ηλ)^t; the trend thresholds are relative to the start."""
    t = np.arange(101)
    for rate, expected in ((0.01, "falls"), (1e-7, "flat")):
        norms = 6.0 * (1 - rate) ** t
        run = WeightDecayRun(norms, 0.2 / norms**2, np.zeros_like(norms), 0.2, rate / 0.2)
        assert run.norm_trend() == expected


def test_decay_effect_holds_slows_and_barely_by_longer_runs():
    """"holds": a run four times as long averages, over its last quarter, within 5 % (minibatch noise) of this run's
    last quarter; "slows": a longer run ends higher still (not yet at its level); "barely": the decayed end is within 10 % of
    plain SGD's."""
    plain = norm_growth_run(300, 0.5, 0.0, 2.0)
    tiny = norm_growth_run(300, 0.5, 1e-4, 2.0)
    assert tiny.decay_effect(plain) == "barely" and tiny.weight_norms[-1] > 0.9 * plain.weight_norms[-1]
    for decay in (0.02, 0.2):
        run, longer = norm_growth_run(300, 0.5, decay, 2.0), norm_growth_run(1200, 0.5, decay, 2.0)
        assert run.decay_effect(plain) == "holds"
        assert abs(longer.weight_norms[-300:].mean() - run.weight_norms[-75:].mean()) <= 0.05 * run.weight_norms[-75:].mean()
    weak, weak_longer = norm_growth_run(300, 0.5, 0.002, 2.0), norm_growth_run(1200, 0.5, 0.002, 2.0)
    assert weak.decay_effect(plain) == "slows"
    assert weak_longer.weight_norms[-300:].mean() > 1.03 * weak.weight_norms[-75:].mean()  # still on its way
    assert not plain.settled()  # plain SGD keeps growing (‖W‖⁴ grows about linearly in t)
