"""Manim scenes that explain normalization geometry, and the toolkit they share.

Importing this package loads nothing heavy; scene modules import manim themselves.
"""
