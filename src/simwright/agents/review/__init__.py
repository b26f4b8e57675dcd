"""Review and safety of model output: the critic committee, the fabrication guard and the
reports models write.
"""
