"""Pseudopotential families and kinds a request may name ("SSSP", "pslibrary", "PAW").

A *kind* (PAW, ultrasoft, norm-conserving) is read from the UPF header. A *family* is a
published set of files; its files are recognised by the family's own file-naming
convention where it has one (pslibrary ``*_psl.1.0.0.UPF``, SG15 ``*_ONCV_PBE-1.2.upf``,
GBRV ``*_v1.5.uspp.F.UPF``, ONCVPSP ``*oncv*``), or by the folder they were unpacked
into (a folder whose name contains the family's name: ``SSSP_1.3_PBE_efficiency/``,
``pseudo-dojo/``). A family with no file for an element is refused by name.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from simwright.engines.espresso.pseudo import PseudoInfo

KINDS: dict[str, str] = {"paw": "PAW", "ultrasoft": "US", "norm-conserving": "NC"}
"""Kinds a request may name, and the kind the UPF header gives."""

NAME_CONVENTIONS: dict[str, re.Pattern[str]] = {
    "pslibrary": re.compile(r"_psl\.\d", re.IGNORECASE),
    "sg15": re.compile(r"_ONCV_PBE(?:sol)?-\d", re.IGNORECASE),
    "gbrv": re.compile(r"_v\d(?:\.\d+)?\.uspp", re.IGNORECASE),
    "oncv": re.compile(r"oncv", re.IGNORECASE),
}
"""File-naming conventions of the families that have one."""

FOLDER_WORDS: dict[str, tuple[str, ...]] = {
    "sssp": ("sssp",),
    "dojo": ("dojo",),
    "pslibrary": ("pslibrary",),
    "sg15": ("sg15",),
    "gbrv": ("gbrv",),
    "oncv": ("oncv", "sg15"),
}
"""Folder-name words that mark the files inside as one family's."""

TITLES: dict[str, str] = {
    "sssp": "SSSP",
    "sg15": "SG15",
    "gbrv": "GBRV",
    "pslibrary": "pslibrary",
    "dojo": "PseudoDojo",
    "oncv": "ONCV",
    "paw": "PAW",
    "ultrasoft": "ultrasoft",
    "norm-conserving": "norm-conserving",
}
"""How each family or kind is written in messages."""


def in_family(info: PseudoInfo, family: str) -> bool:
    """True when ``info`` is of ``family`` (a family or a kind)."""
    if family in KINDS:
        return info.kind == KINDS[family]
    rule = NAME_CONVENTIONS.get(family)
    if rule is not None and rule.search(info.name):
        return True
    folders = [p.name.lower() for p in info.path.parents]
    return any(word in folder for word in FOLDER_WORDS.get(family, ()) for folder in folders)


def family_filter(families: tuple[str, ...]) -> Callable[[PseudoInfo], bool]:
    """A predicate keeping the files that belong to every named family or kind."""
    return lambda info: all(in_family(info, f) for f in families)


def describe(families: tuple[str, ...]) -> str:
    """'SG15 norm-conserving' for messages."""
    return " ".join(TITLES.get(f, f) for f in families)
