"""`perftscope bench`."""


def register(sub):
    p = sub.add_parser("bench", help="(in progress)")
    p.set_defaults(run=lambda args: 0)
