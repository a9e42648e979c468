"""`normgeo site --site DIR` never deletes what normgeo did not write: a folder of the user's, the
renders folder, a folder holding it or inside it are refused in one line (exit 2) and left as they
were; only an earlier site of normgeo's is replaced."""

import json
import os

import pytest
from click.testing import CliRunner
from PIL import Image

from scenes.cli.main import cli
from scenes.render.site.folder import MARK

STILL = "scale-invariance/scale-invariance.en.dark.192x108p15.png"


def tree(folder):
    """Every path under ``folder`` with the bytes of each file (None for a folder)."""
    return {str(p.relative_to(folder)): (None if p.is_dir() else p.read_bytes()) for p in sorted(folder.rglob("*"))}


@pytest.fixture
def renders(tmp_path):
    """A renders folder as `normgeo still` leaves it: one still and its manifest entry."""
    out = tmp_path / "renders"
    (out / "scale-invariance").mkdir(parents=True)
    Image.new("RGB", (192, 108), (20, 20, 24)).save(out / STILL)
    record = {"scene": "scale-invariance", "spec": {"lang": "en", "theme": "dark"},
              "settings": {"resolution": [192, 108]}, "files": [STILL]}
    (out / "manifest.json").write_text(json.dumps({"artifacts": {STILL: record}}), encoding="utf-8")
    return out


def site(*args):
    return CliRunner().invoke(cli, ["site", *map(str, args)], catch_exceptions=False)


def refused(result, *words):
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("normgeo: error:"), result.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def test_a_folder_of_the_users_is_refused_and_left_as_it_was(renders, tmp_path):
    blog = tmp_path / "my blog"
    blog.mkdir()
    (blog / "post.md").write_text("hi\n")
    before = tree(blog)
    refused(site("--out", renders, "--site", blog), "not a site normgeo wrote", "post.md")
    assert tree(blog) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my blog", "renders"]  # no staging folder left


def test_site_equal_to_out_is_refused_and_the_renders_kept(renders):
    before = tree(renders)
    refused(site("--out", renders, "--site", renders), "is the renders folder")
    assert tree(renders) == before


def test_site_holding_out_is_refused(renders, tmp_path):
    before = tree(tmp_path)
    refused(site("--out", renders, "--site", tmp_path), "holds the renders folder")
    assert tree(tmp_path) == before


@pytest.mark.parametrize("inside", ["scale-invariance", "blog", "site/inner"])
def test_site_inside_out_is_refused_but_the_default_site_is_fine(renders, inside):
    before = tree(renders)
    refused(site("--out", renders, "--site", renders / inside), "lies inside the renders folder")
    assert tree(renders) == before
    assert site("--out", renders, "--site", renders / "site").exit_code == 0
    assert (renders / "site" / "index.html").is_file()


def test_a_link_to_the_renders_is_seen_through(renders, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(renders, target_is_directory=True)
    before = tree(renders)
    refused(site("--out", renders, "--site", link), "is the renders folder")
    refused(site("--out", link, "--site", renders / "scale-invariance"), "lies inside the renders folder")
    assert tree(renders) == before


def test_an_empty_folder_is_used_and_an_earlier_site_replaced(renders, tmp_path):
    target = tmp_path / "public"
    target.mkdir()
    assert site("--out", renders, "--site", target).exit_code == 0
    mark = json.loads((target / MARK).read_text())
    files = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file() and p.name != MARK)
    assert mark["format"] == "normgeo-site" and mark["files"] == files and "index.html" in files
    stale = target / "media" / "scale-invariance" / "old.png"  # a file an earlier site wrote
    stale.write_bytes(b"x")
    mark["files"].append("media/scale-invariance/old.png")
    (target / MARK).write_text(json.dumps(mark))
    inode = target.stat().st_ino
    result = site("--out", renders, "--site", target)
    assert result.exit_code == 0, result.output
    assert not stale.exists() and (target / "index.html").is_file() and target.stat().st_ino != inode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["public", "renders"]  # nothing left beside it


def test_a_site_the_user_added_a_file_to_is_left_alone(renders, tmp_path):
    target = tmp_path / "public"
    assert site("--out", renders, "--site", target).exit_code == 0
    (target / "CNAME").write_text("normgeo.example\n")
    before = tree(target)
    refused(site("--out", renders, "--site", target), "did not write", "CNAME")
    assert tree(target) == before


def test_a_site_from_before_the_mark_is_replaced_but_not_a_lookalike(renders, tmp_path):
    target = tmp_path / "public"
    assert site("--out", renders, "--site", target).exit_code == 0
    os.unlink(target / MARK)  # as sites were written before they were marked
    assert site("--out", renders, "--site", target).exit_code == 0
    assert (target / MARK).is_file()
    lookalike = tmp_path / "pages"
    lookalike.mkdir()
    (lookalike / "index.html").write_text("<p>my own page</p>")
    refused(site("--out", renders, "--site", lookalike), "not a site normgeo wrote", "index.html")
    assert (lookalike / "index.html").read_text() == "<p>my own page</p>"


def test_a_file_in_place_of_the_site_is_refused(renders, tmp_path):
    target = tmp_path / "notes.txt"
    target.write_text("mine")
    refused(site("--out", renders, "--site", target), "is a file")
    assert target.read_text() == "mine"
