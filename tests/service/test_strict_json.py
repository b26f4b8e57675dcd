"""The service's JSON responses are strict JSON: a non-finite number becomes null and
is named under ``non_finite``; finite content is rendered as is."""

from __future__ import annotations

import json

from simwright.service.app import StrictJSON


def test_non_finite_numbers_become_null_and_are_listed() -> None:
    body = json.loads(StrictJSON({"values": {"d": float("nan"), "k": [1.0, float("inf")]}}).body)
    assert body["values"] == {"d": None, "k": [1.0, None]}
    assert body["non_finite"] == {"values.d": "nan", "values.k[1]": "inf"}


def test_finite_content_is_rendered_unchanged() -> None:
    content = {"run_id": "r", "steps": [{"wall_s": 0.5, "error": None}], "text": "Å"}
    assert json.loads(StrictJSON(content).body) == content
