"""Play Kozel in a terminal."""

from adapters.console.play import (
    RULES_SETTINGS_READ,
    SETTINGS_READ,
    ConsoleGame,
    ConsolePublisher,
    Invocation,
    add_arguments,
    add_rules_arguments,
    play_game,
    play_main,
    print_rules,
    run,
)

__all__ = [
    "RULES_SETTINGS_READ",
    "SETTINGS_READ",
    "ConsoleGame",
    "ConsolePublisher",
    "Invocation",
    "add_arguments",
    "add_rules_arguments",
    "play_game",
    "play_main",
    "print_rules",
    "run",
]
