"""The fake servers the bot runs against offline, on 127.0.0.1: the Telegram Bot API
(:mod:`testing.fakes.telegram`), Discord's gateway and REST API
(:mod:`testing.fakes.discord`), and ``python -m bot`` in a child process against
either (:mod:`testing.fakes.bot_process`). Their own tests are in tests/fakes/."""
