"""Small helpers shared by tests in several folders."""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """In a child before exec: SIGINT to its default, so that Python turns it into
    KeyboardInterrupt as when a terminal sends it (a suite run as a background job of a
    non-interactive shell has SIGINT ignored, and children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def assert_split_equals_unsplit(whole, parts, name: str) -> list[dict]:
    """The video ``name`` in output folder ``parts`` (a split render) has the decoded frames of the
    one in ``whole`` (unsplit), the same subtitle cues within 1 ms, and the same narrated steps in
    its manifest record within 2 ms. Returns the two manifest records (unsplit, split)."""
    import json
    from pathlib import Path

    import numpy as np
    import pytest
    import srt

    from scenes.render.video import read_frames

    whole, parts = Path(whole), Path(parts)
    expected, joined = read_frames(whole / name), read_frames(parts / name)
    assert len(joined) == len(expected) > 100
    assert all(np.array_equal(a, b) for a, b in zip(expected, joined))

    srt_name = name.replace(".mp4", ".srt")
    expected_cues, joined_cues = (list(srt.parse((folder / srt_name).read_text(encoding="utf-8")))
                                  for folder in (whole, parts))
    assert [c.content for c in joined_cues] == [c.content for c in expected_cues]
    for a, b in zip(expected_cues, joined_cues):
        assert abs((a.start - b.start).total_seconds()) <= 0.001 and abs((a.end - b.end).total_seconds()) <= 0.001

    records = [json.loads((folder / "manifest.json").read_text())["artifacts"][name] for folder in (whole, parts)]
    assert records[0]["duration_s"] == pytest.approx(records[1]["duration_s"], abs=0.002)
    for a, b in zip(records[0]["steps"], records[1]["steps"], strict=True):
        assert a["key"] == b["key"] and a["start"] == pytest.approx(b["start"], abs=0.002)
        assert a["end"] == pytest.approx(b["end"], abs=0.002)
    return records
