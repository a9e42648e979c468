"""Fixtures for the site tests: small real media files, a built site, one Chromium per module.

The browser is Debian's Chromium (never a downloaded one). Every page opened through ``open_page``
fails the test on a console error, an uncaught exception, or any request that is not file:,
data: or blob:.
"""

from __future__ import annotations

import shutil
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from scenes.render.site import WIDGET_FOR_SCENE, SiteMedia, SiteScene, SiteStep, build_site

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ALLOWED_SCHEMES = ("file:", "data:", "blob:", "about:")


def write_video(path: Path, seconds: float = 2.0, size=(192, 108), fps: int = 25, shade: int = 0) -> Path:
    """A real H.264 MP4 whose frames sweep a bar from left to right."""
    import av

    width, height = size
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        stream.options = {"preset": "ultrafast", "crf": "30"}
        stream.time_base = Fraction(1, fps)
        for i in range(int(seconds * fps)):
            frame = np.full((height, width, 3), shade, dtype=np.uint8)
            x = int(i / (seconds * fps) * (width - 10))
            frame[:, x : x + 10] = (240, 200, 40)
            video_frame = av.VideoFrame.from_ndarray(frame, format="rgb24")
            video_frame.pts = i
            for packet in stream.encode(video_frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return path


def write_png(path: Path, colour=(30, 30, 30), size=(192, 108)) -> Path:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size, colour)
    ImageDraw.Draw(image).ellipse((60, 20, 130, 90), outline=(240, 200, 40), width=3)
    image.save(path)
    return path


def write_gif(path: Path, size=(96, 54)) -> Path:
    from PIL import Image

    frames = [Image.new("P", size, i * 40) for i in range(4)]
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=200, loop=0)
    return path


def write_vtt(path: Path, steps: list[SiteStep]) -> Path:
    def clock(t: float) -> str:
        return f"00:{int(t // 60):02d}:{t % 60:06.3f}"

    lines = ["WEBVTT", ""]
    for i, step in enumerate(steps, 1):
        lines += [str(i), f"{clock(step.start)} --> {clock(step.end)}", step.text, ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


NARRATION = {
    "en": ["Here is a vector.", "It slides along its ray.", "It stops on the sphere."],
    "zh": ["这是一个向量。", "它沿着射线滑动。", "它停在球面上。"],
    "ru": ["Вот вектор.", "Он скользит по лучу.", "Он останавливается на сфере."],
}
STEP_TIMES = [(0.0, 0.6), (0.6, 1.2), (1.2, 1.8)]
SCENE_IDS = ["radial-projection", "sphere-radii", "layernorm-hyperplane", "unified-formula", "normalization-axes", "conditioning"]
TITLES = {
    "radial-projection": {"en": "Normalization is a radial projection", "zh": "归一化是一次径向投影", "ru": "Нормировка — это радиальная проекция"},
    "sphere-radii": {"en": "Spheres of radius 1 and $sqrt(n)$", "zh": "半径 1 与 $sqrt(n)$ 的球面", "ru": "Сферы радиуса 1 и $sqrt(n)$"},
    "layernorm-hyperplane": {"en": "LayerNorm: the hyperplane and the sphere", "zh": "LayerNorm：零均值超平面与球面", "ru": "LayerNorm: гиперплоскость и сфера"},
    "unified-formula": {"en": "One formula, different axes", "zh": "同一个公式，不同的轴", "ru": "Одна формула, разные оси"},
    "normalization-axes": {"en": "Which cells share $mu$ and $sigma$", "zh": "哪些格子共用 $mu$ 和 $sigma$", "ru": "Какие ячейки делят $mu$ и $sigma$"},
    "conditioning": {"en": "Normalization as preconditioning", "zh": "作为预条件的归一化", "ru": "Нормировка как предобусловливание"},
}


@pytest.fixture(scope="session")
def media_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("media")
    write_video(folder / "dark.mp4", shade=10)
    write_video(folder / "light.mp4", shade=230)
    write_png(folder / "dark.png", (20, 20, 24))
    write_png(folder / "light.png", (250, 250, 250))
    write_gif(folder / "anim.gif")
    for lang, texts in NARRATION.items():
        steps = [SiteStep(a, b, text) for (a, b), text in zip(STEP_TIMES, texts)]
        write_vtt(folder / f"{lang}.vtt", steps)
    return folder


def make_scenes(media_dir: Path, ids=SCENE_IDS) -> list[SiteScene]:
    scenes = []
    for scene_id in ids:
        media = []
        for lang in ("en", "zh", "ru"):
            for theme in ("dark", "light"):
                for kind, name in (("video", f"{theme}.mp4"), ("still", f"{theme}.png"), ("gif", "anim.gif"), ("subtitles", f"{lang}.vtt")):
                    source = media_dir / name
                    size = (192, 108) if kind in ("video", "still") else (96, 54) if kind == "gif" else (None, None)
                    media.append(SiteMedia(kind, lang, theme, source, source.stat().st_size, *size))
        steps = {lang: [SiteStep(a, b, text) for (a, b), text in zip(STEP_TIMES, texts)] for lang, texts in NARRATION.items()}
        scenes.append(
            SiteScene(
                id=scene_id,
                titles=TITLES[scene_id],
                descriptions={lang: TITLES[scene_id][lang] for lang in ("en", "zh", "ru")},
                steps=steps,
                media=media,
                widget=WIDGET_FOR_SCENE.get(scene_id),
            )
        )
    return scenes


@pytest.fixture(scope="session")
def site(tmp_path_factory, media_dir) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    build_site(make_scenes(media_dir), out)
    return out


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM.exists(), "Debian's chromium is not installed (./run test installs it)"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class PageProblems:
    """Console errors, page errors and requests to anything but file:/data:/blob:."""

    def __init__(self, page):
        self.errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.on("request", self._request)

    def _request(self, request):
        if not request.url.startswith(ALLOWED_SCHEMES):
            self.requests.append(request.url)

    def check(self):
        assert not self.errors, self.errors
        assert not self.requests, f"network requests: {self.requests}"


@pytest.fixture
def open_page(browser):
    """open_page(path, query="", color_scheme="light") → page; problems checked at teardown."""
    opened = []

    def _open(path: Path, query: str = "", color_scheme: str = "light", viewport=(1200, 900)):
        context = browser.new_context(color_scheme=color_scheme, viewport={"width": viewport[0], "height": viewport[1]})
        page = context.new_page()
        problems = PageProblems(page)
        page.goto(Path(path).as_uri() + query)
        page.wait_for_load_state("load")
        opened.append((context, problems))
        page.problems = problems
        return page

    yield _open
    for context, problems in opened:
        context.close()
    for _, problems in opened:
        problems.check()


#: axe-core beside the Python that runs the tests (./run test installs it into .venv/node_modules)
AXE = Path(sys.prefix) / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page) -> list[dict]:
    """Serious and critical violations found by axe-core injected into ``page``. Without axe-core
    the scan cannot run: that is a failure, never a skip."""
    assert AXE.is_file(), f"axe-core is not installed at {AXE} (./run test installs it into .venv/node_modules)"
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations'], preload: false})).violations")
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result
        if v["impact"] in ("serious", "critical")
    ]


def copy_site(site: Path, target: Path) -> Path:
    shutil.copytree(site, target)
    return target


def assert_close(shown, expected, what: str = "value"):
    """|a − b| ≤ 1e-12·max(1, |b|) elementwise: the widgets show what the numpy core computes."""
    shown = np.asarray(shown, dtype=float)
    expected = np.asarray(expected, dtype=float)
    assert shown.shape == expected.shape, f"{what}: shape {shown.shape} != {expected.shape}"
    assert np.isfinite(shown).all(), f"{what}: non-finite value shown: {shown}"
    bound = 1e-12 * np.maximum(1.0, np.abs(expected))
    bad = np.abs(shown - expected) > bound
    assert not bad.any(), f"{what}: shown {shown[bad]} but the core says {expected[bad]}"


def number_text(x: float) -> str:
    """The text to type for x: Python's shortest repr parses back to the same float64 in JavaScript."""
    return repr(float(x))
