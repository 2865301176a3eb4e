"""Kozel in a terminal: ``kozel play`` (and ``make run`` without tokens).

You sit at seat 0 with a computer partner against two computer players; the table
is printed as text, cards are chosen by number. ``--seats bot,bot,bot,bot`` plays a
whole series of computer players without input.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import stat
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from adapters.postgres import is_postgres_url
from adapters.storage import open_sqlite
from bot import presenters
from bot.errors import ServiceError
from bot.i18n import Translator, normalize_locale
from bot.models import ChatRef, Game, GameStatus, Platform, User, UserRef
from bot.options import parse_option_words
from bot.ports import Change, ChangeKind, Owed
from bot.rows import DatabaseInUse, DatabaseUnavailable
from bot.service import GameService
from bot.settings import Settings, database_url_problem
from core.ruleset import DEFAULT_LEVEL, LEVEL_NAMES, DealOutcome, GameOutcome, rule_set_ids
from core.seats import Team

#: The human; the name is a locale id, read in the language of each run.
YOU = User(UserRef(Platform.CONSOLE, "you"), "console-you")
HUMAN_CHAT = ChatRef(Platform.CONSOLE, "terminal")
COMPUTER_CHAT = ChatRef(Platform.CONSOLE, "computers")

ReadLine = Callable[[], Awaitable[str | None]]


class ConsolePublisher:
    """Prints what happens at the table: each public event as a line, results."""

    def __init__(
        self,
        out: TextIO,
        tr: Translator,
        locale: str,
        *,
        verbose: bool,
        viewer: int | None = None,
        sent: Callable[[Owed], Awaitable[None]] | None = None,
    ) -> None:
        self.out = out
        self.tr = tr
        self.locale = locale
        self.verbose = verbose
        #: The human's seat: his own moves read as his ("You discard...").
        self.viewer = viewer
        #: Told of each owed message once it is printed.
        self.sent = sent

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def publish(self, game: Game, change: Change) -> None:
        tr, locale = self.tr, self.locale
        for event in change.events:
            if self.verbose:
                line = presenters.event_line(game, event, tr, locale, viewer=self.viewer)
                if line:
                    self.say(line)
            outcome = game.play.outcome(event)
            if isinstance(outcome, DealOutcome):
                screen = presenters.owed_deal_result(game, outcome.number, tr, locale)
                if screen is not None:
                    self.say("")
                    self.say(screen.text)
                    self.say("")
            elif isinstance(outcome, GameOutcome):
                screen = presenters.game_result(game, tr, locale)
                if screen is not None:
                    self.say(screen.text)
        if change.seat is not None:
            if change.kind is ChangeKind.AWAY:
                self.say(
                    presenters.notice(presenters.Notice.AWAY, game, change.seat, tr, locale).text
                )
            elif change.kind is ChangeKind.BACK:
                self.say(
                    presenters.notice(presenters.Notice.BACK, game, change.seat, tr, locale).text
                )
        if self.sent is not None:
            for owed in change.owed:  # the results are printed above, from the events
                await self.sent(owed)


class ConsoleGame:
    """One terminal session: a human at seat 0, or computers only."""

    def __init__(
        self,
        service: GameService,
        tr: Translator,
        locale: str,
        out: TextIO,
        read_line: ReadLine,
    ) -> None:
        self.service = service
        self.tr = tr
        self.locale = locale
        self.out = out
        self.read_line = read_line
        self.you = YOU

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def t(self, msg_id: str, **args: str | int) -> str:
        return self.tr.t(self.locale, msg_id, **args)

    async def set_up(
        self,
        chat: ChatRef,
        seats: Sequence[str],
        seed: int | None = None,
        level: str | None = None,
        rule_set: str | None = None,
        options: dict[str, Any] | None = None,
    ) -> Game:
        """Resume the open game of the chat (its computers go on), or open a table of
        ``rule_set`` with ``options``, seat everybody (its computers of ``level``, by
        default the table's), start. ``seed``: the one the service's random source
        got."""
        game = await self.service.open_game(chat)
        if game is not None and game.status is GameStatus.PLAYING:
            self.say(self.t("console-resumed"))
            saved = game.settings.seed
            if seed is not None and seed != saved:
                self.say(
                    self.t("console-seed-differs", seed=str(seed), saved=str(saved))
                    if saved is not None
                    else self.t("console-seed-none", seed=str(seed))
                )
            return game
        if game is not None:
            await self.service.cancel(game.id, None, game.creator, is_admin=True)
        game = await self.service.open_table(
            chat, self.you, seed=seed, rule_set=rule_set, options=options
        )
        await self.service.change_setting(game.id, None, YOU.ref, f"l{self.locale}")
        if level is not None:
            await self.service.change_setting(game.id, None, YOU.ref, f"c{level}")
        for seat, who in enumerate(seats):
            team = Team(seat % 2)
            if who == "human":
                game = await self.service.join(game.id, None, self.you, team)
            else:
                game = await self.service.add_computer(game.id, None, YOU.ref, team)
        if any(who == "human" for who in seats):
            tr, locale = self.tr, self.locale
            self.say(
                self.t(
                    "console-welcome",
                    partner=presenters.seat_name(game, 2, tr, locale),
                    left=presenters.seat_name(game, 1, tr, locale),
                    right=presenters.seat_name(game, 3, tr, locale),
                )
            )
        return (await self.service.start(game.id, None, YOU.ref)).game

    async def play_human(self, game_id: int) -> int:
        """Prompt the human at seat 0 until the series ends or input ends."""
        while True:
            await self.service.settle()
            game = await self.service.game(game_id)
            if game.status is not GameStatus.PLAYING:
                return 0
            rules = presenters.presenter_of(game)
            if not game.play.legal_actions(0):
                continue  # a computer is about to move
            self.show(game)
            self.out.write(self.t("console-prompt") + " ")
            self.out.flush()
            line = await self.read_line()
            if line is None or line.strip().lower() in ("q", "quit", "exit"):
                self.say("")
                self.say(self.t("console-saved"))
                return 0
            line = line.strip()
            if line in ("?", "h", "help"):
                self.say(self.t(rules.console_help))
                continue
            if line in ("t", ""):
                continue
            if line in ("a", "auto"):
                if game.play.turn == 0:
                    await self._play(game, game.play.safe_action(0))
                continue
            try:
                action = rules.console_action(game, 0, line)
            except ValueError as error:
                msg_id, argument = error.args
                self.say(self.t(msg_id, input=argument, number=argument))
                continue
            await self._play(game, action)

    async def _play(self, game: Game, action: Any) -> None:
        try:
            await self.service.play(game.id, game.version, self.you.ref, action)
        except ServiceError as error:
            self.say(presenters.error(error.code, self.tr, self.locale, console=True).text)

    def show(self, game: Game) -> None:
        tr, locale = self.tr, self.locale
        self.say("")
        self.say(presenters.table(game, tr, locale, self.service.clock.now(), viewer=0).text)
        self.say(
            self.t(
                "console-team",
                team="A",  # seat 0
                partner=presenters.seat_name(game, 2, tr, locale),
            )
        )
        for line in presenters.presenter_of(game).console_hand(game, 0, tr, locale):
            self.say(line)


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class StdinLines:
    """Lines of standard input, read without a thread where the system allows: Ctrl-C
    (which cancels the wait) then stops the program at once, while a ``readline``
    blocked in a worker thread would hold the interpreter until Enter is pressed.

    A pipe or a terminal is watched by the event loop and read when ready; a file
    never blocks and is read as it is; elsewhere (Windows) a worker thread reads.
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        #: None: standard input is closed (``<&-``), which reads as its end.
        self.stream: TextIO | None = stream or sys.stdin
        self._buffer = b""
        self._ended = False

    async def __call__(self) -> str | None:
        if self.stream is None:
            return None
        try:
            fd = self.stream.fileno()
            watchable = not stat.S_ISREG(os.fstat(fd).st_mode) and os.name == "posix"
        except (OSError, ValueError):  # not a real file (a test's stream)
            watchable = False
        if not watchable:
            line = await asyncio.to_thread(self.stream.readline)
            return line or None
        loop = asyncio.get_running_loop()
        while b"\n" not in self._buffer and not self._ended:
            ready: asyncio.Future[None] = loop.create_future()
            try:
                loop.add_reader(fd, _settle, ready)
            except OSError:  # a device the loop cannot watch (/dev/null) never blocks
                pass
            else:
                try:
                    await ready
                finally:
                    loop.remove_reader(fd)
            chunk = os.read(fd, 65536)
            self._ended = not chunk
            self._buffer += chunk
        raw, newline, self._buffer = self._buffer.partition(b"\n")
        text = (raw + newline).decode(errors="replace")
        return text or None


async def run(
    args: argparse.Namespace,
    settings: Settings,
    out: TextIO,
    read_line: ReadLine | None = None,
) -> int:
    tr = Translator.from_dir()
    locale = normalize_locale(args.lang or settings.default_locale)
    seats = [_seat_kind(word) for word in args.seats.split(",")]
    humans = seats.count("human")
    if len(seats) != 4 or humans > 1 or (humans == 1 and seats[0] != "human"):
        out.write(
            "--seats takes four of you,bot (you only at the first seat), "
            "e.g. you,bot,bot,bot or bot,bot,bot,bot\n"
        )
        return 2
    rule_set = args.rules or settings.default_rule_set
    try:
        options = parse_option_words(rule_set, args.option or [])
    except ValueError as problem:
        out.write(f"--option {problem}\n")
        return 2
    rng = random.Random(args.seed) if args.seed is not None else None
    delay = args.delay if args.delay is not None else (settings.computer_delay if humans else 0)
    url = args.db or settings.database_url
    refused = database_url_problem(url)
    if refused is not None:  # DATABASE_URL's own was refused with the settings
        out.write(f"--db {refused}\n")
        return 2
    if is_postgres_url(url):
        out.write(tr.t(locale, "console-needs-sqlite") + "\n")
        return 2
    try:
        storage = await open_sqlite(url)
    except DatabaseInUse as in_use:
        out.write(tr.t(locale, "console-database-in-use", path=in_use.path) + "\n")
        return 1
    except DatabaseUnavailable as unavailable:
        out.write(tr.t(locale, "console-database-unavailable", reason=str(unavailable)) + "\n")
        return 1
    async with storage:
        service = GameService(
            storage,
            rng=rng,
            computer_delay=delay,
            turn_timeout=0,
            default_locale=locale,
            computer_level=settings.computer_level,
            computer_processes=settings.computer_workers,
        )
        service.add_publisher(
            Platform.CONSOLE,
            ConsolePublisher(
                out,
                tr,
                locale,
                verbose=humans > 0 or args.verbose,
                viewer=0 if humans else None,
                sent=service.message_sent,
            ),
        )
        console = ConsoleGame(service, tr, locale, out, read_line or StdinLines())
        chat = HUMAN_CHAT if humans else COMPUTER_CHAT
        try:
            game = await console.set_up(chat, seats, args.seed, args.level, rule_set, options)
            if humans:
                status = await console.play_human(game.id)
            else:
                await service.settle()
                status = 0
            game = await service.game(game.id)
            if game.status is GameStatus.FINISHED:
                summary = presenters.presenter_of(game).console_summary(game, tr, locale)
                out.write(summary + "\n")
                if args.record:
                    record = await service.record(game.id)
                    text = json.dumps(record, indent=1) + "\n"
                    await asyncio.to_thread(Path(args.record).write_text, text)
                    out.write(tr.t(locale, "console-record-written", path=args.record) + "\n")
            return status
        except asyncio.CancelledError:  # Ctrl-C: every move so far is saved
            out.write("\n" + tr.t(locale, "console-saved") + "\n")
            out.flush()
            raise
        finally:
            await service.close()


def _seat_kind(word: str) -> str:
    word = word.strip().lower()
    if word in ("you", "human", "me"):
        return "human"
    if word in ("bot", "computer", "ai"):
        return "computer"
    return "?"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kozel play", description="Play Kozel in the terminal.")
    add_arguments(parser)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seats",
        default="you,bot,bot,bot",
        help="who sits at seats 0-3: you or bot (default: you,bot,bot,bot)",
    )
    parser.add_argument(
        "--rules",
        choices=rule_set_ids(),
        default=None,
        help="the rules: yard or classic (default: DEFAULT_RULE_SET, yard)",
    )
    parser.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="a house rule of the rules, e.g. praise=pants or kocherga=off (repeatable)",
    )
    parser.add_argument("--seed", type=int, default=None, help="shuffle and play reproducibly")
    parser.add_argument("--lang", choices=("ru", "en"), default=None)
    parser.add_argument("--record", metavar="FILE", help="write the series' game record here")
    parser.add_argument("--db", metavar="URL", help="database (default: DATABASE_URL)")
    parser.add_argument("--delay", type=float, default=None, help="seconds per computer move")
    parser.add_argument("--verbose", action="store_true", help="print every move of computers")
    parser.add_argument(
        "--level",
        choices=LEVEL_NAMES,
        default=None,
        help=f"the computer players' strength (default: COMPUTER_LEVEL, {DEFAULT_LEVEL})",
    )


def play_main(
    argv: Sequence[str],
    *,
    settings: Settings | None = None,
    out: TextIO | None = None,
) -> int:
    """Run ``kozel play`` with these arguments."""
    args = build_parser().parse_args(list(argv))
    try:
        return asyncio.run(run(args, settings or Settings(), out or sys.stdout))
    except KeyboardInterrupt:
        return 0
