"""What every clip is brought to before it is laid on a sound track: −16 LUFS integrated (ITU-R
BS.1770-4) with its true peak at −1 dBTP at most; the work is :mod:`.loudness`'s (in the sound
process, :mod:`.sound_process`), and the speech cache names it in each clip's key."""

from __future__ import annotations

__all__ = ["TARGET_LUFS", "PEAK_CEILING_DBTP", "SPEECH_TREATMENT"]

TARGET_LUFS = -16.0
PEAK_CEILING_DBTP = -1.0
# what is done to every clip (so part of its cache key)
SPEECH_TREATMENT = f"bs1770 {TARGET_LUFS} LUFS, true peak {PEAK_CEILING_DBTP} dBTP (4x)"
