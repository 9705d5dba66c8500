"""`python -m perftscope`: the same as the `perftscope` command."""
import sys

from perftscope.app.cli import main

sys.exit(main())
