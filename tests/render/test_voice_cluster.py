"""``--voice`` with ``--split`` on a Dask cluster (a real scheduler and two single-threaded workers,
each its own process): the parts agree through Dask Variables, the last one renders from a forked
copy of its measuring run, and the narrated join equals a local unsplit narrated render."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from scenes.cli.main import cli
from tests.audio_readback import decoded_audio, ebur128
from tests.helpers import assert_split_equals_unsplit
from tests.render.test_cluster import Cluster

pytestmark = pytest.mark.render
NAME = "layernorm-2d/layernorm-2d.en.dark.voice-en.480p15.mp4"


def test_a_narrated_split_render_on_the_cluster_equals_the_unsplit_one(tmp_path, monkeypatch):
    speech = tmp_path / "speech"  # one speech cache for the client and the workers (this machine)
    monkeypatch.setenv("NORMGEO_SPEECH_CACHE", str(speech))
    cluster = Cluster(2, env={"NORMGEO_SPEECH_CACHE": str(speech)})
    try:
        whole, parts = tmp_path / "whole", tmp_path / "split"
        result = CliRunner().invoke(cli, ["render", "layernorm-2d", "-q", "l", "--voice", "en", "--jobs", "1",
                                          "--out", str(whole)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        result = CliRunner().invoke(cli, ["render", "layernorm-2d", "-q", "l", "--voice", "en", "--split", "2",
                                          "--scheduler", cluster.address, "--out", str(parts)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
    finally:
        cluster.close()
    records = assert_split_equals_unsplit(whole, parts, NAME)
    assert records[1]["split_parts"] == 2 and records[1]["speech"] == records[0]["speech"]
    loudness, peak = ebur128(*decoded_audio(parts / NAME)[:2])
    assert abs(loudness + 16) <= 0.5 and peak <= -1.0, (loudness, peak)
