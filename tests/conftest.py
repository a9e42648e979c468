"""Hypothesis profiles: ``dev`` (default) runs few random examples; ``ci`` (HYPOTHESIS_PROFILE=ci)
runs many, derandomized so that a CI failure reproduces on every rerun."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=40, deadline=None)
settings.register_profile(
    "ci", max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
