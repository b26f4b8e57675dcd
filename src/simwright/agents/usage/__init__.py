"""Metering of model calls: tokens, the usage ledger with its caps, records of model calls, and
the ledger as ``simwright show`` prints it.
"""
