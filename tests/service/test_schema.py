"""Property tests of the published OpenAPI schema (Schemathesis): no input it admits, and
no input it refuses, makes the service answer 5xx. In-process (ASGI) on a real store;
bounded examples per operation so the whole test takes well under a minute."""

from __future__ import annotations

from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, given, settings

from simwright.api import Simwright
from simwright.service.app import create_app
from simwright.service.auth import Auth
from simwright.service.config import ServiceConfig
from simwright.settings import Settings

EXAMPLES = 12


def test_no_input_makes_a_server_error(tmp_path: Path) -> None:
    api = Simwright(Settings(home=tmp_path / "home", threads=1))
    schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(api, Auth(ServiceConfig())))
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 9  # every route is in the schema
    failures: list[str] = []
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )
        def check(case: schemathesis.Case) -> None:
            response = case.call()
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.formatted_path}: {response.text[:300]}")

        check()
    assert failures == []
