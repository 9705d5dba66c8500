"""The UCI handshake for the fake engines in this folder; each one only decides how to answer `go`."""
import sys


def serve(name, answer_go):
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "uci":
            print(f"id name {name}\nuciok", flush=True)
        elif word == "isready":
            print("readyok", flush=True)
        elif word == "go":
            answer_go()
        elif word == "quit":
            break
