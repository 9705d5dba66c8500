"""The engine under test, the reference it is checked against and the longest wait for one
engine call: what the window's engine selector holds, what a divide, a search or a test session
is given, and the one place their oracles are made.

    >>> pair = EnginePair.parse("perftree:/home/me/my-perft.sh", "core", timeout=60)
    >>> pair.engine_name, pair.reference_name
    ('my-perft.sh', 'core')
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import EngineError
from .oracle import DEFAULT_TIMEOUT, Oracle
from .oracles import make_oracle
from .spec import Spec, parse_spec


@dataclass(frozen=True)
class EnginePair:
    """`engine` None: no engine chosen (a divide shows the reference alone)."""
    engine: Spec | None
    reference: Spec
    timeout: float = DEFAULT_TIMEOUT

    @classmethod
    def parse(cls, engine: str | Spec | None, reference: str | Spec = "core",
              timeout: float = DEFAULT_TIMEOUT) -> EnginePair:
        """From spec texts ("" or None: no engine); EngineError naming the spec that is wrong."""
        return cls(parse_spec(engine) if engine else None, parse_spec(reference), float(timeout))

    @property
    def engine_name(self) -> str | None:
        """What headers and messages call the engine ('my-perft.sh'); None without one."""
        return self.engine.short_name if self.engine is not None else None

    @property
    def reference_name(self) -> str:
        return self.reference.short_name

    def make_engine(self) -> Oracle:
        """A new oracle for the engine (one process of its own); EngineError if it cannot start."""
        if self.engine is None:
            raise EngineError("no engine chosen: give the engine to test (its spec)")
        return make_oracle(self.engine, timeout=self.timeout)

    def make_reference(self) -> Oracle:
        return make_oracle(self.reference, timeout=self.timeout)

    def make_both(self) -> tuple[Oracle, Oracle]:
        """The engine's oracle and the reference's; when the reference cannot start the engine
        is closed before the error goes on."""
        engine = self.make_engine()
        try:
            return engine, self.make_reference()
        except BaseException:
            engine.close()
            raise

