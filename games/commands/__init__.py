"""The command line: ``python -m games COMMAND`` (:mod:`~games.commands.cli`, the only
module of the engine that reads files and writes to the terminal, ENGINE-CLI.md) and its
benchmarks (:mod:`~games.commands.bench`).

Imports: any layer of the engine.
"""
