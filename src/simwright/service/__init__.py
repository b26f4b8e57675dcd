"""The service: simwright over HTTP (FastAPI), with runs executed by worker processes.

Optional extra ``simwright[service]``. ``simwright serve`` starts it
(:func:`simwright.service.server.serve`); see docs/service.md.
"""
