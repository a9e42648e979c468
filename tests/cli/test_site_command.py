"""`normgeo site`: what it refuses and what its help says."""

from scenes.cli.main import cli
from click.testing import CliRunner


def test_a_folder_with_no_manifest_is_refused_in_one_line(tmp_path):
    result = CliRunner().invoke(cli, ["site", "--out", str(tmp_path / "rendres")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("normgeo: error:") and "manifest.json" in lines[0]
    assert not (tmp_path / "rendres" / "site").exists()


def test_site_lang_help_says_it_picks_the_first_page():
    result = CliRunner().invoke(cli, ["site", "--help"])
    assert "index.html" in result.output and "on-screen text" not in result.output
