"""One module per perftscope subcommand."""
