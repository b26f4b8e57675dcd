"""Molecular quantum chemistry protocols: PySCF (HF, DFT, TDDFT, PCM/ddCOSMO) and
GFN2-xTB (tblite), geometries optimised with geomeTRIC (docs/molecules.md)."""
