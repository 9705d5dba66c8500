"""Engine files with values of the wrong type or keys that do not exist: one line naming the
file and the key, never a traceback and never a value quietly turned into another."""
import pytest

from perftscope.core.engines.oracles import make_oracle
from perftscope.core.errors import EngineError


@pytest.mark.parametrize("text, complaint", [
    ("command = 5", "'command' must name the program to run (a string or a list of strings)"),
    ('command = ["./eng.sh", 3]', "'command' must name the program to run"),
    ('command = "./eng.sh"\nname = 5', "'name' must be a string, got 5"),
    ('command = "./eng.sh"\nenv = { A = [1] }', "'env' must be a table of NAME = \"value\""),
    ('command = "./eng.sh"\nenv = "A=1"', "'env' must be a table of NAME = \"value\""),
    ('command = "./eng.sh"\ntimeout = "x"', "'timeout' must be a number of seconds above 0"),
    ('command = "./eng.sh"\ntimeout = true', "'timeout' must be a number of seconds above 0"),
    ('command = "./eng.sh"\nstart = [1]', "'start' must be a string or a list of strings, got [1]"),
    ('command = "./eng.sh"\nready = "isready"', "'ready' must be [\"line to send\", \"line awaited\"]"),
    ('command = "./eng.sh"\nend = "(("', "'end' is not a valid regular expression"),
    ('command = "./eng.sh"\ntiemout = 3', "unknown key 'tiemout' (did you mean 'timeout'? expected some of"),
    ('command = "./eng.sh"\n[extra]\na = 1', "unknown key 'extra' (expected some of"),
])
def test_a_wrong_engine_file_is_one_line_naming_the_file_and_key(tmp_path, text, complaint):
    program = tmp_path / "eng.sh"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    toml = tmp_path / "eng.toml"
    toml.write_text(text + "\n")
    with pytest.raises(EngineError) as err:
        make_oracle(f"file:{toml}")
    message = str(err.value)
    assert message.startswith(f"file:{toml}: ") and complaint in message and "\n" not in message
