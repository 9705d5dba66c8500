"""Entry points and wiring: the perftscope CLI and the GUI's assembly."""
