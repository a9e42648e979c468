"""The traits a widget's inputs are: numbers and arrays of them (a numpy array accepted, stored as
plain floats, the JSON the browser gets), a slider's value (its range and step), and a choice."""

from __future__ import annotations

import math

import numpy as np
import traitlets

__all__ = ["FIELD_LIMIT", "FieldNumber", "FloatArray", "Shown", "SliderValue", "SliderValues"]

#: the largest magnitude a widget's text field takes (``NG.LIMIT`` in scenes/web/ng.js)
FIELD_LIMIT = 1e150


def _finite_within(name: str, values: np.ndarray, limit: float) -> None:
    if not np.isfinite(values).all():
        raise traitlets.TraitError(f"{name}: every value must be a finite number, got {values.tolist()}")
    if (np.abs(values) > limit).any():
        raise traitlets.TraitError(f"{name}: the widget takes magnitudes up to {limit:g}, got {values.tolist()}")


class FloatArray(traitlets.TraitType):
    """An array of ``shape`` floats (a list, tuple or numpy array), each finite and within the text
    field's limit; stored as nested lists of Python floats."""

    info_text = "an array of finite numbers"

    def __init__(self, default, shape: tuple[int, ...], **kwargs):
        self.shape = shape
        super().__init__(default_value=np.asarray(default, dtype=float).tolist(), **kwargs)

    def validate(self, obj, value):
        try:
            array = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            raise traitlets.TraitError(f"{self.name}: expected numbers of shape {self.shape}, got {value!r}") from None
        if array.shape != self.shape:
            raise traitlets.TraitError(f"{self.name}: expected shape {self.shape}, got {array.shape}")
        _finite_within(self.name, array, FIELD_LIMIT)
        return array.tolist()


class FieldNumber(traitlets.Float):
    """A number typed into a widget's text field: finite, within its limit, non-negative if asked."""

    def __init__(self, default: float, nonnegative: bool = False, **kwargs):
        self.nonnegative = nonnegative
        super().__init__(default, **kwargs)

    def validate(self, obj, value):
        value = super().validate(obj, float(value) if isinstance(value, np.generic) else value)
        _finite_within(self.name, np.array([value]), FIELD_LIMIT)
        if self.nonnegative and value < 0:
            raise traitlets.TraitError(f"{self.name}: must be ≥ 0, got {value!r}")
        return value


def _check_slider(name: str, value: float, low: float, high: float, step: float) -> float:
    """``value`` if the slider can take it (within [low, high], on its step), else a TraitError:
    the browser would silently move any other value to the nearest step."""
    steps = (value - low) / step
    if not low - 1e-12 <= value <= high + 1e-12 or abs(steps - round(steps)) > 1e-6:
        raise traitlets.TraitError(f"{name}: the widget's slider takes {low:g} to {high:g} in steps of {step:g}, "
                                   f"got {value!r}")
    return float(value)


class SliderValue(traitlets.Float):
    """The value of one of the widget's sliders (a range input): in [low, high], on its step."""

    def __init__(self, default: float, low: float, high: float, step: float, **kwargs):
        self.low, self.high, self.step = low, high, step
        super().__init__(default, **kwargs)

    def validate(self, obj, value):
        value = super().validate(obj, float(value) if isinstance(value, np.generic) else value)
        if not math.isfinite(value):
            raise traitlets.TraitError(f"{self.name}: must be a finite number, got {value!r}")
        return _check_slider(self.name, value, self.low, self.high, self.step)


class SliderValues(FloatArray):
    """Several sliders of one range and step (γ₁, γ₂): an array of ``length`` of them."""

    def __init__(self, default, low: float, high: float, step: float, **kwargs):
        self.low, self.high, self.step = low, high, step
        super().__init__(default, (len(default),), **kwargs)

    def validate(self, obj, value):
        values = super().validate(obj, value)
        return [_check_slider(self.name, v, self.low, self.high, self.step) for v in values]


def Shown(**kwargs) -> traitlets.Any:  # noqa: N802 (a trait factory, named like the traits it makes)
    """A number (or array, or text) the widget shows, sent from the browser: read it, never set it.
    None until the widget is displayed, and where the widget shows "—"."""
    return traitlets.Any(None, allow_none=True, read_only=True, **kwargs).tag(sync=True)
