"""Subtitle files read back: SRT and WebVTT times past 6 minutes and past one hour (the lecture
is 12 minutes; a course may join more), and the joined lecture's cues never overlap.

Expected stamps are written out by hand (6 min 1.25 s is 00:06:01,250), not produced by the
module's own formatting."""

import re

import pytest
import srt

from scenes.render.subtitles import join_subtitles, srt_to_vtt

STAMP = re.compile(r"(\d\d):(\d\d):(\d\d)[,.](\d\d\d) --> (\d\d):(\d\d):(\d\d)[,.](\d\d\d)")


def spans(text: str) -> list[tuple[int, int]]:
    """(start, end) in milliseconds of every cue, read with a regular expression, not with srt."""
    out = []
    for match in STAMP.finditer(text):
        h1, m1, s1, f1, h2, m2, s2, f2 = map(int, match.groups())
        out.append(((h1 * 60 + m1) * 60_000 + s1 * 1000 + f1, (h2 * 60 + m2) * 60_000 + s2 * 1000 + f2))
    return out


def one_cue(start: str, end: str, content: str = "x") -> str:
    return f"1\n{start} --> {end}\n{content}\n"


@pytest.mark.parametrize(("start", "end", "vtt"), [
    ("00:06:01,250", "00:06:59,999", "00:06:01.250 --> 00:06:59.999"),
    ("00:59:59,999", "01:00:00,001", "00:59:59.999 --> 01:00:00.001"),
    ("01:12:03,040", "02:00:00,000", "01:12:03.040 --> 02:00:00.000"),
    ("10:00:00,000", "10:00:01,500", "10:00:00.000 --> 10:00:01.500"),
])
def test_vtt_keeps_hours_minutes_and_milliseconds(start, end, vtt):
    out = srt_to_vtt(one_cue(start, end, "Hello"))
    assert out == f"WEBVTT\n\n1\n{vtt}\nHello\n"


@pytest.mark.parametrize(("offset", "expected"), [
    (361.25, (361_250, 362_750)),              # past 6 minutes: 00:06:01,250
    (3599.5, (3_599_500, 3_601_000)),          # across the hour
    (3 * 3600 + 7 * 60 + 9.004, (11_229_004, 11_230_504)),
])
def test_joined_srt_and_vtt_times_past_six_minutes_and_past_an_hour(offset, expected):
    """A part starting at ``offset`` seconds shifts its cue (0 → 1.5 s) by exactly that much."""
    joined = join_subtitles([(one_cue("00:00:00,000", "00:00:01,500"), offset)])
    assert spans(joined) == [expected]
    assert spans(srt_to_vtt(joined)) == [expected]


def test_joined_stamps_are_written_in_hours_minutes_seconds():
    joined = join_subtitles([(one_cue("00:00:00,000", "00:00:02,000"), 0.0),
                             (one_cue("00:00:00,000", "00:00:02,000"), 6 * 60 + 1.25),
                             (one_cue("00:00:00,000", "00:00:02,000"), 3600 + 2 * 60 + 3.5)])
    assert "00:06:01,250 --> 00:06:03,250" in joined
    assert "01:02:03,500 --> 01:02:05,500" in joined
    assert "01:02:03.500 --> 01:02:05.500" in srt_to_vtt(joined)
    assert [int(line) for line in joined.split("\n") if line.isdigit()] == [1, 2, 3]


def test_a_parts_last_cue_outlasting_its_video_does_not_overlap_the_next_part():
    """Issue 25: cue 84 started at 03:57.398 and cue 83 ended at 03:57.399. The part's last cue
    ends 1 ms after the part's video (frames round the scene's clock): it must end where the next
    part's first cue starts."""
    first = one_cue("00:00:00,000", "00:03:57,399", "cue 83")
    second = one_cue("00:00:00,000", "00:00:02,000", "cue 84")
    joined = join_subtitles([(first, 0.0), (second, 237.398)])
    assert spans(joined) == [(0, 237_398), (237_398, 239_398)]
    assert spans(srt_to_vtt(joined)) == [(0, 237_398), (237_398, 239_398)]


def test_sub_millisecond_offsets_never_make_cues_overlap_once_written():
    """Offsets that are not whole milliseconds (video durations are not) are rounded before the
    cues are clipped, so the written stamps never overlap: end of one ≤ start of the next."""
    parts, moment = [], 0.0
    for index in range(40):
        duration = 5.0 + (index * 0.0137) % 0.9 + 0.0004
        parts.append((one_cue("00:00:00,000", f"00:00:0{int(duration)},{round(duration % 1 * 1000) % 1000:03d}"),
                      moment))
        moment += duration - 0.0006  # each part's video is a little shorter than its last cue
    joined = join_subtitles(parts)
    times = spans(joined)
    assert len(times) == 40
    assert all(end <= following for (_, end), (following, _) in zip(times, times[1:]))
    assert all(start < end for start, end in times)
    assert [cue.content for cue in srt.parse(joined)] == ["x"] * 40


def test_cues_are_put_in_time_order_and_a_cue_with_no_time_left_is_dropped():
    a = one_cue("00:00:05,000", "00:00:06,000", "late")
    b = "1\n00:00:00,000 --> 00:00:01,000\nearly\n\n2\n00:00:01,000 --> 00:00:01,000\nempty\n"
    joined = join_subtitles([(a, 0.0), (b, 0.0)])
    assert [cue.content for cue in srt.parse(joined)] == ["early", "late"]
