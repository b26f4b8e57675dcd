"""Check pw.x namelists against the knowledge graph before anything runs.

:func:`validate_input` returns typed :class:`Problem` records: an unknown variable
(with the closest valid name and the namelist it belongs to), a variable in the
wrong namelist, one only later pw.x versions accept, a wrong type, a value that is
not allowed or out of range, a variable set without what it needs, settings
that need a companion (smearing without a width, spin without a starting moment),
and (``reserved``) a variable naming a file or folder, which simwright's template sets.
"""

from __future__ import annotations

from collections.abc import Mapping

from simwright.dft.companions import check_companions
from simwright.dft.kg_rules import NAMELIST_NEEDS, REQUIREMENTS, Value
from simwright.dft.knowledge_graph import (
    KnowledgeGraph,
    Parameter,
    load_knowledge_graph,
    split_name,
)
from simwright.dft.problems import Namelists, Problem, ProblemKind, errors, flat
from simwright.engines.espresso.template import path_variables

__all__ = [
    "Namelists",
    "Problem",
    "ProblemKind",
    "errors",
    "reserved_problems",
    "validate_input",
]


def validate_input(
    namelists: Namelists, kg: KnowledgeGraph | None = None, *, template_paths: bool = True
) -> list[Problem]:
    """All problems of ``namelists`` (namelist -> variable -> value), errors first.

    With ``template_paths`` (simwright's template writes the input) every
    variable naming a file or folder is a ``reserved`` error; an executor
    checking a whole input written by a model passes False and confines them.
    """
    kg = kg or load_knowledge_graph()
    problems: list[Problem] = reserved_problems(namelists) if template_paths else []
    for nl, values in namelists.items():
        for name, value in values.items():
            problems.extend(_check_variable(kg, nl.lower(), name, value))
    problems.extend(_check_requirements(namelists, kg))
    problems.extend(check_companions(namelists))
    return sorted(problems, key=lambda p: p.severity != "error")


def reserved_problems(namelists: Namelists) -> list[Problem]:
    """A ``reserved`` error for each variable naming a file or folder (set by the template)."""
    return [
        Problem(
            "reserved",
            "error",
            nl.lower(),
            name,
            f"{name} names a file or folder; simwright sets outdir, prefix and pseudo_dir "
            "itself, inside the step directory",
            fix={nl.lower(): {name: None}},
        )
        for nl, values in namelists.items()
        for name in values
        if path_variables({nl: {name: None}})
    ]


def _check_variable(kg: KnowledgeGraph, nl: str, name: str, value: Value) -> list[Problem]:
    base, index = split_name(name)
    param = kg.parameters.get(base.lower())
    if param is None:
        return [_unknown(kg, nl, name, value)]
    out: list[Problem] = []
    if param.namelist != nl:
        move = _merge({nl: {name: None}}, {param.namelist: {name: value}})
        out.append(
            Problem(
                "wrong_namelist",
                "error",
                nl,
                name,
                f"{param.name} belongs to &{param.namelist.upper()}, not &{nl.upper()}",
                param.name,
                param.namelist,
                move,
            )
        )
    if param.status == "rejected":
        out.append(
            Problem(
                "rejected",
                "error",
                nl,
                name,
                f"{param.name} is documented for 6.7 but the 6.7 program does not read it",
                fix={nl: {name: None}},
            )
        )
        return out
    if param.status == "undocumented":
        out.append(
            Problem(
                "undocumented",
                "warning",
                nl,
                name,
                f"{param.name} is read by pw.x 6.7 but not documented for it",
            )
        )
        return out
    if param.indexed and index is None:
        out.append(
            Problem(
                "missing_index",
                "warning",
                nl,
                name,
                f"{param.name} is an array: this sets only {param.name}(1); write the index",
                fix={nl: {name: None, f"{param.name}(1)": value}},
            )
        )
    out.extend(_check_value(param, nl, name, value))
    return out


def _merge(
    *changes: Mapping[str, Mapping[str, Value | None]],
) -> dict[str, dict[str, Value | None]]:
    out: dict[str, dict[str, Value | None]] = {}
    for change in changes:
        for nl, values in change.items():
            out.setdefault(nl, {}).update(values)
    return out


def _unknown(kg: KnowledgeGraph, nl: str, name: str, value: Value) -> Problem:
    later = kg.later_version(name)
    if later is not None:
        return Problem(
            "later_version",
            "error",
            nl,
            name,
            f"{name} exists only in pw.x versions after {kg.version} (&{later.upper()})",
            fix={nl: {name: None}},
        )
    close = kg.closest(name)
    if close:
        best = close[0]
        _, index = split_name(name)
        new_name = best.name + (f"({index})" if index else "")
        return Problem(
            "unknown_variable",
            "error",
            nl,
            name,
            f"pw.x {kg.version} has no variable {name!r}; did you mean {best.name!r} "
            f"(in &{best.namelist.upper()})?",
            best.name,
            best.namelist,
            _merge({nl: {name: None}}, {best.namelist: {new_name: value}}),
        )
    return Problem(
        "unknown_variable",
        "error",
        nl,
        name,
        f"pw.x {kg.version} has no variable {name!r} and none with a similar name",
        fix={nl: {name: None}},
    )


def _type_ok(param: Parameter, value: Value) -> bool:
    if param.type == "bool":
        return isinstance(value, bool)
    if param.type == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if param.type == "float":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if param.type == "str":
        return isinstance(value, str)
    return True


def _check_value(param: Parameter, nl: str, name: str, value: Value) -> list[Problem]:
    if not _type_ok(param, value):
        return [
            Problem(
                "wrong_type",
                "error",
                nl,
                name,
                f"{param.name} must be of type {param.type}, got {value!r}",
            )
        ]
    if param.allowed and param.kind == "variable":
        allowed = [a.lower() if isinstance(a, str) else a for a in param.allowed]
        probe = value.lower() if isinstance(value, str) else value
        if probe not in allowed:
            choices = ", ".join(repr(a) for a in param.allowed)
            if param.strict:
                message = f"{param.name}={value!r} is not allowed; use one of {choices}"
            else:
                message = (
                    f"{param.name}={value!r} is not a documented value ({choices}); "
                    "pw.x 6.7 falls back to its default"
                )
            return [
                Problem("not_allowed", "error" if param.strict else "warning", nl, name, message)
            ]
    if param.range and isinstance(value, int | float) and not isinstance(value, bool):
        lo, hi = param.range
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            span = f"{lo} .. {hi if hi is not None else '∞'}"
            message = f"{param.name}={value!r} is outside {span}"
            if not param.strict:
                message += " (pw.x 6.7 runs with it; check that it is meant)"
            return [
                Problem("out_of_range", "error" if param.strict else "warning", nl, name, message)
            ]
    return []


def _active(value: Value | None, param: Parameter | None) -> bool:
    """Set to something that could act: not unset, not false, not the default."""
    if value is None or value is False:
        return False
    return param is None or param.default is None or value != param.default


def _check_requirements(namelists: Namelists, kg: KnowledgeGraph) -> list[Problem]:
    """ "X has no effect unless Y" (warnings: pw.x runs) and namelists per calculation."""
    values = flat(namelists)
    out: list[Problem] = []
    for r in REQUIREMENTS:
        value = values.get(r.source.lower())
        if not _active(value, kg.lookup(r.source)) or r.test(values.get(r.target.lower())):
            continue
        target = kg.lookup(r.target)
        home = target.namelist if target is not None else "system"
        fix = {home: dict(r.fix)} if r.fix else {}
        out.append(
            Problem(
                "missing_dependency",
                "warning",
                _where(namelists, r.source),
                r.source,
                f"{r.source} has no effect unless {r.expect}",
                r.target,
                None,
                fix,
            )
        )
    calc = str(values.get("calculation", "scf")).lower()
    for nl, calcs in NAMELIST_NEEDS.items():
        if calc in calcs and nl not in {k.lower() for k in namelists}:
            out.append(
                Problem(
                    "missing_namelist",
                    "error",
                    nl,
                    f"&{nl.upper()}",
                    f"calculation='{calc}' needs the &{nl.upper()} namelist",
                    fix={nl: {}},
                )
            )
        elif calc not in calcs and namelists.get(nl):
            out.append(
                Problem(
                    "inconsistent",
                    "warning",
                    nl,
                    f"&{nl.upper()}",
                    f"&{nl.upper()} is ignored for calculation='{calc}'",
                )
            )
    return out


def _where(namelists: Namelists, name: str) -> str:
    for nl, values in namelists.items():
        if any(split_name(k)[0].lower() == name.lower() for k in values):
            return nl
    return "system"
