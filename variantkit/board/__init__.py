"""The board as a graph of cells: the second stage of the pipeline.

A topology (`grid`, `polar`, `hex`, `graph`) turns the `board:` declaration into a `Board`: cell
names and coordinates, a networkx graph whose edges are labelled orthogonal
or diagonal, named regions as bit masks, and the lines that pieces ride
along.  Everything here runs once, at load time; the engine only sees the
integers and tables derived from it.
"""

from __future__ import annotations

from variantkit.board.base import (
    SIDE_NAMES,
    Board,
    BoardDeclaration,
    DirectionsDeclaration,
    Ray,
    RegionDeclaration,
    RegionRef,
    RegionSelector,
    SideName,
    SideRegionRef,
    SideRegions,
    Topology,
)
from variantkit.board.build import build_board
from variantkit.board.graph import GraphTopology
from variantkit.board.grid import GridTopology
from variantkit.board.hex import HexTopology
from variantkit.board.polar import PolarTopology

__all__ = ["SIDE_NAMES", "Board", "BoardDeclaration", "DirectionsDeclaration", "GraphTopology",
           "GridTopology", "HexTopology", "PolarTopology", "Ray", "RegionDeclaration",
           "RegionRef", "RegionSelector", "SideName", "SideRegionRef", "SideRegions", "Topology",
           "build_board"]
