#!/usr/bin/env python3
"""A correct generator: python-chess's legal moves."""
from perftree_protocol import legal, run

run(legal)
