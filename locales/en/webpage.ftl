# Kozel — the web table page's own words (adapters/web/static), served by
# GET /api/strings with the server's web- messages (web.ftl). No arguments: the page
# shows them as they are.

web-connecting = Connecting to the table…
web-reconnecting = Connection lost. Reconnecting…
web-closed = This table is closed for you. Open it again from the bot's message.
web-no-link = Open the table with the button or the link in the bot's message.
web-spectator = Spectator
web-you-tag = you
web-computer = bot
web-away = away
web-stock = Stock
web-no-trump = No trump
web-log = Moves
web-close = Back to the table
web-select-hint = Tap your cards to choose them
web-lobby = The game has not started yet
web-over = The game is over
web-cancelled = The game was cancelled
web-title = Kozel
web-discord-signing-in = Asking Discord who you are…
web-discord-refused = Discord did not tell the table who you are. Close the Activity and open it again.
web-your-time = Your move, time left
web-share = 📤 Share the result
