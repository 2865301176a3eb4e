"""Play Kozel in a terminal."""

from adapters.console.play import ConsoleGame, ConsolePublisher, add_arguments, play_main, run

__all__ = ["ConsoleGame", "ConsolePublisher", "add_arguments", "play_main", "run"]
