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


def test_still_and_gif_offer_no_split_which_only_videos_use():
    for command in ("still", "gif"):
        assert "--split" not in CliRunner().invoke(cli, [command, "--help"]).output
    assert "--split" in CliRunner().invoke(cli, ["render", "--help"]).output


def test_render_help_says_which_formats_have_subtitles_and_to_run_site():
    text = " ".join(CliRunner().invoke(cli, ["render", "--help"]).output.split())
    assert "png (the final frame) and gif (the web animation) have no subtitles" in text and "normgeo site" in text


def test_the_summary_says_how_to_refresh_the_site_when_something_was_made():
    from types import SimpleNamespace

    from scenes.cli.progress import summary_line

    made = [SimpleNamespace(status="made")]
    assert "`normgeo site --out renders` puts them on the site" in summary_line(made, "renders", site_hint=True)
    assert "normgeo site" not in summary_line([SimpleNamespace(status="cached")], "renders", site_hint=True)
    assert "normgeo site" not in summary_line(made, "renders")


def test_the_progress_display_leaves_no_blank_line_off_a_terminal(capfd):
    """Piped (not a terminal), the bar draws nothing, so nothing stands between the last `made`
    line and the summary, or before "normgeo: interrupted" after Ctrl-C."""
    import pytest

    from scenes.cli.progress import TerminalReporter

    reporter = TerminalReporter(3)
    with reporter:
        reporter.console.print("made x")
    assert capfd.readouterr().err == "made x\n"
    with pytest.raises(KeyboardInterrupt), TerminalReporter(3):
        raise KeyboardInterrupt
    assert capfd.readouterr().err == ""


def test_scheduler_help_names_normgeo_worker_as_the_readme_does():
    text = " ".join(CliRunner().invoke(cli, ["render", "--help"]).output.split())
    assert "`normgeo worker tcp://HOST:PORT`" in text and "dask worker" not in text


def test_each_writing_command_says_in_its_help_what_it_touches():
    for command, words in (("render", "other files are never touched or deleted"), ("still", "nothing else"),
                           ("gif", "never replace each other"), ("lecture", "Nothing is deleted"),
                           ("slides", "and nothing else"), ("states", "writes nothing else"),
                           ("site", "never deletes a file normgeo did not write")):
        text = " ".join(CliRunner().invoke(cli, [command, "--help"]).output.split())
        assert words in text, command
