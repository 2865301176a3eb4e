## The web table (adapters/web): the server's words. The page's own words are the
## other "web-" messages; GET /api/strings gives every "web-" message to the page.

# Badges of a seat.
webview-mark-dealer = deals
webview-mark-declarer = praised

# A team's line of the score.
webview-score-yard = { $loss } of { $limit } · tricks: { $tricks }
webview-score-classic = pairs: { $pairs } of { $limit }

# Why a page cannot show a table (the page shows the line and does not reconnect).
web-error-auth = This link does not work. Open the table again from the chat.
web-error-expired = This link is out of date. Open the table again from the chat.
web-error-revoked = This link was revoked. Ask for a new one in the chat.
web-error-not-found = There is no such game (or it ended long ago).
web-error-rate = Too many messages: wait a moment.
web-error-too-big = That message is too long.
web-error-bad-message = That message makes no sense.
web-error-too-many = Too many windows of this table are open.

# The buttons and messages that lead to the web table.
web-table-button = 🃏 Table
web-hand-button = 🃏 Table in the browser
web-link-button = Open the table in the browser
web-link-text = Your link to the table (for you only):
web-link-spectator = A link for spectators:
web-choice = 🃏 Table in the browser (a link for you only)
web-new-choice = 🃏 A new link to the table (the old ones stop working)
web-renew-text = Your seat's old links no longer work, and the pages opened with them are closed. Your new link (for you only):
web-renew-not-seated = You are not seated at this table: there is no link of yours to revoke. Only a player gets a new link, for his own seat.
web-renew-hands = The old links to the table in the browser (the buttons under your cards) no longer work, and the pages opened with them are closed. Here are your cards with new links.
web-renew-no-links = Your cards carry no link to the table in the browser: there is nothing to revoke.
web-link-off = The table in the browser is not on for this bot.
web-link-none = You are not seated at any table now.
web-error-not-participant = You are not in this Activity. Join it in Discord, then open it again.
web-error-no-game = There is no game in this channel. Start one with /kozel here, then open the Activity again.
web-error-challenge = This table is a challenge deal: only the player who plays it may open it (others play the same cards).
web-error-unavailable = Discord does not answer now. Trying again…
web-activity-choice = 🃏 Table in Discord (an Activity in this channel)
web-activity-refused = Discord did not start the table here as an Activity. Open it with “🃏 Table in the browser” instead.
