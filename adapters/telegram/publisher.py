"""The Telegram side of a game change: what :class:`Interactions` shows, queued in
the outbox.

``publish`` runs under the game's lock, so it only queues: the table and the hands
are slots edited in place, results and notices new messages. A change that shows
nothing but the table and the hands (most moves) is rendered lazily, when its
message is about to go out: a burst of moves is rendered once, not once per move.
A lazy screen is only rendered from a published (so saved) state of the game.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from adapters.telegram.outbox import Outbox, Render
from adapters.telegram.render import chat_id, thread_id
from bot.interactions import Interactions
from bot.models import Game, UserRef
from bot.outputs import Target
from bot.ports import Change, ChangeKind, Owed
from bot.presenters import Screen

log = logging.getLogger(__name__)

TABLE = "table"
#: The changes whose table refresh waits for the outbox's refresh: moves (and the
#: turn's reminder). Anything else (a lobby, a start, a new deal, the end) is shown at
#: once. A hand is shown at once whatever the change: only a hand whose content
#: changed is shown again (:meth:`Interactions.changed_hands`), and what changed is
#: its player's own (his cards, his turn, the trump).
HELD = frozenset({ChangeKind.PLAYED, ChangeKind.REMINDER})
#: What to show where: target, screen (or how to render it), seat, user, the owed
#: message it is (if any) and the picture it sends (if any).
Shown = tuple[Target, Screen | Render, int | None, UserRef | None, Owed | None, bytes | None]


def hand_key(seat: int) -> str:
    return f"hand:{seat}"


class TelegramPublisher:
    """Shows a game's changes in its chat and its players' private chats."""

    def __init__(self, interactions: Interactions, outbox: Outbox) -> None:
        self.interactions = interactions
        self.outbox = outbox
        #: The version of each game last published: lazy screens render only that.
        self._published: dict[int, int] = {}

    async def publish(self, game: Game, change: Change) -> None:
        self._published[game.id] = game.version
        lazy = self.interactions.lazy_outputs(game, change)
        if lazy is not None:
            shown: list[Shown] = [
                (target, self._render(game, seat), seat, user, None, None)
                for target, seat, user in lazy
            ]
        else:
            outputs = await self.interactions.outputs(game, change, pictures=True)
            shown = [
                (out.target, out.screen, out.seat, out.user, out.owed, out.image) for out in outputs
            ]
        self._queue(game, shown, held=change.kind in HELD)
        if not game.status.is_open:
            self._published.pop(game.id, None)
            self.outbox.retire(game.id)

    def _queue(self, game: Game, shown: list[Shown], *, held: bool) -> None:
        """Queue what a change shows; the hands go out at once, the table too unless
        the change is ``held`` (a move): then when the outbox's refresh allows."""
        outbox, version, linger = self.outbox, game.version, self._computer_next(game)
        chat, thread = chat_id(game.chat), thread_id(game.chat)
        for target, screen, seat, user, owed, image in shown:
            if target is Target.TABLE:
                known = game.messages.get(TABLE)
                slot = (game.id, TABLE)
                outbox.show(
                    chat, slot, screen, version=version, known=known, thread=thread,
                    linger=linger, urgent=not held,
                )  # fmt: skip
            elif target is Target.HAND and user is not None and seat is not None:
                key = hand_key(seat)
                slot, known = (game.id, key), game.messages.get(key)
                outbox.show(
                    chat_id(user), slot, screen, version=version, known=known, quiet=True,
                    linger=linger, urgent=True, failed=self._unshown(game.id, seat),
                )  # fmt: skip
            elif target is Target.CHAT and isinstance(screen, Screen):
                done = self._confirm(owed)
                outbox.send(chat, screen, thread=thread, done=done, photo=image)
            elif target is Target.PRIVATE and user is not None and isinstance(screen, Screen):
                outbox.send(chat_id(user), screen, quiet=True)

    def _confirm(self, owed: Owed | None) -> Callable[[], Awaitable[None]] | None:
        """What the outbox calls once an owed message went out (or was refused)."""
        if owed is None:
            return None
        service = self.interactions.service

        async def confirm() -> None:
            try:
                await service.message_sent(owed)
            except Exception:
                log.exception("could not mark message %s of game %s sent", owed, owed.game_id)

        return confirm

    def _unshown(self, game_id: int, seat: int) -> Callable[[], None]:
        """What the outbox calls if a hand's edit failed for good (a 5xx after its
        retries): the hand was not shown after all, so the next change shows it, changed
        by it or not (else it would keep what it showed until its content changed)."""
        return lambda: self.interactions.hand_unshown(game_id, seat)

    def _computer_next(self, game: Game) -> bool:
        """Whether a computer player moves next, before the table could be edited
        (no move delay): then this state will be replaced at once."""
        turn = game.play.turn
        if not game.status.is_open or turn is None:
            return False
        seat = game.seats[turn]
        soon = self.interactions.service.computer_delay < self.outbox.pacing.linger
        return seat is not None and seat.plays_itself and soon

    def _saved(self, game: Game) -> bool:
        """Whether the game is as last published (not in the middle of a change)."""
        return self._published.get(game.id, game.version) == game.version

    def _render(self, game: Game, seat: int | None) -> Render:
        """The table (``seat`` None) or a seat's hand, rendered when it is sent."""

        async def render() -> Screen | None:
            if not self._saved(game):
                # A change is being saved: its own publish follows. This hand was
                # not shown, so that publish shows it, changed by it or not.
                if seat is not None:
                    self.interactions.hand_unshown(game.id, seat)
                return None
            if seat is None:
                return self.interactions.table_screen(game)
            return await self.interactions.hand_screen(game, seat)

        return render
