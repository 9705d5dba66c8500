"""Qt widgets of the workbench: one module per visible thing, each usable alone.

Widgets read core's friendly Python objects (Position, Analysis, divides); they never
import numba and never run long computations on the GUI thread.
"""
