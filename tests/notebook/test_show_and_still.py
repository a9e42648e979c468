"""``show`` and ``still``: real renders through the CLI's pipeline, the displayed object carrying the
file, the cache (a second call renders nothing, and the CLI finds the same file cached), and bad
settings refused with the CLI's own message."""

from __future__ import annotations

import base64
import re

import numpy as np
import pytest
from click.testing import CliRunner

from scenes.cli.main import cli
from scenes.notebook import InputError, SceneStill, SceneVideo, show, still

pytestmark = pytest.mark.render

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def cli_line(*args) -> tuple[int, str]:
    """The CLI's exit status and what it printed (stdout and stderr, as a terminal shows them)."""
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def test_still_renders_a_png_displays_it_and_renders_nothing_the_second_time(tmp_path):
    """A numpy setting goes through ``--set``; the PNG is the displayed data; then the cache answers."""
    vectors = np.array([[3.0, 4.0], [6.0, 8.0]])
    first = still("radial-projection", out_dir=tmp_path, vectors=vectors)
    assert isinstance(first, SceneStill) and first.status == "made"
    data = first.path.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and first.path.parent.parent == tmp_path
    assert first._repr_png_() == data
    shown = first._repr_html_()  # JupyterLab and the HTML export show this: the picture with its alt text
    assert base64.b64encode(data).decode() in shown
    assert 'alt="Still of the video: L2 and RMSNorm: a radial projection"' in shown
    made = first.path.stat().st_mtime_ns
    second = still("radial-projection", out_dir=tmp_path, vectors=[[3, 4], [6, 8]])
    assert second.status == "cached" and second.path == first.path
    assert first.path.stat().st_mtime_ns == made
    code, output = cli_line("still", "radial-projection", "--set", "vectors=3,4;6,8", "--out", tmp_path)
    assert code == 0 and re.search(r"\bcached\b", output) and "0 made" in output, output


def test_show_renders_a_video_with_its_subtitles_inside_the_html(tmp_path):
    video = show("radial-projection", out_dir=tmp_path, resolution=(320, 180), lang="ru", theme="light")
    assert isinstance(video, SceneVideo) and video.status == "made"
    assert video.path.suffix == ".mp4" and video.subtitles is not None and video.subtitles.suffix == ".vtt"
    html = video._repr_html_()
    sources = dict(re.findall(r'src="data:([\w/]+);base64,([A-Za-z0-9+/=]+)"', html))
    assert base64.b64decode(sources["video/mp4"]) == video.path.read_bytes()
    assert base64.b64decode(sources["text/vtt"]) == video.subtitles.read_bytes()
    assert 'srclang="ru"' in html
    again = show("radial-projection", out_dir=tmp_path, resolution="320x180", lang="ru", theme="light")
    assert again.status == "cached" and again.path == video.path


@pytest.mark.parametrize(("settings", "cli_args"), [
    ({"vectr": [1, 2]}, ["still", "radial-projection", "--set", "vectr=1,2"]),
    ({"vectors": "a,b"}, ["still", "radial-projection", "--set", "vectors=a,b"]),
    ({"radius": 0.0}, ["still", "radial-projection", "--set", "radius=0"]),
    ({"quality": "x"}, ["still", "radial-projection", "-q", "x"]),
    ({"resolution": "321x180"}, ["still", "radial-projection", "--resolution", "321x180"]),
    ({"resolution": (321, 180)}, ["still", "radial-projection", "--resolution", "321x180"]),
    ({"lang": "fr"}, ["list", "--lang", "fr"]),  # one language, as `normgeo list` takes it (render takes lists)
])
def test_bad_settings_raise_the_message_the_cli_prints(tmp_path, settings, cli_args):
    code, output = cli_line(*cli_args, *(["--out", tmp_path] if cli_args[0] == "still" else []))
    assert code == 2 and output.startswith("normgeo: error: "), output
    with pytest.raises(InputError) as raised:
        still("radial-projection", out_dir=tmp_path, **settings)
    assert str(raised.value) == output.strip().removeprefix("normgeo: error: ")


def test_an_unknown_scene_is_refused_as_the_cli_refuses_it(tmp_path):
    code, output = cli_line("render", "radial-projectio", "--out", tmp_path)
    with pytest.raises(InputError) as raised:
        show("radial-projectio", out_dir=tmp_path)
    assert code == 2 and str(raised.value) == output.strip().removeprefix("normgeo: error: ")
