"""DFT protocols run by pw.x: SCF, relaxation, EOS, bands, DOS, cohesive energy, work function.

Shared here: the request words (:mod:`.words`), the energy engine over pw.x
(:mod:`.energies`), post-processing with the QE tools (:mod:`.post`) and plots.
"""
