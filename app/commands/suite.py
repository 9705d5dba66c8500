"""`perftscope suite`."""


def register(sub):
    p = sub.add_parser("suite", help="(in progress)")
    p.set_defaults(run=lambda args: 0)
