from pathlib import Path

import pytest

from simwright.errors import StoreError
from simwright.graph.lock import run_lock
from simwright.locks import exclusive_lock, is_locked


def test_a_held_lock_refuses_a_second_holder_with_the_callers_error(tmp_path: Path) -> None:
    path = tmp_path / "run" / ".lock"
    busy = lambda: StoreError("run is busy")  # noqa: E731
    with exclusive_lock(path, busy=busy):
        assert is_locked(path)
        with pytest.raises(StoreError, match="run is busy"), exclusive_lock(path, busy=busy):
            pass
    assert not is_locked(path)
    with exclusive_lock(path, busy=busy):  # released: it can be taken again
        assert path.read_text().strip().isdigit()


def test_a_missing_lock_file_is_not_locked(tmp_path: Path) -> None:
    assert not is_locked(tmp_path / "nothing.lock")
    assert not (tmp_path / "nothing.lock").exists()


def test_a_run_directory_is_advanced_by_one_holder(tmp_path: Path) -> None:
    run_dir = tmp_path / "run-1"
    busy = pytest.raises(StoreError, match="run-1 is being executed")
    with run_lock(run_dir), busy, run_lock(run_dir):
        pass
    assert not is_locked(run_dir / ".lock")
