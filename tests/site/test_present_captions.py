"""The presenter's captions in the joined lecture: each scene's cues (and their word timestamps)
move by the scene's chapter start, so the word lit at a lecture time is the one said then."""

from __future__ import annotations

from scenes.render.site import SiteLecture, SiteMedia, SiteScene, SiteStep, build_site
from tests.site.conftest import write_video

VTT = """WEBVTT

1
00:00:00.000 --> 00:00:01.500
Here <00:00:00.400>is <00:00:00.800>{word}

"""


def test_the_lecture_lights_each_scenes_words_at_its_chapter_time(open_page, tmp_path):
    video = write_video(tmp_path / "scene.mp4", seconds=2.0)
    lecture = write_video(tmp_path / "lecture.mp4", seconds=4.0)
    scenes = []
    for scene_id, word in (("radial-projection", "one."), ("sphere-radii", "two.")):
        vtt = tmp_path / f"{scene_id}.vtt"
        vtt.write_text(VTT.format(word=word), encoding="utf-8")
        media = [SiteMedia("video", "en", "dark", video, video.stat().st_size, 192, 108),
                 SiteMedia("subtitles", "en", "dark", vtt, vtt.stat().st_size)]
        steps = {"en": [SiteStep(0.0, 2.0, f"Here is {word}", "intro")]}
        scenes.append(SiteScene(scene_id, {"en": scene_id}, {"en": scene_id}, steps, media))
    build_site(scenes, tmp_path / "site", lectures=[SiteLecture("en", "dark", lecture, [(0.0, 2.0), (2.0, 4.0)])])
    page = open_page(tmp_path / "site" / "present.html", query="?lang=en&captions=1", color_scheme="dark")
    page.wait_for_function("document.getElementById('present-video').readyState >= 1")
    for moment, word in ((0.2, "Here"), (0.9, "one."), (2.1, "Here"), (2.5, "is"), (3.0, "two."), (3.8, "")):
        page.evaluate("(t) => { document.getElementById('present-video').currentTime = t; }", moment)
        page.wait_for_function("(w) => document.querySelector('[data-out=captions]').dataset.word === w",
                               arg=word, timeout=5000)
    assert page.locator('[data-out="captions"]').is_hidden()  # between cues: nothing drawn
