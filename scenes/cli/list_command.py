"""``normgeo list``: scene ids in lecture order with a one-line description."""

from __future__ import annotations

import json

import click

from scenes.cli.common import lang_option
from scenes.kit.registry import PACKAGE_DIR, SCENES


@click.command("list")
@lang_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable: id, description, source file, class.")
def list_command(lang: str, as_json: bool) -> None:
    """List the scenes in lecture order."""
    if as_json:
        rows = [
            {
                "id": scene.id,
                "description": scene.description(lang),
                "file": str(scene.source_file.relative_to(PACKAGE_DIR.parent)),
                "class": scene.class_name,
            }
            for scene in SCENES
        ]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    width = max(len(scene.id) for scene in SCENES)
    for number, scene in enumerate(SCENES, start=1):
        click.echo(f"{number:2d}. {scene.id:<{width}}  {scene.description(lang)}")
