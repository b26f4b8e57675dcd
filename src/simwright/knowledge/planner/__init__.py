"""The model-free request planner: which module a request is for, values with units, and which
parameter each value fills.
"""
