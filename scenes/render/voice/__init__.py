"""The voice wing: narration for the steps of a render, offline.

* :mod:`.choice`: ``--voice none|en|ru|piper:PATH.onnx|recordings:DIR`` as a typed voice, checked;
* :mod:`.piper_speaker` (with its process, :mod:`.piper_child`, and :mod:`.piper_words`), :mod:`.festival_speaker`,
  :mod:`.recordings`: the speakers, each giving a :class:`~.clip.Clip` (samples, rate, word times);
* :mod:`.loudness`: −16 LUFS integrated (BS.1770), true peak ≤ −1 dBTP (:mod:`.treatment` names it);
* :mod:`.track`, :mod:`.peak_checked`: the sound track and its mux, both done in the sound process
  (:mod:`.sound_child`, spoken to by :mod:`.sound_process`), so that a render never loads scipy;
* :mod:`.cache`: clips per (voice, language, text); :mod:`.narrator`: all of it behind one call.

Nothing here imports Manim.
"""
