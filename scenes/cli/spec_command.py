"""``normgeo spec ID``: the settings a scene has, their types, defaults, ranges and meaning."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Literal, get_args, get_origin

import click

from scenes.cli.errors import reports_bad_input
from scenes.cli.options import lang_option
from scenes.cli.spec_limits import scene_limits
from scenes.kit.registry import entry
from scenes.kit.spec import Vector, Vectors, as_setting_text
from scenes.kit.text import fill, message, text_file

__all__ = ["spec_command", "describe_settings"]


WORDS = Path(__file__).with_name("spec_words.toml")


def words(key: str, lang: str, **values) -> str:
    """A line of ``spec_words.toml`` in ``lang``, plurals by CLDR."""
    return fill(text_file(WORDS).template(key, lang), lang, values)


def exact(bound) -> str:
    """A range bound as ``--set`` takes it, every digit kept (no 4.29497e+09).

    >>> exact(4294967295), exact(1e6), exact(0.1), exact(1e-12)
    ('4294967295', '1000000', '0.1', '1e-12')
    """
    if isinstance(bound, int) or float(bound).is_integer():
        return str(int(bound))
    return repr(float(bound))


def type_words(hint, lang: str) -> str:
    """What a value of this type looks like, in ``lang``."""
    if get_origin(hint) is Literal:
        return words("type.literal", lang, values=", ".join(str(a) for a in get_args(hint)))
    if get_origin(hint) is tuple and get_args(hint)[0] in (int, float) and hint not in (Vector, Vectors):
        return words("type.ints" if get_args(hint)[0] is int else "type.floats", lang)
    key = {int: "int", float: "float", bool: "bool", str: "str", Vectors: "vectors", Vector: "vector"}.get(hint)
    return words(f"type.{key}", lang) if key else str(hint)


def _allowed(low, high, items, lang: str) -> str:
    allowed = []
    if low is not None or high is not None:
        allowed.append(f"{'' if low is None else exact(low)} … {'' if high is None else exact(high)}".strip())
    if items is not None:
        allowed.append(words("items", lang, n=items[0]) if items[0] == items[1]
                       else words("items-range", lang, low=str(items[0]), high=str(items[1])))
    return words("list", lang).join(allowed)


def describe_settings(scene_id: str, lang: str) -> list[dict]:
    """One row per setting: name, type, default (as ``--set`` takes it), range, description."""
    spec_type = entry(scene_id).load().spec_class
    hints = typing.get_type_hints(spec_type)
    limits = scene_limits(spec_type)
    rows = []
    for setting in spec_type.settings():
        low, high, items = (setting.metadata.get(k) for k in ("low", "high", "items"))
        rows.append({
            "name": setting.name,
            "type": type_words(hints[setting.name], lang),
            "default": as_setting_text(setting.default),
            "allowed": _allowed(low, high, items, lang),
            "limits": [words(f"rule.{rule}", lang, **values) for rule, values in limits.get(setting.name, [])],
            "description": message(scene_id, f"spec.{setting.name}", lang),
        })
    return rows


@click.command("spec")
@click.argument("scene_id")
@lang_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable rows.")
@reports_bad_input
def spec_command(scene_id: str, lang: str, as_json: bool) -> None:
    """The settings of one scene, for --set KEY=VALUE or a [scene-id] table in a --spec file: each
    one's type, default and range, and the limits the scene's own checks add (a vector's length, a
    ratio between two settings), with the numbers its errors print."""
    rows = describe_settings(entry(scene_id).id, lang)
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    click.echo(words("header", lang, scene=scene_id, n=len(rows)) + "\n")
    for row in rows:
        allowed = words("separator", lang) + words("allowed", lang, allowed=row["allowed"]) if row["allowed"] else ""
        click.echo(f"  {row['name']} = {row['default']}")
        click.echo(f"      {row['type']}{allowed}")
        for limit in row["limits"]:
            click.echo(f"      {limit}")
        click.echo(f"      {row['description']}")
