"""YAML reading and the parsed-document cache."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from simwright import yamlio
from simwright.knowledge.modules import CACHE_FILE, load_modules


def test_a_cached_document_reads_back_equal_from_a_new_cache(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    first = yamlio.YamlCache(path)
    text = "a: 1\nb: [x, 2.5, {c: null}]\n"
    assert first.load(text) == {"a": 1, "b": ["x", 2.5, {"c": None}]}
    first.save()
    stored = json.loads(path.read_text())
    assert len(stored) == 1
    again = yamlio.YamlCache(path)
    assert again.load(text) == {"a": 1, "b": ["x", 2.5, {"c": None}]}


def test_values_json_cannot_keep_are_parsed_each_time(tmp_path: Path) -> None:
    cache = yamlio.YamlCache(tmp_path / "c.json")
    assert cache.load("when: 2024-01-02\n") == {"when": datetime.date(2024, 1, 2)}
    assert cache.load("1: one\n") == {1: "one"}
    cache.save()
    assert not (tmp_path / "c.json").exists()


def test_a_broken_or_unwritable_cache_only_costs_time(tmp_path: Path) -> None:
    broken = tmp_path / "c.json"
    broken.write_text("{not json")
    assert yamlio.YamlCache(broken).load("a: 1\n") == {"a": 1}
    blocked = tmp_path / "file" / "c.json"
    (tmp_path / "file").write_text("a file where a folder should be")
    cache = yamlio.YamlCache(blocked)
    assert cache.load("a: 1\n") == {"a": 1}
    cache.save()  # no error


def test_yaml_errors_are_recognised_without_importing_pyyaml_first() -> None:
    with pytest.raises(Exception) as caught:
        yamlio.safe_load("a: [1,\n")
    assert yamlio.is_yaml_error(caught.value)
    assert not yamlio.is_yaml_error(ValueError("x"))


def test_knowledge_modules_are_the_same_through_the_cache(tmp_path: Path) -> None:
    plain = load_modules()
    load_modules(cache_dir=tmp_path)  # writes the cache (when this process has not yet)
    cached = load_modules(cache_dir=tmp_path)
    assert [m.model_dump() for m in cached] == [m.model_dump() for m in plain]
    assert (tmp_path / CACHE_FILE).is_file()
