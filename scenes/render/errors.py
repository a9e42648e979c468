"""The pipeline's one error for bad input (an unknown scene, a bad spec file, an unwritable folder).

The CLI shows it as one ``normgeo: error: …`` line with exit status 2; the pipeline never exits.
"""

from __future__ import annotations

__all__ = ["InputError"]


class InputError(ValueError):
    """Bad input from the user; the message is one line saying what and why."""
