"""In-memory storage: the reference semantics of :class:`bot.ports.Storage`.

The service tests use it, and the storage contract tests run the same cases against
it and against SQLite. It keeps the rows of :mod:`bot.rows`, the very rows SQLite
keeps, so a saved game never aliases the caller's object and loads exactly as it
would from the database. Every method runs without awaiting, so each one is atomic
under asyncio, as a SQLite transaction is.
"""

from __future__ import annotations

import logging
import pickle
import secrets
from collections import OrderedDict
from collections.abc import Collection, Iterator, Sequence
from dataclasses import replace

from bot import challenge as challenges
from bot import ratings
from bot.achievements import Awards, Earned, Progress
from bot.event import Event, EventExists, EventTable, GameEnd, StaleEvent, TableResult
from bot.models import ChatRef, Game, Platform, SeatKind, User, UserRef
from bot.ports import ChatInfo, LeaderboardRow, LoggedAction, Owed, UserStats
from bot.reliability import WINDOW, Ending, EndingRow, Reliability, ending_rows
from bot.rows import (
    COUNTED_STATUSES,
    OPEN_STATUSES,
    AchievementRow,
    ActionRow,
    ChatRow,
    CorruptGame,
    DealRow,
    DuplicateAction,
    GameRow,
    NoSuchGame,
    OwedRow,
    ParticipantRow,
    ProgressRow,
    SeriesRow,
    StaleGame,
    UserRow,
    achievement_rows,
    action_from_row,
    chat_from_row,
    chat_to_row,
    check_actions,
    check_owed,
    deal_row,
    earned_from_row,
    game_from_row,
    game_to_row,
    owed_from_row,
    participant_rows,
    progress_from_rows,
    send_times_from_text,
    send_times_to_text,
    series_row,
    user_from_row,
    user_to_row,
)
from core.ruleset import EGGS_TITLES, DealOutcome, GameOutcome, Snapshots
from core.seats import team_of

_Key = tuple[str, str]
log = logging.getLogger(__name__)

#: Games :meth:`MemoryStorage._game` keeps as loaded, by their rows' values.
LOADED_KEPT = 256


class MemoryStorage:
    """A :class:`~bot.ports.Storage` in dicts, lost when the process ends."""

    def __init__(self) -> None:
        self._users: dict[_Key, UserRow] = {}
        self._chats: dict[_Key, ChatRow] = {}
        self._games: dict[int, GameRow] = {}
        #: The game each of the latest rows loaded made, by the row's values, never
        #: handed out: a load of the same row again returns a copy of it (a pickled
        #: copy costs a fraction of replaying the series' record, which a long series
        #: of a finished game took for each press on it).
        self._loaded: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
        self._participants: dict[int, list[ParticipantRow]] = {}
        self._actions: dict[int, dict[int, ActionRow]] = {}
        self._deals: dict[int, dict[int, DealRow]] = {}
        self._series: dict[int, SeriesRow] = {}
        self._owed: dict[tuple[int, int, int], OwedRow] = {}
        #: Achievements by (platform, user id, achievement); progress by player.
        self._achievements: dict[tuple[str, str, str], AchievementRow] = {}
        self._progress: dict[_Key, ProgressRow] = {}
        #: Each player's rows of the rated games that ended (reliability), by
        #: ``(platform, user_id, game_id)``.
        self._endings: dict[tuple[str, str, int], EndingRow] = {}
        self._send_times: dict[_Key, str] = {}
        self._alive: dict[Platform, float] = {}
        self._last_id = 0
        #: Games that no longer load, with the reason, as SQLite's ``set_aside_games``.
        self._set_aside: dict[int, str] = {}
        self._secrets: dict[str, bytes] = {}
        #: Every save snapshots the game's series: this keeps the deals' text.
        self._snapshots = Snapshots()
        #: Ratings as SQL keeps them (adapters/ratings.py): by platform and key; the
        #: changes of each rated game (with its platform and rule set); partners'
        #: rated games and wins by (platform, user, rule set, partner).
        self._ratings: dict[tuple[str, ratings.Key], ratings.Skill] = {}
        self._rating_changes: dict[int, tuple[str, str, tuple[ratings.RatingChange, ...]]] = {}
        self._partners: dict[tuple[str, str, str, str], tuple[int, int]] = {}
        #: Challenges by id; the deals their entrants started, by (challenge, user),
        #: then deal; entrants' names; the (challenge, user, deal) of each deal's game.
        self._challenges: dict[str, challenges.Challenge] = {}
        self._challenge_plays: dict[tuple[str, UserRef], dict[int, challenges.Play]] = {}
        self._challenge_names: dict[tuple[str, UserRef], str] = {}
        self._challenge_games: dict[int, tuple[str, UserRef, int]] = {}
        #: Swiss evenings by id; the games that are an event's tables.
        self._events: dict[int, Event] = {}
        self._event_games: set[int] = set()

    # --- Users and chats -------------------------------------------------------------

    async def get_user(self, ref: UserRef) -> User | None:
        row = self._users.get((ref.platform.value, ref.id))
        return None if row is None else user_from_row(row)

    async def save_user(self, user: User) -> None:
        row = user_to_row(user)
        self._users[row["platform"], row["id"]] = row

    async def get_chat(self, ref: ChatRef) -> ChatInfo | None:
        row = self._chats.get((ref.platform.value, ref.id))
        return None if row is None else chat_from_row(row)

    async def save_chat(self, chat: ChatInfo) -> None:
        row = chat_to_row(chat)
        self._chats[row["platform"], row["id"]] = row

    # --- Games ------------------------------------------------------------------------

    async def create_game(self, game: Game) -> Game:
        """Store a new game under the next id; return a copy of it with that id (the
        ``id`` passed in is ignored)."""
        row = game_to_row(game)
        self._last_id += 1
        row["id"] = self._last_id
        stored = game_from_row(row)
        self._games[stored.id] = row
        self._participants[stored.id] = participant_rows(stored)
        return stored

    async def save_game(
        self,
        game: Game,
        actions: Sequence[LoggedAction] = (),
        *,
        deals: Sequence[DealOutcome] = (),
        series: GameOutcome | None = None,
        owed: Sequence[Owed] = (),
        base: int | None = None,
        awards: Awards | None = None,
        endings: Sequence[Ending] = (),
    ) -> None:
        """Replace the game's row and seats, append its new actions, keep the results
        it reached, their achievements, its players' endings and the messages it
        owes, all or nothing; only from version ``base`` if it is given."""
        new = check_actions(game, actions)
        owed_rows = check_owed(game, owed)
        earned_rows, progress_rows = achievement_rows(game, awards)
        if game.id not in self._games:
            raise NoSuchGame(game.id)
        stored = self._games[game.id]["version"]
        if base is not None and stored != base:
            raise StaleGame(game.id, base, stored)
        log = self._actions.setdefault(game.id, {})
        for row in new:
            if row["version"] in log:
                raise DuplicateAction(game.id, row["version"])
        game_row = game_to_row(game, self._snapshots)
        if game_row["seats"] != self._games[game.id]["seats"]:  # else the same rows
            self._participants[game.id] = participant_rows(game)
        self._games[game.id] = game_row
        for row in new:
            log[row["version"]] = row
        for outcome in deals:
            self._deals.setdefault(game.id, {}).setdefault(
                outcome.number, deal_row(game, outcome, game.updated_at)
            )
        for outcome in deals:
            self._challenge_scored(game.id, outcome)
        if series is not None:
            self._series.setdefault(game.id, series_row(game, series, game.updated_at))
            self._rate(ratings.rated_game(game, series.loser, game.updated_at))
        for owed_row in owed_rows:
            key = (owed_row["game_id"], owed_row["version"], owed_row["idx"])
            self._owed.setdefault(key, owed_row)
        for earned in earned_rows:
            self._achievements.setdefault(
                (earned["platform"], earned["user_id"], earned["achievement"]), earned
            )
        for progress in progress_rows:
            self._progress[progress["platform"], progress["user_id"]] = progress
        for ending in ending_rows(game, endings):
            self._endings.setdefault(
                (ending["platform"], ending["user_id"], ending["game_id"]), ending
            )

    async def owed_messages(self) -> list[Owed]:
        return [owed_from_row(self._owed[key]) for key in sorted(self._owed)]

    async def message_sent(self, owed: Owed) -> None:
        self._owed.pop((owed.game_id, owed.version, owed.index), None)

    async def send_times(self, platform: Platform) -> dict[str, list[float]]:
        return {
            chat: send_times_from_text(text)
            for (kind, chat), text in self._send_times.items()
            if kind == platform.value
        }

    async def save_send_times(self, platform: Platform, chat: str, times: Sequence[float]) -> None:
        self._send_times[platform.value, chat] = send_times_to_text(times)

    async def last_alive(self) -> dict[Platform, float]:
        return dict(self._alive)

    async def save_alive(self, platforms: Collection[Platform], at: float) -> None:
        for platform in platforms:
            self._alive[platform] = at

    async def load_game(self, game_id: int) -> Game | None:
        row = self._games.get(game_id)
        return None if row is None else self._game(row)

    def _game(self, row: GameRow) -> Game | None:
        """The game of a row, or None if the row does not make one: it is set aside,
        as SQLite's are (logged, and skipped by every read from then on)."""
        if row["id"] in self._set_aside:
            return None
        key = tuple(row.values())
        loaded = self._loaded.get(key)
        if loaded is not None:
            self._loaded.move_to_end(key)
            game: Game = pickle.loads(loaded)
            return game
        try:
            game = game_from_row(row)
        except CorruptGame as corrupt:
            log.error("game %s is set aside: %s", corrupt.game_id, corrupt.reason)
            self._set_aside[corrupt.game_id] = corrupt.reason
            return None
        self._loaded[key] = pickle.dumps(game, pickle.HIGHEST_PROTOCOL)
        if len(self._loaded) > LOADED_KEPT:
            self._loaded.popitem(last=False)
        return game

    async def open_game(self, chat: ChatRef) -> Game | None:
        for game_id in sorted(self._games, reverse=True):
            row = self._games[game_id]
            if (
                row["platform"] == chat.platform.value
                and row["chat_id"] == chat.id
                and row["status"] in OPEN_STATUSES
                and game_id not in self._event_games
                and (game := self._game(row)) is not None
            ):
                return game
        return None

    async def active_games(self) -> list[Game]:
        games = [
            self._game(row)
            for _, row in sorted(self._games.items())
            if row["status"] in OPEN_STATUSES
        ]
        return [game for game in games if game is not None]

    async def set_aside(self) -> dict[int, str]:
        """The games set aside (they no longer load), with the reason of each."""
        return dict(sorted(self._set_aside.items()))

    async def game_actions(self, game_id: int) -> list[LoggedAction]:
        log = self._actions.get(game_id, {})
        return [action_from_row(log[version]) for version in sorted(log)]

    # --- Results ------------------------------------------------------------------------

    async def record_deal(self, game: Game, outcome: DealOutcome, at: float) -> None:
        """Keep a deal's result once; a repeated call with the same number changes
        nothing."""
        if game.id not in self._games:
            raise NoSuchGame(game.id)
        self._deals.setdefault(game.id, {}).setdefault(outcome.number, deal_row(game, outcome, at))

    async def record_series(self, game: Game, outcome: GameOutcome, at: float) -> None:
        """Keep a series' result once; a repeated call changes nothing."""
        if game.id not in self._games:
            raise NoSuchGame(game.id)
        self._series.setdefault(game.id, series_row(game, outcome, at))
        self._rate(ratings.rated_game(game, outcome.loser, at))

    def _rate(self, game: ratings.RatedGame | None) -> None:
        """Update the ratings of a finished game's players, once."""
        if game is None or game.game_id in self._rating_changes:
            return
        platform = game.platform
        book = {
            key: self._ratings[(platform, key)]
            for key in ratings.keys(game)
            if (platform, key) in self._ratings
        }
        applied = ratings.apply(game, book)
        for key, skill in applied.skills.items():
            self._ratings[(platform, key)] = skill
        self._rating_changes[game.game_id] = (platform, game.rule_set, applied.changes)
        for user, partner, won in ratings.partners(game):
            for rule_set in (game.rule_set, ratings.EVERY):
                games, wins = self._partners.get((platform, user, rule_set, partner), (0, 0))
                self._partners[(platform, user, rule_set, partner)] = (games + 1, wins + won)

    # --- Statistics -----------------------------------------------------------------------

    def _counted_seats(
        self, platform: Platform, chat: ChatRef | None = None, rule_set: str | None = None
    ) -> Iterator[tuple[ParticipantRow, GameRow]]:
        """Human seats of a platform's counted games (of one chat, of one rule set if
        given)."""
        for game_id, seats in self._participants.items():
            game = self._games[game_id]
            if game["status"] not in COUNTED_STATUSES or game["platform"] != platform.value:
                continue
            if rule_set is not None and game["rule_set"] != rule_set:
                continue
            if chat is not None and (
                game["platform"] != chat.platform.value or game["chat_id"] != chat.id
            ):
                continue
            for seat in seats:
                if seat["kind"] == SeatKind.HUMAN.value and seat["platform"] == platform.value:
                    yield seat, game

    def _name(self, user: UserRef) -> str:
        """The user's saved name, else his name at his latest seat."""
        saved = self._users.get((user.platform.value, user.id))
        if saved is not None:
            return saved["name"]
        latest: tuple[int, int] | None = None
        name = user.id
        for game_id, seats in self._participants.items():
            for seat in seats:
                if (
                    seat["kind"] == SeatKind.HUMAN.value
                    and seat["platform"] == user.platform.value
                    and seat["user_id"] == user.id
                    and (latest is None or (game_id, -seat["seat"]) > latest)
                ):
                    latest = (game_id, -seat["seat"])
                    name = seat["name"]
        return name

    async def user_stats(self, user: UserRef, rule_set: str | None = None) -> UserStats | None:
        """The user's totals over the human seats he took in playing or finished games
        (of ``rule_set`` if given); None if he never took one."""
        found = False
        series_played = series_won = goat = goat_with_eggs = 0
        deals_played = deals_won = deals_lost = deals_eggs = points = 0
        for seat, game in self._counted_seats(user.platform, rule_set=rule_set):
            if seat["user_id"] != user.id:
                continue
            found = True
            team = int(team_of(seat["seat"]))
            series = self._series.get(game["id"])
            if series is not None:
                series_played += 1
                if series["loser"] == team:
                    goat += 1
                    goat_with_eggs += series["title"] in EGGS_TITLES
                else:
                    series_won += 1
            for deal in self._deals.get(game["id"], {}).values():
                deals_played += 1
                deals_won += deal["winner"] == team
                deals_lost += deal["winner"] == 1 - team
                deals_eggs += deal["eggs"]
                points += deal["points_b"] if team else deal["points_a"]
        if not found:
            return None
        return UserStats(
            user=user,
            name=self._name(user),
            series_played=series_played,
            series_won=series_won,
            goat=goat,
            goat_with_eggs=goat_with_eggs,
            deals_played=deals_played,
            deals_won=deals_won,
            deals_lost=deals_lost,
            deals_eggs=deals_eggs,
            points=points,
        )

    async def leaderboard(
        self,
        platform: Platform,
        chat: ChatRef | None,
        limit: int = 10,
        min_series: int = 1,
        rule_set: str | None = None,
    ) -> list[LeaderboardRow]:
        """Players by series won, then win rate, then name; only those with
        ``min_series`` or more series; ``chat`` None means the whole platform;
        ``rule_set`` None: every rule set's games."""
        totals: dict[str, list[int]] = {}
        for seat, game in self._counted_seats(platform, chat, rule_set):
            series = self._series.get(game["id"])
            user_id = seat["user_id"]
            if series is None or user_id is None:
                continue
            total = totals.setdefault(user_id, [0, 0])
            total[0] += 1
            total[1] += series["loser"] != int(team_of(seat["seat"]))
        rows = [
            LeaderboardRow(UserRef(platform, user_id), self._name(UserRef(platform, user_id)), *t)
            for user_id, t in totals.items()
            if t[0] >= min_series
        ]
        rows.sort(key=lambda row: (-row.series_won, -row.win_rate, row.name, row.user.id))
        return rows[: max(limit, 0)]

    # --- Achievements -----------------------------------------------------------------------

    async def achievement_progress(self, users: Collection[UserRef]) -> dict[UserRef, Progress]:
        keys = {(user.platform.value, user.id) for user in users}
        progress = [row for key, row in self._progress.items() if key in keys]
        earned = [row for key, row in self._achievements.items() if key[:2] in keys]
        return progress_from_rows(users, progress, earned)

    async def reliability(self, user: UserRef, last: int = WINDOW) -> Reliability:
        key = (user.platform.value, user.id)
        mine = [row for k, row in self._endings.items() if k[:2] == key]
        mine.sort(key=lambda row: (row["at"], row["game_id"]), reverse=True)
        latest = mine[: max(last, 0)]
        return Reliability(len(latest), sum(row["walked_out"] is not None for row in latest))

    async def achievements_of(self, user: UserRef) -> list[Earned]:
        key = (user.platform.value, user.id)
        return [earned_from_row(r) for k, r in self._achievements.items() if k[:2] == key]

    async def achievements_earned(self, game_id: int, version: int) -> list[Earned]:
        return [
            earned_from_row(row)
            for row in self._achievements.values()
            if row["game_id"] == game_id and row["version"] == version
        ]

    # --- Ratings ---------------------------------------------------------------------------

    async def rating_board(
        self, platform: Platform, chat: ChatRef | None, board: ratings.Board, limit: int = 10
    ) -> list[ratings.BoardRow]:
        """The best rated players: of the platform, of a chat (those who played a
        series there, of the board's rule set if it has one), of a chat's season."""
        if limit <= 0 or (chat is not None and chat.platform is not platform):
            return []
        if board.season is not None and chat is None:
            return []
        scope = None if board.season is None or chat is None else (chat.id, board.season)
        here: set[str] | None = None
        if chat is not None and scope is None:
            here = {
                str(seat["user_id"])
                for seat, game in self._counted_seats(platform, chat, board.rule_set)
                if game["id"] in self._series
            }
        rule_set = board.rule_set or ratings.EVERY
        rows = [
            ratings.BoardRow(
                UserRef(platform, user),
                self._name(UserRef(platform, user)),
                skill.rating,
                skill.games,
                skill.wins,
            )
            for (kept, (at, kept_rules, user)), skill in self._ratings.items()
            if kept == platform.value
            and at == scope
            and kept_rules == rule_set
            and skill.games >= board.min_games
            and (here is None or user in here)
        ]
        rows.sort(key=lambda row: (-row.rating, row.user.id))
        return rows[:limit]

    async def player_ratings(self, user: UserRef) -> list[ratings.PlayerRating]:
        """A player's ratings, with his latest changes and best partner in each."""
        platform = user.platform.value
        found = []
        mine = sorted(
            (key[1], skill)
            for (kept, key), skill in self._ratings.items()
            if kept == platform and key[0] is None and key[2] == user.id
        )
        for rule_set, skill in mine:
            last = [
                change.delta
                for game_id, (kept, rules, changes) in sorted(
                    self._rating_changes.items(), reverse=True
                )
                if kept == platform and rules == rule_set
                for change in changes
                if change.user_id == user.id
            ][: ratings.LAST_CHANGES]
            partners = sorted(
                (-wins, games, partner)
                for (kept, who, rules, partner), (games, wins) in self._partners.items()
                if (kept, who, rules) == (platform, user.id, rule_set) and wins > 0
            )
            partner = None
            if partners:
                wins, games, partner_id = partners[0]
                ref = UserRef(user.platform, partner_id)
                partner = ratings.Partner(ref, self._name(ref), games, -wins)
            found.append(
                ratings.PlayerRating(
                    rule_set,
                    skill.rating,
                    skill.best,
                    skill.games,
                    skill.wins,
                    round(ratings.SCALE * skill.sigma),
                    tuple(last),
                    partner,
                )
            )
        return found

    async def game_ratings(self, game_id: int) -> tuple[ratings.RatingChange, ...]:
        """What a rated game changed (nothing: it was not rated)."""
        kept = self._rating_changes.get(game_id)
        return () if kept is None else kept[2]

    # --- Chats changing ids ---------------------------------------------------------------

    async def migrate_chat(self, old: ChatRef, new: ChatRef) -> None:
        """Move the old chat's games and settings to the new id. Settings already saved
        for the new id are newer, so they stay."""
        old_key = (old.platform.value, old.id)
        new_key = (new.platform.value, new.id)
        if old_key == new_key:
            return
        for row in self._games.values():
            if (row["platform"], row["chat_id"]) == old_key:
                row["platform"], row["chat_id"] = new_key
        for (platform, (scope, rule_set, user)), skill in list(self._ratings.items()):
            if platform != old_key[0] or scope is None or scope[0] != old.id:
                continue
            moved = (platform, ((new.id, scope[1]), rule_set, user))
            if new_key[0] == platform and moved not in self._ratings:
                del self._ratings[(platform, (scope, rule_set, user))]
                self._ratings[moved] = skill
        settings = self._chats.pop(old_key, None)
        if settings is not None and new_key not in self._chats:
            self._chats[new_key] = {**settings, "platform": new_key[0], "id": new_key[1]}

    # --- Secrets ----------------------------------------------------------------------

    async def secret(self, name: str) -> bytes:
        return self._secrets.setdefault(name, secrets.token_bytes(32))

    # --- Duplicate challenges ---------------------------------------------------------

    async def challenge(self, challenge_id: str) -> challenges.Challenge | None:
        return self._challenges.get(challenge_id)

    async def keep_challenge(self, challenge: challenges.Challenge) -> challenges.Challenge:
        return self._challenges.setdefault(challenge.id, challenge)

    async def challenge_plays(self, challenge_id: str, user: UserRef) -> list[challenges.Play]:
        plays = self._challenge_plays.get((challenge_id, user), {})
        return [plays[deal] for deal in sorted(plays)]

    async def start_challenge_deal(
        self, game: Game, challenge: challenges.Challenge, deal: int, name: str
    ) -> Game:
        seat = game.seats[0]
        assert seat is not None and seat.user is not None
        key = (challenge.id, seat.user)
        if deal in self._challenge_plays.get(key, {}):
            raise challenges.DealTaken(challenge.id, deal)
        row = game_to_row(game, self._snapshots)
        self._last_id += 1
        row["id"] = self._last_id
        stored = game_from_row(row)
        self._games[stored.id] = row
        self._participants[stored.id] = participant_rows(stored)
        self._challenge_plays.setdefault(key, {})[deal] = challenges.Play(deal, stored.id)
        self._challenge_names[key] = name
        self._challenge_games[stored.id] = (challenge.id, seat.user, deal)
        return stored

    def _challenge_scored(self, game_id: int, outcome: DealOutcome) -> None:
        """A challenge deal's result: the entrant's loss, kept once."""
        found = self._challenge_games.get(game_id)
        if found is None:
            return
        challenge_id, user, deal = found
        plays = self._challenge_plays[challenge_id, user]
        if plays[deal].loss is None:
            lost = challenges.loss(self._challenges[challenge_id], outcome)
            plays[deal] = challenges.Play(deal, game_id, lost)

    async def challenge_standings(
        self, challenge: challenges.Challenge, user: UserRef | None, limit: int = 10
    ) -> challenges.Standings:
        entrants = {
            who: (
                self._challenge_names[challenge_id, who],
                {deal: p.loss for deal, p in plays.items() if p.loss is not None},
            )
            for (challenge_id, who), plays in self._challenge_plays.items()
            if challenge_id == challenge.id
        }
        return challenges.table(challenge, entrants, user, limit)

    # --- Swiss evenings ---------------------------------------------------------------

    async def create_event(self, event: Event) -> Event:
        if await self.chat_event(event.chat) is not None:
            raise EventExists(event.chat)
        event = event.with_(id=max(self._events, default=0) + 1)
        self._events[event.id] = event
        return event

    async def load_event(self, event_id: int) -> Event | None:
        return self._events.get(event_id)

    async def chat_event(self, chat: ChatRef) -> Event | None:
        return next(
            (
                e
                for e in self._events.values()
                if (e.chat.platform, e.chat.id) == (chat.platform, chat.id) and e.state.is_live
            ),
            None,
        )

    async def events_to_resume(self) -> list[Event]:
        events = (self._events[k] for k in sorted(self._events))
        return [e for e in events if e.state.is_live or not e.end_shown]

    async def save_event(
        self, event: Event, base: int, new_tables: Sequence[tuple[EventTable, Game]] = ()
    ) -> Event:
        stored = self._events.get(event.id)
        if stored is None or stored.version != base:
            raise StaleEvent(event.id)
        kept = {(t.round, t.number): t for t in stored.tables}
        if any((t.round, t.number) in kept for t, _ in new_tables):
            raise StaleEvent(event.id)
        results: dict[tuple[int, int], TableResult | None] = {
            (t.round, t.number): t.result for t in event.tables
        }
        tables = [
            t if t.result is not None else replace(t, result=results.get((t.round, t.number)))
            for t in stored.tables
        ]
        for table, game in new_tables:
            created = await self.create_game(game)
            self._event_games.add(created.id)
            tables.append(replace(table, game_id=created.id))
        saved = event.with_(tables=tuple(tables))
        self._events[event.id] = saved
        return saved

    async def game_end(self, game: Game) -> GameEnd:
        series = self._series.get(game.id)
        deals = self._deals.get(game.id, {})
        walked = {
            seat
            for (platform, user_id, game_id), row in self._endings.items()
            if game_id == game.id
            and row["walked_out"] is not None
            and (seat := game.seat_of(UserRef(Platform(platform), user_id))) is not None
        }
        return GameEnd(
            finished=game.status.value == "finished",
            loser=None if series is None else team_of(series["loser"]),
            deals=tuple(
                (d["loss_a"], d["loss_b"], None if d["winner"] is None else team_of(d["winner"]))
                for _, d in sorted(deals.items())
            ),
            walked_out=frozenset(walked),
        )
