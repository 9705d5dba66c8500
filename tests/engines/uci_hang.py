#!/usr/bin/env python3
"""A UCI 'engine' that shakes hands properly and then never answers `go perft`."""
import sys
import time

for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name hang\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        time.sleep(3600)
    elif word == "quit":
        break
