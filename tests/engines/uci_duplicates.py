#!/usr/bin/env python3
"""A UCI 'engine' whose perft answer lists one move twice (counts still add up)."""
import sys

for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name duplicates\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        print("info string thinking\na2a3: 1\nA2A3: 1\n\nNodes searched: 2\n", flush=True)
    elif word == "quit":
        break
