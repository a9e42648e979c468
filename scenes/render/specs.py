"""One validated spec per scene, from its defaults, a spec file and ``--set`` values.

A spec file is TOML: a ``[scene-id]`` table per scene, and top-level keys that apply to every
selected scene having that setting (a key that no selected scene has is refused: it would change
nothing). It is read as strictly as ``--set``: an unknown section or key, or a value of another
type (``radius = "2"``: TOML has numbers, so text is not parsed) is refused with a "did you mean",
naming the file, before anything renders. ``--set`` takes each key once, and a list value no empty
item; where the file sets the same key for a selected scene, ``--set`` wins (the command line over
the file, as :func:`set_over_file` lists for the summary to say).
"""

from __future__ import annotations

import tomllib
import typing
from pathlib import Path

from scenes.kit.registry import LECTURE_ORDER, UnknownSceneError, entry
from scenes.kit.spec import SceneSpec, SpecError, check_file_value, did_you_mean
from scenes.render.errors import InputError

__all__ = ["build_specs", "parse_assignments", "read_spec_file", "set_over_file", "spec_class"]

OPTIONS_NOT_SETTINGS = {"lang": "--lang", "theme": "--theme"}


def spec_class(scene_id: str) -> type[SceneSpec]:
    """The spec class of a scene (imports its module, and so manim)."""
    return entry(scene_id).load().spec_class


def parse_assignments(assignments) -> dict[str, str]:
    """``KEY=VALUE`` strings as a dict; a string without ``=`` or a key given twice is an input error.

    >>> parse_assignments(["vectors=3,4", "radius=2"])
    {'vectors': '3,4', 'radius': '2'}
    """
    parsed = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--set expects KEY=VALUE, got {item!r}")
        name = key.strip().replace("-", "_")
        if name in parsed:
            raise InputError(f"--set {key.strip()}: given twice ({parsed[name]!r} and {value!r}); give each setting once")
        parsed[name] = value
    return parsed


def read_spec_file(path: Path | None) -> tuple[dict, dict[str, dict]]:
    """(top-level settings, {scene id: settings}) from a spec file; an unknown scene section is refused."""
    if path is None:
        return {}, {}
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise InputError(f"cannot read spec file {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"spec file {path} is not valid TOML: {error}") from None
    shared = {key.replace("-", "_"): value for key, value in data.items() if not isinstance(value, dict)}
    sections = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            continue
        if name not in LECTURE_ORDER:
            raise InputError(f"spec file {path}: unknown scene [{name}]{did_you_mean(name, LECTURE_ORDER)}")
        sections[name] = {key.replace("-", "_"): value for key, value in table.items()}
    return shared, sections


def _refuse_options(keys, where: str) -> None:
    for key in keys:
        if key in OPTIONS_NOT_SETTINGS:
            raise InputError(f"{where}{key}: the {key} is chosen with {OPTIONS_NOT_SETTINGS[key]}, not as a setting")


def _check_keys(scene_id: str, spec_type: type[SceneSpec], values: dict, where: str) -> None:
    names = [f.name for f in spec_type.settings()]
    for key in values:
        if key not in names:
            raise InputError(f"{where}{key}: not a setting of {scene_id}{did_you_mean(key, names)}"
                             f" (see `normgeo spec {scene_id}`)")


def _build(scene_id: str, spec_type: type[SceneSpec], lang: str, theme: str, values: dict,
           where: str = "") -> SceneSpec:
    try:
        return spec_type(lang=lang, theme=theme).with_overrides(values)
    except SpecError as error:
        raise InputError(f"{where}{scene_id}: {error}") from None


def _check_file_types(scene_id: str, spec_type: type[SceneSpec], values: dict, where: str) -> None:
    """Each value of the file has its field's TOML type (no text for a number)."""
    hints = typing.get_type_hints(spec_type)
    for key, value in values.items():
        try:
            check_file_value(key, value, hints[key])
        except SpecError as error:
            raise InputError(f"{where}{scene_id}: {error}") from None


def _settings_of_every_scene() -> set[str]:
    return {f.name for scene_id in LECTURE_ORDER for f in spec_class(scene_id).settings()}


def build_specs(scene_ids: list[str], lang: str, theme: str, assignments: dict[str, str] | None = None,
                spec_file: Path | None = None) -> dict[str, SceneSpec]:
    """One validated spec per selected scene: defaults, then the file's top-level keys (where the
    scene has that setting), then its table for the scene (the file alone must give a valid spec,
    and its errors name it), then ``--set`` values. Every section of the file is checked, selected
    or not; a top-level key must be a setting of some scene, a ``--set`` key of a selected one."""
    assignments = assignments or {}
    shared, sections = read_spec_file(spec_file)
    in_file = f"spec file {spec_file}: "
    _refuse_options(assignments, "--set ")
    _refuse_options(shared, in_file)
    for name, values in sections.items():
        _refuse_options(values, f"{in_file}[{name}] ")
    try:
        classes = {scene_id: spec_class(scene_id) for scene_id in {*scene_ids, *sections}}
    except UnknownSceneError as error:
        raise InputError(str(error)) from None

    selected_fields = {scene_id: {f.name for f in classes[scene_id].settings()} for scene_id in scene_ids}
    every_field = sorted(set().union(*selected_fields.values())) if selected_fields else []
    for key in assignments:
        if not any(key in names for names in selected_fields.values()):
            raise InputError(f"--set {key}: not a setting of {', '.join(scene_ids)}{did_you_mean(key, every_field)}")
    unknown = [key for key in shared if not any(key in names for names in selected_fields.values())]
    if unknown:
        known = _settings_of_every_scene()
        for key in unknown:
            if key not in known:
                raise InputError(f"{in_file}{key}: not a setting of any scene{did_you_mean(key, sorted(known))}")
            owners = [scene_id for scene_id in LECTURE_ORDER
                      if key in {f.name for f in spec_class(scene_id).settings()}]
            raise InputError(f"{in_file}{key}: a setting of {', '.join(owners)}, none of which is selected "
                             f"({', '.join(scene_ids)}), so it would change nothing: select one of them, or leave "
                             "the key out")

    for name, values in sections.items():  # a section of a scene not selected is still checked
        _check_keys(name, classes[name], values, f"{in_file}[{name}] ")
        _check_file_types(name, classes[name], values, in_file)
        if name not in scene_ids:
            _build(name, classes[name], lang, theme, values, in_file)

    specs = {}
    for scene_id in scene_ids:
        names = selected_fields[scene_id]
        from_file = {k: v for k, v in shared.items() if k in names} | sections.get(scene_id, {})
        _check_file_types(scene_id, classes[scene_id], from_file, in_file)
        spec = _build(scene_id, classes[scene_id], lang, theme, from_file, in_file) if from_file else None
        values = from_file | {k: v for k, v in assignments.items() if k in names}
        specs[scene_id] = _build(scene_id, classes[scene_id], lang, theme, values) if assignments or spec is None \
            else spec
    return specs


def set_over_file(scene_ids: list[str], assignments: dict[str, str], spec_file: Path | None) -> list[str]:
    """The keys ``--set`` gives that the spec file also gives for a selected scene (top level or
    its table): ``--set`` wins, and the summary says so."""
    if not assignments or spec_file is None:
        return []
    shared, sections = read_spec_file(spec_file)
    in_file = set(shared).union(*(sections.get(scene_id, {}) for scene_id in scene_ids))
    return sorted(key for key in assignments if key in in_file)
