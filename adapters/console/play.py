"""Kozel in a terminal: ``kozel play`` (and ``make run`` without tokens).

You sit at seat 0 (or the seat ``--seats`` gives you: ``bot,you,bot,bot``) with a
computer partner against two computer players; the table is printed as text, cards
are chosen by number. ``--seats bot,bot,bot,bot`` plays a whole series of computer
players without input. A saved game goes on where it stopped; ``--new`` abandons it.
Log lines never land inside the game's screen: they go to ``--log FILE``, to standard
error when that is not the terminal, else to ``kozel-play.log`` in the temporary
folder. ``--web`` serves the table in the browser too, on 127.0.0.1
(:mod:`adapters.web.local`): a move made on the page shows in the terminal.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import shlex
import stat
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from adapters.postgres import is_postgres_url
from adapters.storage import open_sqlite
from bot import presenters
from bot.cli import Parser
from bot.errors import ServiceError
from bot.i18n import Translator, normalize_locale
from bot.logs import TEXT_FORMAT
from bot.loop import stoppable
from bot.models import ChatRef, Game, GameStatus, Platform, User, UserRef
from bot.options import (
    OptionWordError,
    option_value_words,
    options_of,
    parse_option_words,
    rule_set_of_preset,
)
from bot.ports import Change, ChangeKind, Owed
from bot.rows import DatabaseInUse, DatabaseUnavailable
from bot.service import GameService
from bot.settings import Settings, database_url_problem, settings_of
from core.ruleset import DEFAULT_LEVEL, LEVEL_NAMES, DealOutcome, GameOutcome, rule_set_ids
from core.seats import Team

if TYPE_CHECKING:
    from adapters.web.local import LocalWebTable

#: The human; the name is a locale id, read in the language of each run.
YOU = User(UserRef(Platform.CONSOLE, "you"), "console-you")
HUMAN_CHAT = ChatRef(Platform.CONSOLE, "terminal")
COMPUTER_CHAT = ChatRef(Platform.CONSOLE, "computers")

ReadLine = Callable[[], Awaitable[str | None]]

#: Where log lines go when standard error is the game's terminal (and no ``--log``).
DEFAULT_LOG_NAME = "kozel-play.log"
#: The highest TCP port (``--web-port``).
MAX_PORT = 65535
#: Who sits where without ``--seats``: the human at seat 0.
DEFAULT_SEATS = "you,bot,bot,bot"


@dataclass(frozen=True, slots=True)
class Invocation:
    """The command that started this game and the words it was given, to say what to
    run to go on or to start anew. A ``make`` command (``make run``) takes the words in
    its ``ARGS`` variable.

    >>> Invocation("kozel play", ("--lang", "en")).again("--new")
    'kozel play --lang en --new'
    >>> Invocation("make run").again("--new"), Invocation("make run", ("--seed", "3")).again()
    ('make run ARGS=--new', "make run ARGS='--seed 3'")
    >>> Invocation("kozel play", ("--new", "--seed", "3")).again()
    'kozel play --seed 3'
    """

    command: str = "kozel play"
    words: tuple[str, ...] = ()

    def again(self, *more: str) -> str:
        """The command line that runs this game again, without ``--new`` (which would
        abandon it once more) and with ``more`` words."""
        words = [word for word in self.words if not _is_new(word)] + list(more)
        if not words:
            return self.command
        if self.command.split()[0] == "make":
            return f"{self.command} ARGS={shlex.quote(shlex.join(words))}"
        return f"{self.command} {shlex.join(words)}"


def _is_new(word: str) -> bool:
    """``--new`` or a shortening argparse reads as it (``--ne``)."""
    return len(word) >= 3 and "--new".startswith(word)


#: The settings ``kozel play`` reads (``python -m bot`` without a token too): a bad
#: value of any other, a bot's, does not stop the terminal game (:func:`settings_of`).
SETTINGS_READ = (
    "default_locale",
    "default_rule_set",
    "computer_level",
    "computer_delay",
    "computer_processes",
    "computer_think_timeout",
    "database_url",
    "log_level",
)
#: The settings ``kozel rules`` reads.
RULES_SETTINGS_READ = ("default_locale", "default_rule_set")


@dataclass(frozen=True, slots=True)
class Asked:
    """What the command line asked for a new game: which of the rules, options and
    computer level it named (``*_given``; the others are the settings' defaults), and
    the game that makes (``rule_set``, ``options``, ``level``)."""

    rules_given: bool = False
    options_given: bool = False
    level_given: bool = False
    rule_set: str = "yard"
    options: dict[str, Any] = field(default_factory=dict)
    level: str | None = None
    #: The human's seat ``--seats`` named (None: it named none, or was not given).
    seat: int | None = None


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
        #: Called before each line it says: the prompt waiting on the screen's last
        #: line ends there (a move made in the browser is said below it).
        self.before_line: Callable[[], None] | None = None

    def say(self, text: str) -> None:
        if self.before_line is not None:
            self.before_line()
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
            elif change.kind is ChangeKind.REFUSED:
                reason = str(change.extra["reason"])
                self.say(presenters.refused(reason, game, change.seat, tr, locale).text)
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
        invocation: Invocation | None = None,
    ) -> None:
        self.service = service
        self.tr = tr
        self.locale = locale
        self.out = out
        self.read_line = read_line
        #: What the player ran: the hints name it.
        self.invocation = invocation or Invocation()
        self.you = YOU
        #: The human's seat (0 unless ``--seats`` or the saved game says otherwise).
        self.seat = 0
        #: The line being read (kept when the game moves on meanwhile), whether the
        #: prompt waits at the end of the screen's last line, and the latest version
        #: of the human's game published (it moves on by a move made in the browser).
        self._line: asyncio.Future[str | None] | None = None
        self.prompting = False
        self._game_id: int | None = None
        self._published = -1
        self._moved = asyncio.Event()

    def say(self, text: str) -> None:
        self.end_prompt()
        self.out.write(text + "\n")
        self.out.flush()

    def end_prompt(self) -> None:
        """End the line the prompt waits on, if it does (something is said below it)."""
        if self.prompting:
            self.prompting = False
            self.out.write("\n")

    async def publish(self, game: Game, change: Change) -> None:
        """A watcher of the service: the human's game changed (by a move of his made
        in the browser, or of a computer), so the screen at the prompt is stale."""
        if game.id == self._game_id:
            self._published = max(self._published, game.version)
            self._moved.set()

    async def read(self, shown: int) -> str | Moved | None:
        """The next line typed, or :data:`MOVED` once the game moved on from the
        version ``shown`` at the prompt (a game is changed in place: its version is
        taken when shown); the line being typed then is kept for the next prompt."""
        if self._line is None:
            self._line = asyncio.ensure_future(self.read_line())
        while True:
            moved = asyncio.ensure_future(self._moved.wait())
            waiting: set[asyncio.Future[Any]] = {self._line, moved}
            try:
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            finally:
                moved.cancel()
            if self._line.done():
                line, self._line = self._line.result(), None
                self.prompting = False  # the typed line ended the prompt's
                return line
            self._moved.clear()
            if self._published > shown:
                return MOVED

    def stop_reading(self) -> None:
        """The game is left: the line being read is not waited for."""
        if self._line is not None:
            self._line.cancel()
            self._line = None
        self.end_prompt()

    def t(self, msg_id: str, **args: str | int) -> str:
        return self.tr.t(self.locale, msg_id, **args)

    def describe(self, rule_set: str, options: Mapping[str, Any], level: str) -> str:
        """A game's rules, options that differ from the defaults and computer level in
        words: "Classic Kozel, praise: pants, computers: strong"."""
        tr, locale = self.tr, self.locale
        rules = presenters.rules_name(rule_set, tr, locale)
        level_id = f"level-{level}"
        level_text = tr.t(locale, level_id) if tr.has(level_id) else level
        presenter = presenters.rule_presenter(rule_set)
        words = [presenter.option_word(name, value, tr, locale) for name, value in options.items()]
        if not words:
            return self.t("console-game-no-options", rules=rules, level=level_text)
        return self.t("console-game", rules=rules, options=", ".join(words), level=level_text)

    def _differs(self, game: Game, asked: Asked) -> bool:
        """Whether the command asked for rules, options or a level the saved game does
        not play."""
        settings = game.settings
        named_rules = asked.rules_given or asked.options_given  # options name their rules
        return (
            (named_rules and asked.rule_set != settings.rule_set)
            or (asked.options_given and asked.options != settings.options)
            or (asked.level_given and asked.level != settings.computer_level)
        )

    async def set_up(
        self,
        chat: ChatRef,
        seats: Sequence[str],
        seed: int | None = None,
        level: str | None = None,
        rule_set: str | None = None,
        options: dict[str, Any] | None = None,
        *,
        asked: Asked | None = None,
        new: bool = False,
    ) -> Game:
        """Resume the open game of the chat (its computers go on), or open a table of
        ``rule_set`` with ``options``, seat everybody (its computers of ``level``, by
        default the table's), start. ``seed``: the one the service's random source
        got. ``asked``: what the command line asked for, said beside the saved game's
        when they differ; ``new``: abandon the saved game and start what was asked."""
        game = await self.service.open_game(chat)
        if game is not None and game.status is GameStatus.PLAYING:
            saved_game = game.settings
            if new:
                await self.service.cancel(game.id, None, game.creator, is_admin=True)
                saved = self.describe(
                    saved_game.rule_set, saved_game.options, saved_game.computer_level
                )
                self.say(self.t("console-abandoned", saved=saved))
            else:
                return self._resume(game, seed, asked)
        elif game is not None:
            await self.service.cancel(game.id, None, game.creator, is_admin=True)
        game = await self.service.open_table(
            chat, self.you, seed=seed, rule_set=rule_set, options=options
        )
        await self.service.change_setting(game.id, None, YOU.ref, f"l{self.locale}")
        if level is not None:
            await self.service.change_setting(game.id, None, YOU.ref, f"c{level}")
        # In seat order: each team's first free seat is then the seat itself.
        for seat, who in enumerate(seats):
            team = Team(seat % 2)
            if who == "human":
                game = await self.service.join(game.id, None, self.you, team)
            else:
                game = await self.service.add_computer(game.id, None, YOU.ref, team)
        if "human" in seats:
            tr, locale = self.tr, self.locale
            self.seat = seat = seats.index("human")
            self.say(
                self.t(
                    "console-welcome",
                    seat=seat,
                    partner=presenters.seat_name(game, (seat + 2) % 4, tr, locale),
                    left=presenters.seat_name(game, (seat + 1) % 4, tr, locale),
                    right=presenters.seat_name(game, (seat + 3) % 4, tr, locale),
                )
            )
        return (await self.service.start(game.id, None, YOU.ref)).game

    def _resume(self, game: Game, seed: int | None, asked: Asked | None) -> Game:
        """Say the saved game is back (and what differs from what was asked)."""
        self.say(self.t("console-resumed", command=self.invocation.again("--new")))
        saved = game.settings.seed
        if seed is not None and seed != saved:
            self.say(
                self.t("console-seed-differs", seed=str(seed), saved=str(saved))
                if saved is not None
                else self.t("console-seed-none", seed=str(seed))
            )
        if asked is not None and self._differs(game, asked):
            settings = game.settings
            self.say(
                self.t(
                    "console-saved-differs",
                    command=self.invocation.again("--new"),
                    saved=self.describe(
                        settings.rule_set, settings.options, settings.computer_level
                    ),
                    asked=self.describe(
                        asked.rule_set, asked.options, asked.level or settings.computer_level
                    ),
                )
            )
        seat = game.seat_of(self.you.ref)
        self.seat = 0 if seat is None else seat
        if asked is not None and asked.seat is not None and asked.seat != self.seat:
            self.say(self.t("console-seat-differs", seat=asked.seat, saved=self.seat))
        return game

    async def play_human(self, game_id: int) -> int:
        """Prompt the human at his seat until the series ends or input ends. A change
        of the game meanwhile (a move made in the browser) shows the table again."""
        self._game_id = game_id
        try:
            return await self._prompt(game_id)
        finally:
            self.stop_reading()

    async def _prompt(self, game_id: int) -> int:
        while True:
            await self.service.settle()
            game = await self.service.game(game_id)
            if game.status is not GameStatus.PLAYING:
                return 0
            rules = presenters.presenter_of(game)
            if not game.play.legal_actions(self.seat):
                continue  # a computer is about to move
            self.show(game)
            self.out.write(self.t("console-prompt") + " ")
            self.out.flush()
            self.prompting = True
            line = await self.read(game.version)
            if isinstance(line, Moved):
                continue
            if line is None or line.strip().lower() in ("q", "quit", "exit"):
                self.say("")
                self.say(self.t("console-saved", command=self.invocation.again()))
                return 0
            line = line.strip()
            if line in ("?", "h", "help"):
                self.say(self.t(rules.console_help))
                continue
            if line in ("r", "rules"):
                self.say("")
                self.say(
                    rules_text(
                        game.settings.rule_set,
                        game.settings.options,
                        tr=self.tr,
                        locale=self.locale,
                    )
                )
                continue
            if line in ("t", ""):
                continue
            if line in ("a", "auto"):
                # The table's computer level chooses, as it would for its own seat.
                choice = await self.service.computer_choice(game.id, self.you.ref)
                if choice is not None:
                    await self._play(game, choice)
                continue
            try:
                action = rules.console_action(game, self.seat, line)
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
        seat = self.seat
        self.say(presenters.table(game, tr, locale, self.service.clock.now(), viewer=seat).text)
        self.say(
            self.t(
                "console-team",
                team=Team(seat % 2).name,
                partner=presenters.seat_name(game, (seat + 2) % 4, tr, locale),
            )
        )
        for line in presenters.presenter_of(game).console_hand(game, seat, tr, locale):
            self.say(line)


class Moved:
    """What :meth:`ConsoleGame.read` returns when the game moved on at the prompt."""


MOVED = Moved()


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
    *,
    err: TextIO | None = None,
    invocation: Invocation | None = None,
) -> int:
    """Play the game the command line asks for on ``out`` (or go on with the saved
    one). A command line that cannot be played is refused in one line on ``err``
    (standard error), exit status 2, before the game's database is opened.
    ``invocation``: the command the player ran, which the hints name."""
    err = err or sys.stderr
    tr = Translator.from_dir()
    locale = normalize_locale(args.lang or settings.default_locale)
    seats = [_seat_kind(word) for word in (args.seats or DEFAULT_SEATS).split(",")]
    humans = seats.count("human")
    if len(seats) != 4 or humans > 1 or "?" in seats:
        err.write(tr.t(locale, "cli-bad-seats") + "\n")
        return 2
    rule_set = _rule_set(args, settings)
    try:
        options = parse_option_words(rule_set, args.option or [], args.preset)
    except OptionWordError as problem:
        err.write(tr.t(locale, problem.msg_id, **problem.fields) + "\n")
        return 2
    if args.record:
        problem_id = record_path_problem(Path(args.record))
        if problem_id is not None:
            folder = str(Path(args.record).parent)
            err.write(tr.t(locale, problem_id, path=args.record, folder=folder) + "\n")
            return 2
    asked = Asked(
        rules_given=args.rules is not None or args.preset is not None,
        options_given=bool(args.option) or args.preset is not None,
        level_given=args.level is not None,
        rule_set=rule_set,
        options=options,
        level=args.level or settings.computer_level,
        seat=seats.index("human") if args.seats is not None and humans else None,
    )
    try:
        logs = logs_off_screen(args.log, settings.log_level)
    except OSError as error:
        why = error.strerror or str(error)
        err.write(tr.t(locale, "console-log-unwritable", path=args.log, problem=why) + "\n")
        return 2
    with logs:
        return await _run(
            args,
            settings,
            out,
            read_line,
            tr,
            locale,
            seats,
            asked,
            err=err,
            invocation=invocation or Invocation(),
        )


async def _run(
    args: argparse.Namespace,
    settings: Settings,
    out: TextIO,
    read_line: ReadLine | None,
    tr: Translator,
    locale: str,
    seats: list[str],
    asked: Asked,
    *,
    err: TextIO,
    invocation: Invocation,
) -> int:
    humans = seats.count("human")
    rule_set, options = asked.rule_set, asked.options
    rng = random.Random(args.seed) if args.seed is not None else None
    web = args.web or args.web_port is not None
    if web and args.web_port is not None and not 0 <= args.web_port <= MAX_PORT:
        out.write(tr.t(locale, "console-web-bad-port", port=str(args.web_port)) + "\n")
        return 2
    watched = humans or web  # a person follows the computers' moves: at their pace
    delay = args.delay if args.delay is not None else (settings.computer_delay if watched else 0)
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
            # One game: one decision at a time, so one worker. The player waits for
            # the computers, so they think at his priority: a worker niced below
            # it starves whenever the machine is busy (ten times the slowdown).
            computer_processes=min(settings.computer_workers, 1),
            computer_niceness=0,
            think_timeout=settings.computer_think_timeout,
        )
        publisher = ConsolePublisher(
            out,
            tr,
            locale,
            verbose=humans > 0 or args.verbose,
            viewer=seats.index("human") if humans else None,
            sent=service.message_sent,
        )
        service.add_publisher(Platform.CONSOLE, publisher)
        console = ConsoleGame(service, tr, locale, out, read_line or StdinLines(), invocation)
        service.add_watcher(console)
        publisher.before_line = console.end_prompt
        chat = HUMAN_CHAT if humans else COMPUTER_CHAT
        table = web_table(service, tr, args.web_port) if web else None
        try:
            if table is not None and not await start_web_table(table, out, tr, locale):
                return 1
            if args.challenge is not None:
                from adapters.console.challenge import play_challenge

                return await play_challenge(service, console, publisher, args.challenge, out)
            game = await console.set_up(
                chat,
                seats,
                args.seed,
                args.level,
                rule_set,
                options,
                asked=asked,
                new=args.new,
            )
            publisher.viewer = console.seat if humans else None
            if table is not None:
                console.say(web_links(table, game, console.seat if humans else None, tr, locale))
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
                    try:
                        await asyncio.to_thread(Path(args.record).write_text, text)
                    except OSError as error:  # checked before the first deal; gone since
                        problem = error.strerror or str(error)
                        err.write(
                            tr.t(locale, "console-record-failed", path=args.record, problem=problem)
                            + "\n"
                        )
                        return 1
                    out.write(tr.t(locale, "console-record-written", path=args.record) + "\n")
            return status
        except asyncio.CancelledError:  # Ctrl-C, SIGTERM: every move so far is saved
            out.write("\n" + tr.t(locale, "console-saved", command=invocation.again()) + "\n")
            out.flush()
            raise
        finally:
            if table is not None:
                await table.stop()
            await service.close()


def web_table(service: GameService, tr: Translator, port: int | None) -> LocalWebTable:
    """The web table of ``--web`` (on ``--web-port``, else any free port)."""
    from adapters.web.local import LocalWebTable  # aiohttp only when asked for

    return LocalWebTable(service, tr, port=port or 0)


async def start_web_table(table: LocalWebTable, out: TextIO, tr: Translator, locale: str) -> bool:
    """Serve the web table; False (and one line said) when it cannot listen."""
    try:
        await table.start()
    except OSError as error:  # the port is taken, or not this user's to take
        # asyncio's own words name the address again: the system's are enough.
        problem = os.strerror(error.errno) if error.errno else str(error)
        out.write(
            tr.t(locale, "console-web-unavailable", address=table.address, problem=problem) + "\n"
        )
        return False
    return True


def web_links(
    table: LocalWebTable, game: Game, seat: int | None, tr: Translator, locale: str
) -> str:
    """The line of ``--web``: the human's link to the page (if he plays) and the
    spectators'."""
    spectators = table.url(game, None, locale)
    player = None if seat is None else table.url(game, seat, locale)
    if player is None:
        return tr.t(locale, "console-web-spectators", spectators=spectators)
    return tr.t(locale, "console-web-links", player=player, spectators=spectators)


def record_path_problem(path: Path) -> str | None:
    """Why a record could not be written to ``path`` (a locale id), checked before the
    first deal so that a series is never played for a record that is then lost; None
    when it can be."""
    folder = path.parent
    if not folder.is_dir():
        return "console-record-no-folder"
    if path.is_dir():
        return "console-record-is-folder"
    writable = os.access(path, os.W_OK) if path.exists() else os.access(folder, os.W_OK | os.X_OK)
    return None if writable else "console-record-not-writable"


def rules_text(rule_set: str, options: Mapping[str, Any], *, tr: Translator, locale: str) -> str:
    """The rules of a rule set for a player in the terminal, in his language, and the
    table's options, every one with its value (``r`` at the prompt, ``kozel rules``)."""
    text = presenters.rules(tr, locale, rule_set, platform=Platform.CONSOLE, options=options).text
    offered = options_of(rule_set)
    if not offered:
        return text
    presenter = presenters.rule_presenter(rule_set)
    words = [
        presenter.option_word(option.name, options.get(option.name, option.default), tr, locale)
        for option in offered
    ]
    return text + "\n\n" + tr.t(locale, "console-rules-options", options=", ".join(words))


def logs_off_screen(path: str | None, level: str) -> contextlib.AbstractContextManager[None]:
    """Log lines go where they never land inside the game's screen: to ``path``, else
    to standard error when that is not a terminal (redirected, as an operator does),
    else to :data:`DEFAULT_LOG_NAME` in the temporary folder, or nowhere if that
    cannot be written (the root logger has no handler of its own in ``kozel play``, so
    Python's last resort, standard error, no longer writes them on the screen). The
    root logger is as it was afterwards. Raise :class:`OSError` when ``path`` cannot
    be written, before anything is played."""
    handler: logging.Handler
    if path is not None:
        handler = logging.FileHandler(path, encoding="utf-8")
    elif not _is_terminal(sys.stderr):
        handler = logging.StreamHandler(sys.stderr)
    else:
        try:
            target = Path(tempfile.gettempdir()) / DEFAULT_LOG_NAME
            handler = logging.FileHandler(target, encoding="utf-8")
        except OSError:  # another user's file, say: better no log than one on the screen
            handler = logging.NullHandler()
    return _logging_to(handler, level)


@contextlib.contextmanager
def _logging_to(handler: logging.Handler, level: str) -> Iterator[None]:
    handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(level.upper())
    try:
        yield
    finally:
        root.removeHandler(handler)
        handler.close()
        root.setLevel(old_level)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed, or not a real stream
        return False


def _seat_kind(word: str) -> str:
    word = word.strip().lower()
    if word in ("you", "human", "me"):
        return "human"
    if word in ("bot", "computer", "ai"):
        return "computer"
    return "?"


def build_parser(locale: str = "en", prog: str = "kozel play") -> Parser:
    """``kozel play``'s parser (``prog``: the command the player runs), its help in
    ``locale``."""
    parser = Parser(prog=prog, locale=locale)
    parser.description = parser.say("cli-help-play")
    add_arguments(parser)
    return parser


def options_help(say: Callable[[str], str]) -> str:
    """Every option of each rule set with the values it takes, for ``--help`` (``say``:
    the help's text of an id)."""
    parts = []
    for rule_set in rule_set_ids():
        offered = options_of(rule_set)
        words = ", ".join(
            f"{o.name}={'|'.join(option_value_words(o).split(', '))}" for o in offered
        )
        parts.append(f"{rule_set}: {words or say('cli-help-no-options')}")
    return "; ".join(parts)


def _rule_set(args: argparse.Namespace, settings: Settings) -> str:
    """The rules of ``--rules``; without it, those that have the ``--preset`` named (a
    preset names its rules), else the settings' default."""
    if args.rules is None and args.preset is not None:
        return rule_set_of_preset(args.preset) or settings.default_rule_set
    return str(args.rules or settings.default_rule_set)


def add_rules_arguments(parser: Parser) -> None:
    """The arguments of ``kozel rules``: which rules, options and language."""
    say = parser.say
    parser.add_argument(
        "--rules",
        choices=rule_set_ids(),
        default=None,
        help=say("cli-help-rules-choice", rules=" | ".join(rule_set_ids())),
    )
    parser.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help=say("cli-help-option", options=options_help(say)),
    )
    parser.add_argument("--preset", metavar="NAME", default=None, help=say("cli-help-preset"))
    parser.add_argument("--lang", choices=("ru", "en"), default=None, help=say("cli-help-lang"))


def add_arguments(parser: Parser) -> None:
    """The arguments of ``kozel play`` (and of ``python -m bot`` without a token)."""
    say = parser.say
    parser.add_argument("--seats", default=None, help=say("cli-help-seats", default=DEFAULT_SEATS))
    add_rules_arguments(parser)
    parser.add_argument("--seed", type=int, default=None, help=say("cli-help-seed"))
    parser.add_argument("--record", metavar="FILE", help=say("cli-help-record"))
    parser.add_argument("--db", metavar="URL", help=say("cli-help-db"))
    parser.add_argument("--delay", type=float, default=None, help=say("cli-help-delay"))
    parser.add_argument("--verbose", action="store_true", help=say("cli-help-verbose"))
    parser.add_argument(
        "--level",
        choices=LEVEL_NAMES,
        default=None,
        help=say("cli-help-level", level=DEFAULT_LEVEL),
    )
    parser.add_argument("--new", action="store_true", help=say("cli-help-new"))
    parser.add_argument("--challenge", metavar="ID", default=None, help=say("cli-help-challenge"))
    parser.add_argument(
        "--log", metavar="FILE", default=None, help=say("cli-help-log", file=DEFAULT_LOG_NAME)
    )
    parser.add_argument("--web", action="store_true", help=say("cli-help-web"))
    parser.add_argument(
        "--web-port", type=int, metavar="PORT", default=None, help=say("cli-help-web-port")
    )


def print_rules(
    args: argparse.Namespace,
    out: TextIO,
    settings: Settings | None = None,
    err: TextIO | None = None,
) -> int:
    """``kozel rules``: the rules of ``--rules`` with its ``--option`` values, in
    ``--lang``; options they refuse are said in one line on ``err`` (standard error),
    exit status 2."""
    if settings is None:
        settings = settings_of(RULES_SETTINGS_READ)
    tr = Translator.from_dir()
    locale = normalize_locale(args.lang or settings.default_locale)
    rule_set = _rule_set(args, settings)
    try:
        options = parse_option_words(rule_set, args.option or [], args.preset)
    except OptionWordError as problem:
        (err or sys.stderr).write(tr.t(locale, problem.msg_id, **problem.fields) + "\n")
        return 2
    out.write(rules_text(rule_set, options, tr=tr, locale=locale) + "\n")
    return 0


def play_main(
    argv: Sequence[str],
    *,
    settings: Settings | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    command: str = "kozel play",
) -> int:
    """Run ``kozel play`` with these arguments; ``command``: the one the player ran
    (``make run``), which its usage errors and hints name."""
    from bot.cli import language_of

    words = list(argv)
    locale = language_of(words, None if settings is None else settings.default_locale)
    args = build_parser(locale, prog=command).parse_args(words)
    invocation = Invocation(command, tuple(words))
    settings = settings or settings_of(SETTINGS_READ)
    return play_game(args, settings, out or sys.stdout, err=err, invocation=invocation)


def play_game(
    args: argparse.Namespace,
    settings: Settings,
    out: TextIO,
    *,
    err: TextIO | None = None,
    invocation: Invocation | None = None,
) -> int:
    """Play ``kozel play``'s game (:func:`run`) until it ends, its input ends, or
    SIGTERM or Ctrl-C stop it (every move so far is saved, and the console says so);
    its exit status."""
    try:
        game = run(args, settings, out, err=err, invocation=invocation)
        status = asyncio.run(stoppable(game))
    except KeyboardInterrupt:  # before the loop handles the signals
        return 0
    return 0 if status is None else status
