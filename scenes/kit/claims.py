"""Claims: narration bound to the numbers.

A sentence that states a comparison, a trend or a law is not fixed text. Its message in the scene's
TOML names the predicate that decides it and holds one true variant per outcome:

.. code-block:: toml

    [say.two-batches]
    claim = 'batchnorm_outputs_differ'      # an attribute of a core result
    true.en = 'BatchNorm gives it two different outputs …'
    false.en = 'here BatchNorm happens to give it the same output in both …'

The scene never decides which: it hands over the core's result, ``claim(self.pair,
"batchnorm_outputs_differ")``, and the text picks the variant named by the outcome. A predicate is
a boolean (variants ``true`` and ``false``) or a string naming one of several outcomes. Asking for
a claim message without the outcome, with another claim's outcome, or with an outcome the message
does not give is an error: no sentence can be spoken without the predicate that makes it true.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Outcome", "claim", "ClaimError"]


class ClaimError(ValueError):
    """A claim's predicate is missing, or is not a boolean or an outcome name."""


@dataclass(frozen=True)
class Outcome:
    """What a core predicate said: its name (as the TOML's ``claim`` names it) and its outcome."""

    claim: str
    value: str

    def __str__(self) -> str:
        return f"{self.claim} = {self.value}"


def claim(source, name: str, *args, **kwargs) -> Outcome:
    """The outcome of the predicate ``name`` of the core result ``source``: its attribute (or
    method, called with ``args``) ``name``, a bool (→ "true"/"false") or an outcome name (a str).

    >>> from types import SimpleNamespace
    >>> claim(SimpleNamespace(grows=False), "grows")
    Outcome(claim='grows', value='false')
    """
    try:
        value = getattr(source, name)
    except AttributeError:
        raise ClaimError(f"{type(source).__name__} has no predicate {name!r}") from None
    if callable(value):
        value = value(*args, **kwargs)
    if isinstance(value, (bool, np.bool_)):
        return Outcome(name, "true" if bool(value) else "false")
    if isinstance(value, str) and value:
        return Outcome(name, value)
    raise ClaimError(f"predicate {name!r} gave {value!r}: a claim needs a boolean or an outcome name")
