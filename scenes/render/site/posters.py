"""A poster for every video of the site, so none is a blank box until played: the still of the same
scene, language and theme when one was rendered, else the video's last frame (what a still shows);
for a joined lecture, its last frame before the end of its first chapter (the first scene's still)."""

from __future__ import annotations

from pathlib import Path

import av

from scenes.render.site.model import SiteMedia, SiteScene

__all__ = ["last_frame_png", "poster_sources"]


def last_frame_png(video: Path, target: Path, until: float | None = None) -> Path:
    """Write the last frame of ``video`` (with ``until``: the last frame before ``until`` seconds,
    such as the end of a lecture's first chapter) as a PNG at ``target``, decoding from the last
    keyframe a second before."""
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        end = container.duration if until is None else int(until * 1_000_000)
        if end and end > 1_000_000:
            container.seek(end - 1_000_000, backward=True, any_frame=False)
        frame = None
        for decoded in container.decode(stream):
            if until is not None and frame is not None and decoded.time is not None and decoded.time >= until:
                break
            frame = decoded
        if frame is None:
            raise ValueError(f"{video} has no video frame")
        image = frame.to_image()
    target.parent.mkdir(parents=True, exist_ok=True)
    image.save(target, format="PNG", optimize=True)  # into the site's staging folder, swapped in whole
    return target


def poster_sources(scene: SiteScene) -> dict[int, SiteMedia | None]:
    """index of each video in ``scene.media`` → the still of its language and theme (None: none)."""
    stills = {(m.lang, m.theme): m for m in scene.media if m.kind == "still"}
    return {index: stills.get((m.lang, m.theme)) for index, m in enumerate(scene.media) if m.kind == "video"}
