"""The gallery: an index.html that shows everything rendered in an output folder."""

from __future__ import annotations

import html
from pathlib import Path

from scenes.kit.languages import LANGUAGE_NAMES
from scenes.kit.registry import SCENES
from scenes.render.files import atomic_write_text
from scenes.render.manifest import Manifest

__all__ = ["build_gallery", "write_gallery"]

VIDEO_TYPES = {".mp4": "video/mp4", ".webm": "video/webm", ".mov": "video/quicktime"}

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>normgeo gallery</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; background: #fafafa; color: #1c1f24; }}
section {{ margin-bottom: 2.5rem; }}
h2 {{ margin-bottom: .2rem; }} .id {{ color: #5f6670; font-family: monospace; }}
.row {{ display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }}
figure {{ margin: 0; }} figcaption {{ font-size: .85rem; color: #5f6670; }}
video, img.gif {{ max-width: 560px; width: 100%; border-radius: 6px; background: #000; }}
pre {{ background: #eef0f3; padding: .6rem; overflow-x: auto; font-size: .8rem; max-width: 560px; }}
</style>
</head>
<body>
<h1>normgeo gallery</h1>
<p>Everything rendered in this folder ({count} files). Serve it over HTTP so that subtitles load:
<code>python -m http.server -d {folder}</code>.</p>
{sections}
<script>
// Marks the page with the loading state of every media element (used by the tests).
window.addEventListener("load", () => {{
  const media = [...document.querySelectorAll("video, img")];
  const pending = media.map(el => new Promise(resolve => {{
    if (el.tagName === "IMG") {{
      if (el.complete) resolve(el.naturalWidth > 0 ? null : el.getAttribute("src"));
      else {{ el.onload = () => resolve(null); el.onerror = () => resolve(el.getAttribute("src")); }}
    }} else {{
      if (el.readyState >= 1) resolve(null);
      else {{ el.onloadedmetadata = () => resolve(null); el.onerror = () => resolve(el.querySelector("source").getAttribute("src")); }}
    }}
  }}));
  Promise.all(pending).then(failed => {{
    const bad = failed.filter(Boolean);
    document.body.dataset.media = bad.length ? "failed: " + bad.join(", ") : "ok:" + media.length;
  }});
}});
</script>
</body>
</html>
"""


def build_gallery(out_dir: Path) -> tuple[str, int]:
    """The page's HTML and how many artefacts it shows."""
    artefacts = {name: record for name, record in Manifest(out_dir).artifacts.items() if (out_dir / name).is_file()}
    sections, shown = [], 0
    for scene in SCENES:
        mine = {name: r for name, r in artefacts.items() if name.startswith(f"{scene.id}/")}
        if not mine:
            continue
        blocks = []
        videos = [n for n in mine if Path(n).suffix in VIDEO_TYPES]
        stills = [n for n in mine if n.endswith(".png")]
        gifs = [n for n in mine if n.endswith(".gif")]
        for name in videos:
            record = mine[name]
            lang = record["spec"]["lang"]
            stem = Path(name).with_suffix("")
            poster = _matching(stills, record) or (stills[0] if stills else None)
            vtt = f"{stem}.vtt"
            track = (f'<track kind="subtitles" src="{html.escape(vtt)}" srclang="{lang}" '
                     f'label="{html.escape(LANGUAGE_NAMES[lang])}" default>') if (out_dir / vtt).is_file() else ""
            poster_attr = f' poster="{html.escape(poster)}"' if poster else ""
            snippet = (f'<video controls preload="metadata"{poster_attr}>\n  <source src="{name}" '
                       f'type="{VIDEO_TYPES[Path(name).suffix]}">\n  {track}\n</video>')
            blocks.append(
                f'<figure><video controls preload="metadata"{poster_attr}><source src="{html.escape(name)}" '
                f'type="{VIDEO_TYPES[Path(name).suffix]}">{track}</video>'
                f"<figcaption>{html.escape(name)} · {record.get('duration_s', 0):.0f} s · "
                f"{record.get('size_bytes', 0) / 1e6:.2f} MB</figcaption>"
                f"<pre><code>{html.escape(snippet)}</code></pre></figure>"
            )
            shown += 1
        for name in gifs:
            record = mine[name]
            quality = record.get("gif", {})
            snippet = f'<img src="{name}" alt="{html.escape(scene.description(record["spec"]["lang"]))}">'
            blocks.append(
                f'<figure><img class="gif" src="{html.escape(name)}" alt="{html.escape(scene.id)}">'
                f"<figcaption>{html.escape(name)} · {record.get('size_bytes', 0) / 1e6:.2f} MB · "
                f"SSIM {quality.get('ssim', 0):.3f}</figcaption><pre><code>{html.escape(snippet)}</code></pre></figure>"
            )
            shown += 1
        for name in stills:
            if not videos:
                blocks.append(f'<figure><img src="{html.escape(name)}" alt="{html.escape(scene.id)}" class="gif">'
                              f"<figcaption>{html.escape(name)}</figcaption></figure>")
                shown += 1
        lang = next(iter(mine.values()))["spec"]["lang"]
        title = html.escape(scene.title(lang).replace("$", ""))
        sections.append(f'<section id="{scene.id}"><h2>{title}</h2><div class="id">{scene.id}</div>'
                        f'<p>{html.escape(scene.description(lang))}</p><div class="row">{"".join(blocks)}</div></section>')
    page = PAGE.format(count=shown, folder=html.escape(str(out_dir)), sections="\n".join(sections) or "<p>Nothing rendered yet.</p>")
    return page, shown


def _matching(stills: list[str], record: dict) -> str | None:
    spec = record["spec"]
    for name in stills:
        if f".{spec['lang']}.{spec['theme']}." in name:
            return name
    return None


def write_gallery(out_dir: Path) -> tuple[Path, int]:
    """Write ``index.html`` in ``out_dir``; return its path and how many artefacts it shows."""
    page, shown = build_gallery(out_dir)
    atomic_write_text(out_dir / "index.html", page)
    return out_dir / "index.html", shown
