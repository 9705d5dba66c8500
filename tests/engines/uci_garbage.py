#!/usr/bin/env python3
"""A UCI 'engine' that shakes hands properly and then answers perft with nonsense."""
from fake_uci import serve

serve("garbage", lambda: print("e2e4: 20\nthe moon is made of cheese\nNodes searched: 20", flush=True))
