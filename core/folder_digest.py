"""A folder's files as one digest: what shows a user's source tree is byte-identical after
perftscope ran their engine from it (locate's mutants live in a copy; the tests and the real-bug
benchmark hash the folder before and after)."""
from __future__ import annotations

import hashlib
import os


def tree_digest(folder) -> str:
    """Every file's path, mode and bytes under `folder`, hashed: what shows the user's tree is
    byte-identical after a locate (a link's target, not what it points at)."""
    h = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(folder)):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            h.update(os.path.relpath(path, folder).encode())
            h.update(oct(os.lstat(path).st_mode).encode())
            if os.path.islink(path):
                h.update(os.readlink(path).encode())
            else:
                with open(path, "rb") as f:
                    h.update(f.read())
    return h.hexdigest()
