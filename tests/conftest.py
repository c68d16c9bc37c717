"""Fixtures shared across test modules (the command-line ones live in ``cli_helpers``)."""

pytest_plugins = ("cli_helpers",)
