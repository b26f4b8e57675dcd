"""Mean squared displacement averaged over all time origins.

The MSD is computed by :class:`freud.msd.MSD` in ``"window"`` mode (an FFT algorithm
that averages over every time origin) from *unwrapped* positions in Å.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from simwright.errors import ValidationError

MIN_FRAMES: Final = 2
"""The fewest frames an MSD can be computed from."""


@dataclass(frozen=True, eq=False)
class MSDCurve:
    """An MSD curve: ``msd_a2[k]`` is the MSD (Å²) at lag ``lag_fs[k]`` (fs).

    ``lag_fs[0]`` is 0; ``n_atoms`` is the number of atoms averaged over.
    """

    lag_fs: np.ndarray
    msd_a2: np.ndarray
    n_atoms: int

    @property
    def duration_fs(self) -> float:
        """The longest lag, i.e. the length of the trajectory the curve came from."""
        return float(self.lag_fs[-1])


def frame_interval_fs(timestep_fs: float, frame_interval_steps: int) -> float:
    """Time between two stored frames: timestep × steps between frames."""
    if timestep_fs <= 0 or frame_interval_steps < 1:
        raise ValidationError(
            f"need timestep_fs > 0 and frame_interval_steps >= 1, "
            f"got {timestep_fs} and {frame_interval_steps}"
        )
    return float(timestep_fs) * int(frame_interval_steps)


def select_atoms(positions_a: np.ndarray, atom_indices: Sequence[int] | None) -> np.ndarray:
    """Check ``positions_a`` is (n_frames, n_atoms, 3) and keep only ``atom_indices``."""
    positions = np.asarray(positions_a, dtype=np.float64)
    if positions.ndim != 3 or positions.shape[2] != 3:
        raise ValidationError(
            f"positions must have shape (n_frames, n_atoms, 3), got {positions.shape}"
        )
    if atom_indices is not None:
        indices = np.asarray(atom_indices, dtype=np.int64)
        if indices.ndim != 1 or indices.size == 0:
            raise ValidationError("atom_indices must be a non-empty 1-D list of indices")
        if indices.min() < 0 or indices.max() >= positions.shape[1]:
            raise ValidationError(
                f"atom_indices out of range for {positions.shape[1]} atoms "
                f"(min {indices.min()}, max {indices.max()})"
            )
        positions = positions[:, indices, :]
    if positions.shape[1] == 0:
        raise ValidationError("no atoms to analyse")
    if not np.all(np.isfinite(positions)):
        raise ValidationError("positions contain NaN or infinite values")
    return positions


def mean_squared_displacement(
    positions_a: np.ndarray,
    timestep_fs: float,
    frame_interval_steps: int = 1,
    *,
    atom_indices: Sequence[int] | None = None,
) -> MSDCurve:
    """MSD over all time origins of unwrapped positions (n_frames, n_atoms, 3) in Å.

    Frames must be equally spaced, ``frame_interval_steps`` MD steps of ``timestep_fs``
    apart. ``atom_indices`` restricts the average to a group (e.g. water oxygens).
    """
    positions = select_atoms(positions_a, atom_indices)
    if positions.shape[0] < MIN_FRAMES:
        raise ValidationError(f"an MSD needs at least {MIN_FRAMES} frames")
    dt_fs = frame_interval_fs(timestep_fs, frame_interval_steps)
    import freud  # lazy: optional dependency (simwright[md])

    # Shifting each atom by a constant leaves its MSD unchanged; centring it on its
    # time average keeps the numbers small for freud, which works in float32 (the
    # window FFT subtracts sums of squared positions, so large coordinates cost digits).
    centred = positions - positions.mean(axis=0)
    msd = freud.msd.MSD(mode="window").compute(centred).msd
    msd_a2 = np.array(msd, dtype=np.float64)
    msd_a2[0] = 0.0  # exactly zero by definition; freud's FFT leaves round-off here
    lag_fs = np.arange(positions.shape[0], dtype=np.float64) * dt_fs
    return MSDCurve(lag_fs=lag_fs, msd_a2=msd_a2, n_atoms=int(positions.shape[1]))


def block_msd_curves(
    positions_a: np.ndarray,
    timestep_fs: float,
    frame_interval_steps: int = 1,
    *,
    n_blocks: int,
    atom_indices: Sequence[int] | None = None,
) -> tuple[MSDCurve, ...]:
    """MSD curves of ``n_blocks`` consecutive, non-overlapping time blocks of equal length.

    Frames left over at the end (when ``n_frames`` is not a multiple of ``n_blocks``)
    are dropped.
    """
    positions = select_atoms(positions_a, atom_indices)
    if n_blocks < 1:
        raise ValidationError(f"n_blocks must be >= 1, got {n_blocks}")
    block_len = positions.shape[0] // n_blocks
    if block_len < MIN_FRAMES:
        raise ValidationError(f"{positions.shape[0]} frames cannot be split into {n_blocks} blocks")
    return tuple(
        mean_squared_displacement(
            positions[b * block_len : (b + 1) * block_len], timestep_fs, frame_interval_steps
        )
        for b in range(n_blocks)
    )
