"""The Li-ion electrolyte protocol: salt and solvents by name, packing, equilibration,
MSD with the centre-of-mass drift removed, Einstein fit and Nernst–Einstein conductivity.
"""
