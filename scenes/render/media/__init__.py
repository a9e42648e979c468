"""Media: video remux and frames (:mod:`.video`), GIFs (:mod:`.gif`, :mod:`.gif_palette`), animated
WebP (:mod:`.webp`), small looping MP4s (:mod:`.loop`), Manim's PNG frames (:mod:`.frames`), SSIM
(:mod:`.quality`), and the web animation of a job, one encoder per format (:mod:`.animation`)."""
