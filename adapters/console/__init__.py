"""Play Kozel in a terminal."""

from adapters.console.play import (
    ConsoleGame,
    ConsolePublisher,
    Invocation,
    add_arguments,
    add_rules_arguments,
    play_main,
    print_rules,
    run,
)

__all__ = [
    "ConsoleGame",
    "ConsolePublisher",
    "Invocation",
    "add_arguments",
    "add_rules_arguments",
    "play_main",
    "print_rules",
    "run",
]
