"""Shared steps and sub-graphs that protocols are composed from.

The layer between the engines, analysis and builders below and the protocols
above. Two kinds of pieces live here:

* **actions** — functions ``(ctx, typed values) -> artifact references`` that do one
  recorded piece of work: build a structure (:mod:`.build`), run and record an MD
  segment (:mod:`.md`), evaluate energies with any :class:`~.energies.EnergyEngine`
  (:mod:`.energies`), fit a model to a table (:mod:`.fit`), write the report
  (:mod:`.report`). A protocol's own step calls one of them and names its successor.
* **sub-graphs** — step classes whose successors are fixed, parameterised by values:
  the equation of state (:mod:`.eos`: ``BuildCrystal -> ScanVolumes -> FitEOS ->
  Report``) is written once and run with ASE calculators, LAMMPS force fields or pw.x.
"""
