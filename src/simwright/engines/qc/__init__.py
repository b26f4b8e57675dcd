"""Molecular quantum chemistry engines, in process: PySCF (HF, DFT, TDDFT, PCM and
ddCOSMO), GFN2-xTB through tblite (ALPB), D3 dispersion through dftd3, geometry
optimisation with geomeTRIC. All of them are the optional extra ``[molecules]`` and are
imported only when a calculation runs."""
