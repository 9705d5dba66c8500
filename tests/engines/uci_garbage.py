#!/usr/bin/env python3
"""A UCI 'engine' that shakes hands properly and then answers perft with nonsense."""
import sys

for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name garbage\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        print("e2e4: 20\nthe moon is made of cheese\nNodes searched: 20", flush=True)
    elif word == "quit":
        break
