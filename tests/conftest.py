"""Hypothesis profiles: ``dev`` (default) runs few examples, ``ci`` many (HYPOTHESIS_PROFILE=ci)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=40, deadline=None)
settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
