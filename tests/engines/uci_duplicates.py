#!/usr/bin/env python3
"""A UCI 'engine' whose perft answer lists one move twice (the counts still add up)."""
from fake_uci import serve

serve("duplicates", lambda: print("info string thinking\na2a3: 1\nA2A3: 1\n\nNodes searched: 2\n", flush=True))
