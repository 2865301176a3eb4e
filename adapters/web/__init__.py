"""The web table: a live view of every game in the browser and in Telegram's Mini
App (``WEB_PORT``): :mod:`adapters.web.server` (HTTP and the socket),
:mod:`adapters.web.hub` (the pages and the publisher), :mod:`adapters.web.links`
(signed links), :mod:`adapters.web.telegram` (Mini App launch data),
:mod:`adapters.web.activity` (a Discord Activity's user, as Discord says). The protocol
is in ``docs/web.md``."""

from adapters.web.app import WebApp

__all__ = ["WebApp"]
