"""The core is numpy-only: importing it loads neither manim, the scenes nor torch."""

import subprocess
import sys


def test_importing_normgeo_loads_no_manim():
    """A fresh interpreter that imports normgeo (and uses it) has no manim, scenes or torch module loaded (torch is a test-only reference)."""
    code = (
        "import sys, normgeo; normgeo.radial_projection([3.0, 4.0]); "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'manim', 'scenes', 'cairo', 'manimpango', 'torch'}); "
        "print(','.join(bad))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
