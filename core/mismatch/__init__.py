"""Finding where an engine is wrong: the first differing position, the verdicts from the engine's
side, classes, shrinking, fuzzing and whole suites."""
