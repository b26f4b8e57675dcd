"""Channel dimensionality on periodic grids: a straight channel, a layer, a 3D network, a
closed pocket, and a channel that only closes on itself across the cell faces."""

from __future__ import annotations

import numpy as np

from simwright.analysis.channels import channels


def test_dimensionality_of_simple_shapes() -> None:
    grid = np.zeros((10, 10, 10), dtype=bool)
    grid[:, 4:6, 4:6] = True  # a tube along x
    assert channels(grid).dimensionalities == (1,)
    layer = np.zeros((10, 10, 10), dtype=bool)
    layer[:, :, 3:5] = True
    assert channels(layer).dimensionalities == (2,)
    net = grid | np.transpose(grid, (1, 0, 2)) | np.transpose(grid, (2, 1, 0))
    assert channels(net).dimensionalities == (3,)
    pocket = np.zeros((10, 10, 10), dtype=bool)
    pocket[3:6, 3:6, 3:6] = True
    found = channels(pocket)
    assert found.dimensionalities == () and found.pockets == 1 and found.dimensionality == 0


def test_a_diagonal_channel_wrapping_the_faces_counts_once() -> None:
    grid = np.zeros((8, 8, 8), dtype=bool)
    for i in range(8):  # a staircase along x and y: one channel, direction (1, 1, 0)
        grid[i, i, 2:4] = True
        grid[i, (i + 1) % 8, 2:4] = True
    found = channels(grid)
    assert found.dimensionalities == (1,)
    assert 0 < found.accessible_fraction < 0.1


def test_two_parallel_tubes_are_two_channels() -> None:
    grid = np.zeros((10, 10, 10), dtype=bool)
    grid[:, 1:3, 1:3] = True
    grid[:, 6:8, 6:8] = True
    assert channels(grid).dimensionalities == (1, 1)
