"""The position in real squares: FEN and UCI in and out, checked field by field, and what the
generator sees in it (checkers, pins, attacked squares, en-passant verdicts)."""
