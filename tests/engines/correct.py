#!/usr/bin/env -S python3 -S
"""A correct generator: python-chess's legal moves."""
from perftree_protocol import legal, run

run(legal)
