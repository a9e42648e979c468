"""Splitting: one video rendered as ranges of its animations on several workers, and joined.

:mod:`.part` (how a split render works, and the three kinds of part), :mod:`.plan` (the ranges and
the gift), :mod:`.lead` and :mod:`.tail` (the first and last parts' sides of the hand-off),
:mod:`.snapshots` (forked copies), :mod:`.costs` (what a frame costs to encode), :mod:`.waiting`,
:mod:`.contract` (the hand-off's names and a part's result) and :mod:`.join` (on the client).
"""

from scenes.render.splitting.contract import HANDOFF_NAMES, NOTHING, Name, PartResult, Run
from scenes.render.splitting.join import join_parts
from scenes.render.splitting.part import render_lead, render_middle, render_part, render_tail
from scenes.render.splitting.plan import GIFT_MARGIN, lead_may_start, plan_costs, plan_gift, plan_parts

__all__ = ["HANDOFF_NAMES", "NOTHING", "Name", "PartResult", "Run", "join_parts", "render_lead", "render_middle",
           "render_part", "render_tail", "GIFT_MARGIN", "lead_may_start", "plan_costs", "plan_gift", "plan_parts"]
