"""Talking to engines: specs, bounded processes, engine files, the one divide parser, and every
source of perft numbers behind one Oracle interface."""
