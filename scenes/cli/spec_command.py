"""``normgeo spec ID``: the settings a scene has, their types, defaults, ranges and meaning."""

from __future__ import annotations

import json
import typing

import click

from scenes.cli.errors import reports_bad_input
from scenes.cli.options import lang_option
from scenes.kit.registry import entry
from scenes.kit.spec import as_setting_text, type_description
from scenes.kit.text import message

__all__ = ["spec_command", "describe_settings"]


def describe_settings(scene_id: str, lang: str) -> list[dict]:
    """One row per setting: name, type, default (as ``--set`` takes it), range, description."""
    spec_type = entry(scene_id).load().spec_class
    hints = typing.get_type_hints(spec_type)
    rows = []
    for setting in spec_type.settings():
        low, high, items = (setting.metadata.get(k) for k in ("low", "high", "items"))
        allowed = []
        if low is not None or high is not None:
            allowed.append(f"{'' if low is None else f'{low:g}'} … {'' if high is None else f'{high:g}'}".strip())
        if items is not None:
            allowed.append(f"{items[0]}–{items[1]} values" if items[0] != items[1] else f"{items[0]} values")
        rows.append({
            "name": setting.name,
            "type": type_description(hints[setting.name]),
            "default": as_setting_text(setting.default),
            "allowed": ", ".join(allowed),
            "description": message(scene_id, f"spec.{setting.name}", lang),
        })
    return rows


@click.command("spec")
@click.argument("scene_id")
@lang_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable rows.")
@reports_bad_input
def spec_command(scene_id: str, lang: str, as_json: bool) -> None:
    """The settings of one scene, for --set KEY=VALUE or a [scene-id] table in a --spec file."""
    rows = describe_settings(entry(scene_id).id, lang)
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    click.echo(f"{scene_id}: {len(rows)} settings (normgeo render {scene_id} --set KEY=VALUE)\n")
    for row in rows:
        allowed = f"; allowed {row['allowed']}" if row["allowed"] else ""
        click.echo(f"  {row['name']} = {row['default']}")
        click.echo(f"      {row['type']}{allowed}")
        click.echo(f"      {row['description']}")
