#!/usr/bin/env -S python3 -S
"""A perftree script that counts right up to depth 2 and dies at depth 3 with a Python error."""
import sys

from perftree_protocol import legal, run

if int(sys.argv[1]) >= 3:
    raise RuntimeError("move stack overflow at ply 3")
run(legal)
