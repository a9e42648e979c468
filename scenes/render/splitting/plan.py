"""Choosing a split render's ranges: what each animation costs, where each range ends, what the
last part gives the first, and what the first part may render before the plan is known."""

from __future__ import annotations

__all__ = ["plan_parts", "plan_gift", "plan_costs", "lead_may_start", "hold_less_than", "GIFT_MARGIN"]

# The share of the last part's remaining time a gift must save (in the last part's reckoning) before
# animations are given to the first part: it also starts a segment and a still image of its own.
GIFT_MARGIN = 0.05


def plan_parts(costs: list[float], parts: int, lead_extra: float = 0.0) -> list[tuple[int, int]]:
    """Contiguous ranges ``(first, last)`` of animation numbers, at most ``parts`` of them, never an
    empty one, that finish as nearly together as whole animations allow: the first range is
    rendered by a part that is ``lead_extra`` (in cost units) ahead of the others, so it gets that
    much more and the others share the rest equally. With total cost T and n ranges, the first
    should end where its cost reaches (T + (n − 1)·lead_extra)/n, the k-th a further
    (T − that)/(n − 1) on. Of two ranges, the first ends before the animation that crosses its
    mark: when the first part is done early the last part can give it animations (see
    :func:`plan_gift`), a late one cannot be helped. Otherwise each range ends before or after that
    animation, whichever lands nearer (a middle part that runs late cannot be helped either).

    >>> plan_parts([1, 1, 1, 1], 2)
    [(0, 1), (2, 3)]
    >>> plan_parts([5, 1, 1, 1, 1, 1], 2)
    [(0, 0), (1, 5)]
    >>> plan_parts([3, 3, 1, 1], 2)
    [(0, 0), (1, 3)]
    >>> plan_parts([1, 3, 1, 1], 2), plan_parts([1, 3, 1, 1, 1, 1], 3)
    ([(0, 0), (1, 3)], [(0, 1), (2, 2), (3, 5)])
    >>> plan_parts([2.0], 3)
    [(0, 0)]
    >>> plan_parts([1] * 8, 2, lead_extra=2)
    [(0, 4), (5, 7)]
    """
    count = len(costs)
    parts = max(1, min(parts, count))
    total = float(sum(costs)) or 1.0
    first_share = min(total, (total + (parts - 1) * max(0.0, lead_extra)) / parts)
    rest_share = (total - first_share) / (parts - 1) if parts > 1 else 0.0
    ranges, first, elapsed = [], 0, 0.0
    for index, cost in enumerate(costs):
        remaining_parts = parts - len(ranges) - 1
        if remaining_parts == 0:
            break
        mark = first_share + len(ranges) * rest_share
        crosses = elapsed + cost > mark + 1e-9
        if index > first and crosses and ((parts == 2 and not ranges) or mark - elapsed < elapsed + cost - mark):
            ranges.append((first, index - 1))  # the first of two, or nearer the mark without this animation
            first = index
            remaining_parts -= 1
            if remaining_parts == 0:
                break
            mark += rest_share
        elapsed += cost
        # close after this animation once it reaches the mark, leaving one animation per remaining part
        if elapsed >= mark - 1e-9 or count - index - 1 == remaining_parts:
            ranges.append((first, index))
            first = index + 1
    ranges.append((first, count - 1))
    return ranges


def plan_gift(costs: list[float], untouched: int, busy: float, rate: float, skips: list[float], lead_from: int,
              margin: float = GIFT_MARGIN) -> int:
    """The first animation the last part gives the first part, which is free: the first part
    renders it and every one after it, the last part stops before it. ``untouched`` is the first
    animation the last part has not begun, ``busy`` the seconds it still needs for the one it is in,
    ``rate`` its real seconds per unit of estimated cost so far; the first part skips from
    ``lead_from`` up to the gift, at ``skips`` seconds each. Returns the choice whose later finish is
    earliest, giving as little as that allows, or ``len(costs)`` (nothing) unless the gift saves
    more than ``margin`` of what the last part would need alone.

    >>> plan_gift([4, 4, 1, 1, 2], untouched=2, busy=0.0, rate=1.0, skips=[0.0] * 5, lead_from=1)
    4
    >>> plan_gift([4, 4, 1, 1, 2], untouched=4, busy=0.1, rate=1.0, skips=[0.0] * 5, lead_from=1)
    5
    """
    count = len(costs)
    keep_all = busy + rate * sum(costs[untouched:])
    best, chosen = keep_all, count
    for gift in range(count - 1, untouched - 1, -1):
        kept = busy + rate * sum(costs[untouched:gift])
        given = sum(skips[lead_from:gift]) + rate * sum(costs[gift:])
        if max(kept, given) < best - 1e-9:
            best, chosen = max(kept, given), gift
    return chosen if best < keep_all * (1 - margin) else count


def plan_costs(plan: dict) -> list[float]:
    """The estimated cost of each animation from a plan's rows (seconds drawing what moves, frames
    drawn, frames held): drawing, plus each drawn frame's conversion and encoding (``drawn``
    seconds), plus each held frame's encoding (``held``: a wait shows one frame many times, and
    x264 is quick with a frame equal to the one before).

    >>> plan_costs({"rows": [[0.5, 10, 0], [0.1, 1, 120]], "drawn": 0.01, "held": 0.001})
    [0.6, 0.23]
    """
    return [round(drawing + drawn * plan["drawn"] + held * plan["held"], 12) for drawing, drawn, held in plan["rows"]]


def lead_may_start(number: int, rows: list[list[float]], parts: int) -> bool:
    """Whether the first part may render animation ``number`` knowing only the plan's first rows:
    only if every plan the remaining rows can complete gives the first range at least animations
    0…``number``. The first range's mark is at least a ``parts``-th of the total, and
    :func:`plan_parts` ends a range at the latest just before the animation that crosses its mark;
    so it is enough that the rows up to ``number`` hold less than that share of the rows seen
    (:func:`hold_less_than`), and that ``parts`` − 1 seen animations follow it (one for each
    other range).

    >>> rows = [[1, 1, 1]] * 10
    >>> lead_may_start(0, [], 2), lead_may_start(3, rows, 2), lead_may_start(4, rows, 2)
    (True, True, False)
    >>> lead_may_start(1, [[1, 1, 1]], 2)
    False
    """
    if number == 0:
        return True  # no range is empty: the first always holds animation 0
    if number > len(rows) - parts:
        return False
    return hold_less_than(rows, number, 1, parts)


def hold_less_than(rows: list[list[float]], number: int, share: int, parts: int) -> bool:
    """Whether rows 0…``number`` hold less than ``share``/``parts`` of every column of ``rows``, so
    less than that share of the cost whatever non-negative factors :func:`plan_costs` gives the
    columns, and whatever rows still come (they only add). The first column has factor 1; a margin
    above :func:`plan_parts`' rounding tolerance keeps it strict.

    >>> hold_less_than([[1, 1, 0]] * 4, 0, 1, 2), hold_less_than([[1, 1, 0]] * 4, 1, 1, 2)
    (True, False)
    """
    upto = [sum(column) for column in zip(*rows[:number + 1])]
    seen = [sum(column) for column in zip(*rows)]
    return upto[0] * parts <= seen[0] * share - parts * 1e-6 and \
        all(u * parts <= t * share for u, t in zip(upto[1:], seen[1:]))

