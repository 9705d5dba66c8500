"""Run the `perftscope` command line in-process, as the CLI tests do."""
from perftscope.app.cli import main


def run(capsys, *argv):
    """(exit code, stdout, stderr) of `perftscope ARGV...`."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
