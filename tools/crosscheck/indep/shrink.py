"""Delta debugging on words (Zeller's ddmin): the smallest argv, by removing chunks of words,
for which ``still(argv)`` holds. The complements are tried first at each granularity, then the
chunks themselves; single words last; then windows of two and three neighbouring words (an option
with its values). ``budget`` caps the number of ``still`` calls."""

from __future__ import annotations

from typing import Callable


def ddmin(words: list[str], still: Callable[[list[str]], bool], budget: int = 300) -> list[str]:
    calls = 0

    def test(c: list[str]) -> bool:
        nonlocal calls
        calls += 1
        return still(c)

    cur = list(words)
    n = 2
    while len(cur) >= 2 and calls < budget:
        size = max(1, len(cur) // n)
        chunks = [cur[k:k + size] for k in range(0, len(cur), size)]
        reduced = False
        for k in range(len(chunks)):
            comp = [w for j, c in enumerate(chunks) if j != k for w in c]
            if calls < budget and test(comp):
                cur, n, reduced = comp, max(n - 1, 2), True
                break
        if not reduced:
            for c in chunks:
                if len(c) < len(cur) and calls < budget and test(c):
                    cur, n, reduced = c, 2, True
                    break
        if not reduced:
            if n >= len(cur):
                break
            n = min(len(cur), n * 2)
    # ddmin is 1-minimal; an option and its value go together, so windows of 2 and 3 words too
    changed = True
    while changed and calls < budget:
        changed = False
        for width in (2, 3):
            k = 0
            while k + width <= len(cur) and calls < budget:
                cand = cur[:k] + cur[k + width:]
                if test(cand):
                    cur, changed = cand, True
                else:
                    k += 1
    if len(cur) == 1 and calls < budget and test([]):
        return []
    return cur
