"""Literal anchors of a regular expression: for each top-level alternative, one run of
letters and digits that every match of that alternative contains.

The planner checks a request against ~150 choice patterns; compiling them all costs
more than the rest of reading a request. A pattern whose anchors do not occur in the
(lower-cased) request cannot match it, so it is never compiled. The derivation is
conservative: only characters outside groups, classes and escapes count, a character
followed by ``?``, ``*`` or ``{`` is optional and ends the run, and an alternative
without such a run of two or more characters makes the whole pattern anchorless
(always compiled).
"""

from __future__ import annotations

import re

_LITERAL = re.compile(r"[a-z0-9]")
_OPTIONAL = "?*{"


def alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of ``pattern`` (split at ``|`` outside groups,
    classes and escapes)."""
    parts, depth, in_class, start, i = [], 0, False, 0, 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    return parts


def _runs(alternative: str) -> list[str]:
    """Runs of required literal characters at depth 0 of one alternative."""
    runs, run, depth, in_class, i = [], "", 0, False, 0
    while i < len(alternative):
        c = alternative[i]
        nxt = alternative[i + 1] if i + 1 < len(alternative) else ""
        literal = depth == 0 and not in_class and _LITERAL.fullmatch(c.lower()) is not None
        if literal and (not nxt or nxt not in _OPTIONAL):
            run += c.lower()
        else:
            if run:
                runs.append(run)
            run = ""
            if c == "\\":
                i += 1  # the escaped character is never counted
            elif in_class:
                in_class = c != "]"
            elif c == "[":
                in_class = True
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
        i += 1
    if run:
        runs.append(run)
    return runs


def anchors(pattern: str) -> tuple[str, ...] | None:
    """One required literal per alternative (the longest), or None when some
    alternative has none of two or more characters: then any text may match."""
    found = []
    for alternative in alternatives(pattern):
        runs = [r for r in _runs(alternative) if len(r) >= 2]
        if not runs:
            return None
        found.append(max(runs, key=len))
    return tuple(found)
