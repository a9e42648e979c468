"""The limits ``normgeo spec`` shows besides each setting's declared range: those a scene's
``validate`` adds, with the numbers its errors print.

Two sources, both the scene's own code, so the list cannot drift from what is refused: the kit's
checks record what they require while the default spec is validated (``checks_made``: a vector's
length, a range that depends on another setting), and each number setting is tried at the two ends
of its declared range, the others at their defaults: a refusal there that names the setting is a
rule across settings (a scale ratio, a budget), shown as the error says it (without the value
tried). A scene whose checks take long (they train or read a file) is not tried at its ends.
"""

from __future__ import annotations

import re
import time

from scenes.kit.spec import SceneSpec, SpecError, checks_made

__all__ = ["Limit", "scene_limits"]

Limit = tuple[str, dict]  # (rule: vector-length, range or refused; its numbers or message)

#: a spec whose validate takes longer than this is not tried at the ends of its ranges
PROBE_BUDGET_S = 0.2


def _number(value) -> str:
    """As the errors print their bounds (``{:g}``): 1000, 0.001, 1e+06."""
    return f"{value:g}"


def scene_limits(spec_type: type[SceneSpec]) -> dict[str, list[Limit]]:
    """setting name → the limits its scene's checks add (in the order found, each once)."""
    limits: dict[str, list[Limit]] = {}

    def add(name: str, limit: Limit) -> None:
        if name in limits.setdefault(name, []) or limit in limits[name]:
            return
        limits[name].append(limit)

    started = time.perf_counter()
    with checks_made() as made:
        default = spec_type()
    took = time.perf_counter() - started
    declared = {f.name: (f.metadata.get("low"), f.metadata.get("high")) for f in spec_type.settings()}
    for name, rule, numbers in made:
        if rule == "range" and (numbers["low"], numbers["high"]) == declared.get(name):
            continue  # the declared range, already shown
        add(name, (rule, {key: _number(value) for key, value in numbers.items()}))
    if took > PROBE_BUDGET_S:
        return limits
    for setting in spec_type.settings():
        low, high = declared[setting.name]
        if not isinstance(setting.default, (int, float)) or isinstance(setting.default, bool):
            continue
        for end in (low, high):
            if end is None or end == setting.default:
                continue
            try:
                default.with_overrides({setting.name: end})
            except SpecError as error:
                named, _, rule = str(error).partition(": ")
                if setting.name in named.split(", "):  # a rule of this setting (not another's, at this end)
                    rule = re.sub(r",? got .*$", "", rule)  # (what this try gave, not the rule)
                    add(setting.name, ("refused", {"message": rule if named == setting.name else f"{named}: {rule}"}))
    return limits
