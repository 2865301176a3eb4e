"""Play Kozel in a terminal."""

from adapters.console.play import (
    ConsoleGame,
    ConsolePublisher,
    add_arguments,
    add_rules_arguments,
    play_game,
    play_main,
    print_rules,
    run,
)

__all__ = [
    "ConsoleGame",
    "ConsolePublisher",
    "add_arguments",
    "add_rules_arguments",
    "play_game",
    "play_main",
    "print_rules",
    "run",
]
