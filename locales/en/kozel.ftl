# Kozel — the bot's English texts.

## Common

team-a = Team A
team-b = Team B
names-pair = { $first } and { $second }
suit-clubs = ♣ clubs
suit-spades = ♠ spades
suit-hearts = ♥ hearts
suit-diamonds = ♦ diamonds
rules-name-yard = Yard Kozel, 4 cards
rules-name-classic = Classic Kozel
rules-short-yard = Yard
rules-short-classic = Classic
lang-name-ru = Russian
lang-name-en = English
duration =
    { $minutes ->
        [0] { $seconds } s
       *[other]
            { $seconds ->
                [0] { $minutes } min
               *[other] { $minutes } min { $seconds } s
            }
    }
timeout-none = no limit
cards-count =
    { $count } { $count ->
        [one] card
       *[other] cards
    }

## Computer players' names

bot-name-1 = Bot Bob
bot-name-2 = Bot Alice
bot-name-3 = Bot Charlie
bot-name-4 = Bot Dora
bot-name-5 = Bot Eddie
bot-name-6 = Bot Fiona
bot-name-7 = Bot George
bot-name-8 = Bot Hannah

## Commands (menu descriptions, at most 100 characters)

cmd-kozel = Set up a table and play Kozel
cmd-top = Best players of this chat, of every chat, of a month
cmd-stats = My statistics
cmd-rules = The rules of the game
cmd-lang = Change the chat's language: Russian or English
cmd-help = What the commands do
cmd-stop = Cancel this chat's game

## Help

help-text =
    🐐 Kozel is a card game for four: two teams of two, partners sit opposite.

    { $kozel } — set up a table in this chat; { $kozel } { $yard } or { $kozel } { $classic } — of those rules (the lobby changes the rules and the house rules too)
    { $stop } — cancel this chat's game
    { $rules } — the rules of this chat's table ({ $rules } { $yard }, { $rules } { $classic } — of either game)
    { $stats } — your statistics in each game
    { $top } — best players of this chat, { $top } { $all } — of every chat, { $top } { $classic } — in one game's tables, { $top } { $season } — this month, { $top } { $month } YYYY-MM — a past month
    { $pictures } — whether a game's result comes as a picture too: { $pictures } on or off (admins)
    { $lang } — language: { $platform ->
        [discord] { $lang } and a language from the list
       *[other] { $lang } ru or { $lang } en
    }
    { $kozel } { $challenge } — the day's duplicate challenge: the same deals for everybody, you and the strong computer against the strong computer (in the private chat with me); { $top } { $challenge } — its table
    { $event } — a Swiss evening for pairs in a group: an admin opens it with { $event } { $open }
    { $help } — this help

    You see your cards in a private chat with me or with the “🃏 My hand” button.

## Rules

rules-also = { $command } — { $rules }
rules-yard =
    📜 Yard Kozel, 4 cards

    Four players, two teams of two; partners sit opposite each other. The deck has 36 cards, six to ace. Within a suit, low to high: 6, 7, 8, 9, jack (J), queen (Q), king (K), 10, ace (A) — the ten is above the king. Any trump is above any card of another suit.

    The deal. Everybody gets 4 cards; the other 20 form the stock. The dealer shows everybody a random card from the middle of the stock: its suit is trump for the whole deal. The card goes back to its place, and somebody will draw it later.

    A trick. The leader plays 1 to 4 cards of one suit. The others, in turn, play as many cards: either they beat — each of their cards beats its partner among the cards now winning the trick (suits may be mixed, trumps beat everything) — or they discard any cards face down. Beating is never compulsory. The trick goes to the last player who beat, or to the leader if nobody did.

    Drawing. After a trick everybody draws one card at a time from the stock back up to 4, starting with the trick's winner, who leads next.

    A molodka is four cards of one suit in hand. Its holder may play it out of turn while the trick is not finished: the cards played go back to their owners and the trick starts again with the molodka as the lead. The leader may not do this.

    Scoring. The deck holds 120 points: ace 11, ten 10, king 4, queen 3, jack 2. A team with 61 or more wins the deal. The losers get loss points: 2 if they had 31 to 59, 4 if they had 30 or less, 6 if they took no trick. 60 all is “eggs”: nobody gets loss points.

    The series goes on until a team has 12 loss points. Its players are the goats — goats with eggs if the series had eggs.

    Classic Kozel is played too; it has rules of its own. The full rules of both games: docs/rules.md in the bot's source code.
rules-classic =
    📜 Classic Kozel

    Four players, two teams of two, partners opposite. 32 cards (7 to A). Points: A 11, 10 10, K 4, Q 3, J 2; 120 in all.

    Trumps. Queens and jacks are always trumps: Q♣ Q♠ Q♥ Q♦ J♣ J♠ J♥ J♦{ $kocherga ->
        [off] .
       *[on] , below the kocherga 7♣.
    } Then { $trump ->
        [fixed] { $suit }, in every deal
       *[other] the trump suit, if any
    }. In a suit: A, 10, K, 9, 8, 7.

    Deal: 8 cards each{ $by ->
        [four] , one at a time in the first deal, later without praise four at a time
       *[one] {""}
    }. The first deal has no praise: the { $first ->
        [ad] A♦
       *[jc] J♣
    } holder leads{ $trump ->
        [fixed] .
        [none] , with no trump suit.
       *[roulette] , clubs are trumps, and each player gets a suit (the roulette): the J♣ holder ♣, his partner ♠, the next player ♥, the previous ♦.
    } Later { $dealers ->
        [clockwise] the next player clockwise deals
       *[jc] the last J♣ holder deals
    }{ $eggs ->
        [replay] {" "}(after eggs the same one)
       *[carry] {""}
    }{ $trump ->
        [fixed] .
        [none] .
       *[roulette] , and the new J♣ holder's suit is trump.
    }

    Praise. Before the deal the player after the dealer says “deal” or praises. Simple: the declarer gets cards face up while trumps or aces come; { $trump ->
        [fixed] his cards stop at the first other one, and he leads.
       *[other] the first other card is the trump, and he leads.
    } Pants: each draws pairs (top and bottom) while trumps or aces come, and lays a card of his last pair. Mirror: each cuts and draws from the bottom while permanent trumps come, laying the last. { $trump ->
        [fixed] The laid cards are the first trick.
       *[other] Then the declarer names the trump (or no trump); the laid cards are the first trick.
    }{ $obo ->
        [yes] {" "}One by one: the cards are dealt one at a time from the declarer, who leads.
       *[no] {""}
    }

    Play. { $lead ->
        [team] Only the declarer's pair leads trumps.
        [non_dealers] Only the pair that did not deal leads trumps, with or without praise.
       *[declarer] Only the declarer leads trumps.
    } Follow suit, a trump with a trump; with none, any card{ $aceban ->
        [off] .
       *[on] {" "}but the ace of a suit not led yet.
    } The highest trump wins, else the highest card of the suit led.

    Without praise, before the first card: { $lasttrump ->
        [off] no trump is given to the partner
       *[on] a single trump may be given to the partner (who gives back a plain card or declines)
    }; { $redeal ->
        [off] no redeals.
       *[on] with 12 points or less, or four nines{ $queens ->
            [on] , or a pair without queens but Q♦,
           *[off] ,
        } ask for a redeal; the third request gives 1 pair to the dealer's opponents.
    }

    { $kocherga ->
        [off] No kocherga: 7♣ is a plain club.
       *[on] Kocherga: 7♣ on a trick with an opponent's Q♣ ends the deal: 4 pairs.
    }

    Scoring: 61–89 points give 1 pair, 90–120 give 2. 60 all is eggs: { $eggs ->
        [replay] no pairs, and the same dealer deals again.
       *[carry] a pair for the next deal's winners.
    } Lucy: losers without a trick lose all their pairs{ $lucy ->
        [win] ; if they had none, the game is over.
       *[reset] .
    }

    The game goes to 6 pairs. The losers are the goats: with eggs (if there were eggs), with tails (the winners won from 5 pairs with 90+).

    { $platform ->
        [console] Start: kozel play --rules classic; kozel play --help names every option.
       *[other] Start: { $kozel } { $classic }{ $usual ->
            [p001] {" "}001
           *[other] {""}
        }. The lobby shows the table's options.
    }

## The table before the game (lobby)

lobby-title = 🐐 New game: { $rules }
lobby-creator = Host: { $name }
lobby-team = { $team }: { $first }, { $second }
lobby-seat-empty = free
lobby-free =
    { $count ->
        [one] { $count } seat is still free.
       *[other] { $count } seats are still free.
    }
lobby-ready = Everybody is seated — ready to start!
lobby-settings = Time per turn: { $timeout } · Language: { $lang } · Computers: { $level }
lobby-join-a = Join team A
lobby-join-b = Join team B
lobby-leave = Leave the table
lobby-add-computer-a = 🤖 Bot to team A
lobby-add-computer-b = 🤖 Bot to team B
lobby-remove-computer = ✖ { $name }
lobby-start = ▶ Start
lobby-cancel = Cancel the game
lobby-timeout = ⏱ { $timeout }
lobby-language = 🌐 { $lang }
lobby-level = 🤖 { $level }
lobby-rules = 📜 { $rules }
lobby-house-rules = ⚙ House rules
lobby-house-rules-hint = House rules: a preset (001 or 003) sets them all in one tap; each other button shows an option as it is now; press it to change it.
lobby-back = ↩ Back to the seats
lobby-preset-chosen = ✓ { $label }
lobby-page-prev = ◂ { $page }/{ $pages }
lobby-page-next = { $page }/{ $pages } ▸
level-easy = easy
level-normal = normal
level-strong = strong
lobby-cancel-confirm = Cancel the game? Every seat will be freed.
lobby-cancel-yes = Yes, cancel
lobby-cancel-no = No, play on

## The table during the game

table-title = 🐐 { $rules } · deal { $number }
table-trump = Trump: { $suit } (the card shown is { $card }, still in the stock)
table-trump-drawn = Trump: { $suit } (the card shown, { $card }, was drawn by { $name })
table-trump-drawn-you = Trump: { $suit } (the card shown, { $card }: you drew it)
table-stock =
    { $count } { $count ->
        [one] card
       *[other] cards
    } in the stock
table-stock-empty = The stock is empty
table-trick = Trick { $number }:
table-trick-empty = The table is empty, { $name } leads
table-trick-empty-you = The table is empty, you lead
table-play-lead = { $name } leads: { $cards }
table-play-lead-you = You lead: { $cards }
table-play-beat = { $name } beats: { $cards }
table-play-beat-you = You beat: { $cards }
table-play-discard = { $name } discards: { $cards }
table-play-discard-you = You discard: { $cards }
table-winning = Winning now: { $name }
table-winning-you = Winning now: you
table-tricks =
    Team A { $a } { $a ->
        [one] trick
       *[other] tricks
    } · Team B { $b } { $b ->
        [one] trick
       *[other] tricks
    }
table-loss = Loss points: A { $a } · B { $b } ({ $limit } points lose)
table-turn = ⏳ { $name } to play
table-turn-you = ⏳ Your turn
table-turn-time = ⏳ { $name } to play, { $time } left
table-turn-time-you = ⏳ Your turn, { $time } left
table-waiting = ⏳ Waiting for { $name }
table-waiting-you = ⏳ Waiting for your move
table-away = 💤 Away: { $names }. A computer plays for the absent meanwhile.
table-deal-over = Deal { $number } is over. Points: A { $a } · B { $b }
table-deal-eggs = Deal { $number } is over: 60 all — eggs!
table-next-deal = The next deal is coming.
table-series-over = 🏁 The series is over.
table-no-deal = The deal has not started yet.
table-cancelled = The game was cancelled.
table-hand-button = 🃏 My hand

## A player's hand

hand-summary = Trump { $suit } · stock { $stock } · tricks A { $a } : B { $b }
hand-trump = Trump { $suit }
hand-table = On the table: { $plays }
hand-table-empty = The table is empty.
hand-table-you = you
hand-your-turn-lead = 👉 Your turn: lead one or more cards of one suit.
hand-your-turn-answer =
    👉 Your turn: beat or discard { $count } { $count ->
        [one] card
       *[other] cards
    }.
hand-wait = Not your turn yet: the table in the chat shows the game. This message changes when your turn comes.
hand-molodka-hint = You hold a molodka! You may play it right now, even out of turn.
hand-cards = Your cards: { $cards }
hand-selected = Selected: { $cards }
hand-select = Select cards, then choose what to do with them.
hand-no-action = You cannot play these cards now.
hand-empty = You hold no cards.
hand-deal-over = The deal is over.
hand-no-deal = The deal has not started yet.
hand-lead = Lead: { $cards }
hand-beat = Beat: { $cards }
hand-discard = Discard: { $cards }
hand-molodka = 💥 Molodka!
hand-clear = ✖ Clear

## Results

result-deal-title = 🃏 Deal { $number } is over
result-deal-team =
    { $team }: { $points } { $points ->
        [one] point
       *[other] points
    }, { $tricks } { $tricks ->
        [one] trick
       *[other] tricks
    }
result-deal-loss =
    { $team } gets { $loss } loss { $loss ->
        [one] point
       *[other] points
    }.
result-deal-eggs = 🥚 Eggs! 60 all — nobody gets loss points.
result-loss = Loss points of the series: A { $a } · B { $b } ({ $limit } points lose)
result-series-title =
    🏁 The series is over after { $deals } { $deals ->
        [one] deal
       *[other] deals
    }
result-goats = 🐐 The goats: { $names }!
result-goats-eggs = 🐐🥚 Goats with eggs: { $names }!
result-winners = Winners: { $names }.
result-rematch = 🔁 Another series
rating-changes-title = 📈 Rating:
rating-change = { $name } { $rating } ({ $delta })
rating-unrated = This game is unrated: only games of four people count for the rating.

## The result as a picture

picture-title = The game is over
picture-score-yard = { $rules } · loss points
picture-score-classic = { $rules } · pairs
picture-winners = Winners
# A player whose name has nothing the picture can draw.
picture-player = Player { $seat }
picture-goats = Goats
picture-goats-with-eggs = Goats with eggs
picture-goats-with-tails = Goats with tails
picture-goats-with-eggs-and-tails = Goats with eggs and tails
picture-footer-yard = Deals: { $deals } · eggs: { $eggs }
picture-footer-classic = Deals: { $deals } · eggs: { $eggs }
picture-caption = 🖼 The result
pictures-on = 🖼 Done: a game's result comes as a picture too.
pictures-off = 🖼 Done: a game's result comes as text only, without a picture.
pictures-usage =
    🖼 The result as a picture: { $state ->
        [on] on
       *[off] off
    }. The group's admins change it: { $command } on or { $command } off
pictures-admins = Only the group's admins turn the result picture on or off.
cmd-pictures = The result as a picture: on or off (admins)
cmd-name-pictures = pictures
cmd-option-pictures = mode
cmd-option-pictures-about = Send a game's result as a picture too
pictures-choice-on = on
pictures-choice-off = off

## Statistics

stats-title = 📊 Statistics: { $name }
stats-series = Series: { $played } played, { $won } won ({ $rate }%)
stats-goats =
    Goat { $goat } { $goat ->
        [one] time
       *[other] times
    } ({ $eggs } with eggs)
stats-deals = Deals: { $played } played, { $won } won, { $lost } lost, { $eggs } eggs
stats-points =
    { $points } { $points ->
        [one] point
       *[other] points
    } taken
stats-empty = You have not played a series yet. Start one: { $kozel }
stats-rules = 📜 { $rules }
stats-rating = Rating: { $rating } ±{ $spread }, best { $best } ({ $games } rated { $games ->
        [one] game
       *[other] games
    })
stats-rating-last = Latest changes: { $changes }
stats-partner =
    Best partner: { $name } — { $won } { $won ->
        [one] win
       *[other] wins
    } of { $played }
stats-rating-overall = 📈 Overall rating: { $rating }, best { $best } ({ $games } { $games ->
        [one] game
       *[other] games
    })

## Achievements

achievements-title = 🏅 Achievements!
achievements-line = { $icon } “{ $title }” — { $names }. { $phrase }
stats-achievements = 🏅 Achievements: { $list }
achievement-eggs = Eggs
achievement-eggs-phrase = 60–60: share and share alike.
achievement-lucy = Lucy
achievement-lucy-phrase = 120–0: the others never smelled a trick.
achievement-kocherga = The Poker
achievement-kocherga-phrase = The seven of clubs caught the queen. She never saw it coming.
achievement-praise-simple = Simple praise won
achievement-praise-simple-phrase = Bragged, and it was true.
achievement-praise-pants = Pants
achievement-praise-pants-phrase = Played in pants and kept them on.
achievement-praise-mirror = Mirror
achievement-praise-mirror-phrase = Mirror, mirror, who took the deal? He did.
achievement-molodka-30 = A molodka with a dowry
achievement-molodka-30-phrase = A molodka took a trick worth 30 points or more.
achievement-dry-series = A dry series
achievement-dry-series-phrase = 12–0: not a single loss point.
achievement-goats-with-eggs = Goats with eggs
achievement-goats-with-eggs-phrase = It happens to the best of us.
achievement-three-in-a-row = A pair that clicks
achievement-three-in-a-row-phrase = Three wins in a row with the same partner.
achievement-first-rated-game = First rated game
achievement-first-rated-game-phrase = Welcome to the table.
achievement-games-100 = A hundred
achievement-games-100-phrase = A hundred rated games. The table knows your footsteps.

## Best players

top-title-chat = 🏆 Best players of this chat
top-title-global = 🏆 Best players of every chat
top-title-season = 🏆 Best players of this chat in season { $season }
top-row =
    { $place }. { $name } — { $won } { $won ->
        [one] win
       *[other] wins
    } of { $played } ({ $rate }%)
top-empty = Nobody has finished a series yet.
top-rating-row =
    { $place }. { $name } — { $rating } · { $games } { $games ->
        [one] game
       *[other] games
    } · { $rate }% won
top-rating-empty = Nobody has { $games } rated games yet (four people at the table).
top-hint = Every chat: { $top } { $all }
top-rules = 📜 { $rules }
top-usage = “{ $word }”? { $top } takes the rules, { $all }, { $season } and a past month, in any order: { $top } { $classic }, { $top } { $yard } { $all }, { $top } { $season }, { $top } { $month } YYYY-MM
top-usage-unnamed = { $top } takes the rules, { $all }, { $season } and a past month, in any order: { $top } { $classic }, { $top } { $yard } { $all }, { $top } { $season }, { $top } { $month } YYYY-MM
top-month-malformed = That is not a month: write it as YYYY-MM, e.g. { $top } { $month } { $example }
top-month-future = The season { $asked } has not begun yet: this one is { $current }.

## Reminders and notices

reminder-turn =
    ⏰ { $name }, your turn! { $seconds } { $seconds ->
        [one] second
       *[other] seconds
    } left.
notice-away = 💤 { $name } keeps missing turns — a computer plays for them meanwhile. Any button brings them back.
notice-back = 👋 { $name } is back.
notice-refused-team-has-queen = 🙅 { $name } asked for a redeal for want of queens: refused, the pair holds a queen.
notice-auto-move = ⏱ Time is up: a computer played for { $name }.
notice-started = 🃏 The game has started! See your cards in a private chat with me or with the “My hand” button.
notice-cancelled = The game was cancelled.
notice-lang-switched = Done: I speak English now.
notice-lang-own = Done: I speak English to you now (your cards, your answers). The group's language ({ $group }) is changed by its admins.
notice-lang-usage = Language: { $language }. To change it: { $platform ->
        [discord] { $lang } and a language from the list
       *[other] { $lang } ru or { $lang } en
    }
notice-dm-needed = { $name }, to get your cards, open a private chat with me, press “Start”, then come back here.
notice-dm-button = 💬 Open a chat with me
notice-dm-hello = Hello! I will send your cards here. Go back to the game's chat.
notice-no-hand = You sit at no running game. Your cards come here once a game you joined starts.
notice-answers-dropped = Too many commands at once in this chat: I left some unanswered. Ask again in a minute.
notice-group-only = Games are played in groups and servers: add me to a chat and type { $kozel }.

## Errors: err- + code

err-generic = Something went wrong. Please try again.
err-unknown-game = This game no longer exists.
err-game-over = This game is already over.
err-game-running = A game is already running in this chat.
err-game-not-started = The game has not started yet.
err-game-started = The game has already started.
err-stale = This button is out of date — look at the latest message.
err-stale-console = That move is out of date — look at the table again.
err-malformed = I did not understand that command.
err-not-seated = You are not seated at this table.
err-already-seated = You are already seated.
err-team-full = That team has no free seat.
err-table-not-full = Four players are needed: take the seats or add bots.
err-not-creator = Only the host of the table can do that.
err-not-allowed = You cannot do that.
err-no-such-seat = There is no such seat.
err-bad-setting = There is no such setting.
err-cannot-message = I cannot write to you privately: open a chat with me and press “Start”.
err-no-stats = No statistics yet — play a series first.
err-not-here = This button belongs to a game of another chat.
err-not-yours = This message is another player's.
err-not-member = Only members of the game's chat can sit at its table.
err-bad-link = This link seats nobody: press a “Join team” button at the table in the group again.
err-too-many-commands = Not so fast: too many commands in a row. I will answer yours again in a minute.
err-too-many-presses = Not so fast: too many presses in a row. Wait a few seconds.
err-not-here-console = That belongs to a game of another chat.
err-bad-link-console = That link seats nobody.
err-bad-seat = There is no such seat at the table.
err-not-your-turn = It is not your turn.
err-deal-over = The deal is already over.
err-series-over = The series is already over.
err-deal-not-over = The deal is not over yet.
err-no-cards = Select some cards first.
err-duplicate-cards = The same card was selected twice.
err-not-in-hand = You do not hold that card.
err-too-many-cards = A lead has one to four cards.
err-mixed-suits = A lead must be cards of one suit.
err-wrong-count = Play as many cards as were led.
err-does-not-beat = These cards do not beat the cards winning the trick.
err-must-lead = The trick has not started: you must lead.
err-already-led = The trick is already led: beat or discard.
err-molodka-not-held = You did not hold a molodka when the trick began.
err-molodka-by-leader = The trick's leader cannot restart it with a molodka.
err-molodka-not-nearest = A player nearer to the leader holds a molodka too — it is theirs to play.
err-molodka-already = A molodka has already restarted this trick.
err-molodka-cards = A molodka is all four of your cards of one suit.
err-unknown-card = There is no such card.
err-unknown-action = There is no such move.
err-bad-deck = The deck must hold 36 different cards.
err-bad-record = This is not a game record.
err-bad-dealer = The dealer must be the player before the one who took the last trick.
err-unknown-rule-set = There are no such rules.
err-no-such-rules = There are no rules called “{ $word }”: choose { $yard } or { $classic }.
err-no-such-rules-unnamed = There are no such rules: choose { $yard } or { $classic }.
err-bad-options = These options do not fit these rules.
err-game-finished = The game is already over: a team has six pairs.
err-wrong-step = That move does not fit this moment of the deal.
err-missing-argument = Choose a card (or a suit) for this move.
err-praise-kind-required = Say which praise you play: simple, pants or mirror.
err-praise-kind-mismatch = This table plays another kind of praise.
err-not-in-pair = Lay one of the two cards of your last pair.
err-cut-out-of-range = Cut at least one card and leave at least one.
err-must-follow-suit = You must follow the led suit.
err-must-play-trump = You must play a trump.
err-must-play-trump-suit = You must play a card of the trump suit.
err-must-play-permanent-trump = You must play a queen, a jack or the kocherga.
err-ace-banned = You may not discard the ace of a suit that has not been led yet.
err-trump-lead-forbidden = Only the declarer may lead trumps: lead a plain card.
err-not-one-trump = You can give your last trump only when you hold exactly one trump.
err-already-offered = You have already offered your last trump.
err-offer-pending = Wait for the partner's answer to the offer.
err-no-offer = Nobody offered you a trump.
err-must-give-plain = Give back a card that is not a trump.
err-play-started = Not once the first card has been played.
err-with-declarer = Not in a deal with a declarer.
err-option-off = This table's rules do not allow that.
err-redeal-not-allowed = A redeal needs a hand worth 12 points or less, or four nines.
err-team-has-queen = Your pair holds a queen other than Q♦: no redeal.

## Play log: one line per public event (console, and the table's last-move line).
log-lead = { $name } leads { $cards }
log-lead-you = You lead { $cards }
log-beat = { $name } beats with { $cards }
log-beat-you = You beat with { $cards }
log-discard = { $name } discards { $count ->
    [one] one card
   *[other] { $count } cards
} face down
log-discard-you = You discard { $count ->
    [one] one card
   *[other] { $count } cards
} face down
log-molodka-restarts = { $name } declares a molodka: { $cards }! The trick starts again.
log-molodka-restarts-you = You declare a molodka: { $cards }! The trick starts again.
log-molodka-opens = { $name } declares a molodka: { $cards }! The trick starts with a molodka.
log-molodka-opens-you = You declare a molodka: { $cards }! The trick starts with a molodka.
log-trick = { $name } takes the trick ({ $count ->
    [one] one card
   *[other] { $count } cards
})
log-trick-you = You take the trick ({ $count ->
    [one] one card
   *[other] { $count } cards
})
log-deal = Deal { $number }: { $name } deals, { $leader } leads. Trump: { $card }
log-deal-you-deal = Deal { $number }: you deal, { $leader } leads. Trump: { $card }
log-deal-you-lead = Deal { $number }: { $name } deals, you lead. Trump: { $card }

## Console play
console-welcome = Kozel in the terminal. You sit at seat { $seat } (seats 0 to 3 clockwise; 0 and 2 are team A) with { $partner } as your partner against { $left } and { $right }. Type ? for help, r for the rules.
console-resumed = Your unfinished game is back on the table. To abandon it and start a new one, run: { $command }
console-saved-differs = The saved game is { $saved }, but you asked for { $asked }. It goes on as saved; to abandon it and start what you asked, run: { $command }
console-abandoned = The saved game ({ $saved }) is abandoned; a new one starts.
console-game = { $rules }, { $options }, computers: { $level }
console-game-no-options = { $rules }, computers: { $level }
console-rules-options = This table's options: { $options }.
console-help =
    Cards are numbered as in your hand.
      1 3     play cards 1 and 3 (lead them, or beat if they beat, else discard them)
      b 1 3   beat with cards 1 and 3
      d 1 3   discard cards 1 and 3 face down
      m       declare a molodka
      a       let the computer (of the table's level) choose your move
      r       the rules of this table
      t       show the table
      q       stop; the game is saved and goes on next time
console-hand = Your cards: { $cards }
console-legal = You may: { $moves }
console-prompt = Your move>
console-not-understood = Not understood: “{ $input }”. Type ? for help.
console-no-such-card = There is no card { $number } in your hand.
console-saved = The game is saved. To go on, run: { $command }
console-record-written = Game record written to { $path }
console-summary = Deals: { $deals }. Loss points: team A { $a }, team B { $b }.
console-move-lead = lead
console-move-beat = beat
console-move-discard = discard
console-move-molodka = declare a molodka
console-you = Player (you)

console-team = You play for team { $team } with { $partner }.
console-follow =
    Follow with { $count } { $count ->
        [one] card
       *[other] cards
    }: beat, or discard face down.
console-seed-differs = This saved game was shuffled with --seed { $saved }, not { $seed }: it goes on as it was saved, and its record keeps seed { $saved }.
console-seed-none = This saved game was shuffled without --seed, not with { $seed }: it goes on as it was saved, and its record has no seed.
console-database-in-use = The database { $path } is in use by another Kozel (the bot, or a game in another terminal). Stop that one first, or choose another database with --db.
console-record-no-folder = Cannot write the record to { $path }: there is no folder { $folder }. Nothing was played.
console-record-is-folder = Cannot write the record to { $path }: it is a folder. Nothing was played.
console-record-not-writable = Cannot write the record to { $path }: no permission to write there. Nothing was played.
console-record-failed = The record could not be written to { $path } ({ $problem }); the game is kept in the database.
console-log-unwritable = Cannot write the log to { $path } ({ $problem }). Nothing was played.
cli-error = { $prog }: { $problem }
cli-see-help = Every option: { $prog } --help
cli-invalid-choice = { $argument } takes { $choices }, not “{ $value }”
cli-invalid-number = { $argument } takes a number, not “{ $value }”
cli-expected-value = { $argument } needs a value
cli-unrecognized = not understood: { $words }
cli-required = missing: { $arguments }
cli-bad-seats = --seats takes four of you and bot, you at one seat at most, e.g. you,bot,bot,bot, bot,you,bot,bot or bot,bot,bot,bot
cli-unknown-option = --option “{ $word }”: not name=value of an option of { $rules } ({ $names })
cli-option-value = --option { $name }={ $value }: { $name } takes { $values }
cli-unknown-preset = --preset { $name }: { $rules } has no such preset (there are: { $names })
console-needs-sqlite = The terminal game keeps its games in SQLite, not in PostgreSQL: give it a file with --db sqlite:///kozel.sqlite3.
console-database-unavailable = The game cannot start: { $reason }.

## Discord: slash command names and options (lowercase, no spaces, at most 32 characters)

cmd-name-kozel = kozel
cmd-name-top = top
cmd-name-stats = stats
cmd-name-rules = rules
cmd-name-lang = lang
cmd-name-help = help
cmd-name-stop = stop
cmd-option-all = all
cmd-option-all-about = Best players of every chat
cmd-option-season = season
cmd-option-season-about = Best players of this chat this month
cmd-option-month = month
cmd-option-month-about = A past month's best players: YYYY-MM (e.g. 2026-11) or last
cmd-option-user = player
cmd-option-user-about = Whose statistics (yours if empty)
cmd-option-rules = set
cmd-option-rules-about = Which rules
cmd-option-language = language
cmd-option-language-about = The language of this chat

## Discord: direct messages and the ephemeral hand

discord-dm-closed = I cannot send you direct messages, so your cards cannot come there. Allow direct messages from this server's members (server name → Privacy Settings), or take your cards with the “🃏 My hand” button on the table.
discord-dm-closed-public = { $mention }, I cannot send you direct messages. Allow them (server name → Privacy Settings), or take your cards with the “🃏 My hand” button on the table.
discord-hand-here = Your direct messages are closed, so your cards are only here. If this message stops changing, press “🃏 My hand” on the table again.
discord-to-table = ↪ To the table

## Classic Kozel (хвалёный козёл): table, hand, results, options

classic-title = 🐐 { $rules } · deal { $number }{ $attempt ->
    [1] {""}
   *[other] , dealing { $attempt }
}
classic-dealer = { $name } deals
classic-dealer-you = You deal
classic-trump = Trump: { $suit }; { $kocherga ->
    [yes] queens, jacks and the kocherga are
   *[other] queens and jacks are
} always trumps
classic-trump-none = No trump suit: only { $kocherga ->
    [yes] queens, jacks and the kocherga
   *[other] queens and jacks
} are trumps
classic-trump-unset = Trump suit not set yet; { $kocherga ->
    [yes] queens, jacks and the kocherga
   *[other] queens and jacks
} are always trumps
classic-praise-simple = simple
classic-praise-pants = pants
classic-praise-mirror = mirror
classic-praise-choose = the declarer's choice
classic-praise-one-by-one = one by one
classic-declarer = { $name } praises: { $kind }
classic-declarer-you = You praise: { $kind }
classic-shown = Dealt face up to the declarer: { $cards }
classic-laid = Laid on the table: { $cards }
classic-exchanged = { $name } gave the last trump to { $partner } and got a card back (faces hidden)
classic-exchanged-you = You gave the last trump to { $partner } and got a card back
classic-offered = { $name } offers the last trump to the partner
classic-offered-you = You offer your last trump to your partner
classic-redeal-asked = { $name } asks for a redeal and shows: { $cards }
classic-redeal-asked-you = You ask for a redeal and show: { $cards }
classic-trick = Trick { $number }: { $plays }
classic-trick-empty = Trick { $number }: the table is empty
classic-last-trick = Last trick: { $plays }
classic-points = Points: A { $a } · B { $b } · tricks A { $ta } · B { $tb }
classic-pairs = Pairs: A { $a } · B { $b } ({ $limit } pairs win)
classic-egg-pairs =
    🥚 { $count } egg { $count ->
        [one] pair waits
       *[other] pairs wait
    } for the next deal's winners
classic-fixed-suits = Roulette suits: { $suits }
classic-decision-time = { $line }, { $time } left
classic-wait-praise = ⏳ { $name } decides: deal or praise
classic-wait-praise-you = ⏳ Your decision: deal or praise
classic-wait-lay = ⏳ { $name } chooses a card to lay
classic-wait-lay-you = ⏳ Your choice: which card to lay
classic-wait-cut = ⏳ { $name } cuts the deck
classic-wait-cut-you = ⏳ Your turn to cut the deck
classic-wait-name = ⏳ { $name } names the trump
classic-wait-name-you = ⏳ Your turn to name the trump
classic-wait-answer = ⏳ { $name } answers the offer of the last trump
classic-wait-answer-you = ⏳ Your answer to the offer of the last trump
classic-hand-not-dealt = The cards are not dealt yet.
classic-hand-pair = Your last pair: { $cards }
classic-hand-laid = Your card on the table: { $card }
classic-hand-exchange = You gave { $given } and got { $got }
classic-ask-praise = 👉 Your decision: say “deal”, or praise and be the declarer.
classic-ask-lay = 👉 Lay one card of your last pair on the table; you keep the other.
classic-ask-cut = 👉 Cut the deck: how many cards to lift off the top?
classic-ask-name = 👉 Name the trump suit, or play with no trump suit.
classic-ask-answer = 👉 Your partner offers you the last trump: take it and give back a card, or decline.
classic-ask-play = 👉 Your turn: tap a card to play it.
classic-ask-before-lead = Before the first card you may give your last trump or ask for a redeal.
classic-button-deal = Deal
classic-button-praise = 📣 Praise
classic-button-praise-simple = 📣 Praise: simple
classic-button-praise-pants = 📣 Praise: pants
classic-button-praise-mirror = 📣 Praise: mirror
classic-button-praise-one-by-one = 📣 Praise: one by one
classic-button-card = { $card }
classic-button-lay = Lay { $card }
classic-button-cut =
    ✂ { $count }
classic-button-cut-anywhere = ✂ Anywhere
classic-button-no-trump = No trump
classic-no-trump = no trump
classic-button-give = Give { $card }
classic-button-decline = No, thanks
classic-button-offer = 🎁 Give my last trump
classic-button-redeal = 🔄 Ask for a redeal
classic-result-title = 🃏 Deal { $number } is over
classic-result-redeal = 🔄 Deal { $number }: a redeal. The same dealer deals again, nobody scores.
classic-result-kocherga = 🪝 The kocherga caught the queen of clubs! { $team } wins the deal.
classic-result-redeal-penalty = 🔄 A third redeal request: { $team } dealt and loses the deal.
classic-result-eggs =
    🥚 Eggs: 60 all! { $count } egg { $count ->
        [one] pair goes
       *[other] pairs go
    } to the next deal's winners.
classic-result-pairs =
    { $team } gets { $count } { $count ->
        [one] pair
       *[other] pairs
    }.
classic-result-lucy = 🙈 Lucy! { $team } took no trick: its pairs drop to 0.
classic-game-over =
    🏁 The game is over after { $deals } { $deals ->
        [one] deal
       *[other] deals
    }
classic-goats-tails = 🐐 Goats with tails: { $names }!
classic-goats-eggs-tails = 🐐🥚 Goats with eggs and tails: { $names }!
classic-options = Options: { $options }
classic-options-default = Rules 003: Gamesberg
classic-options-preset = Rules { $preset }
classic-options-preset-but = Rules { $preset }, but: { $options }
classic-preset-001 = 001: queens, jacks and diamonds
classic-preset-003 = 003: Gamesberg
classic-preset-choice-001 = Classic Kozel 001: queens, jacks and diamonds
classic-preset-button-001 = 001: queens, jacks ♦
classic-preset-button-003 = 003: Gamesberg
classic-option-praise-simple = praise: simple
classic-option-praise-pants = praise: pants
classic-option-praise-mirror = praise: mirror
classic-option-praise-choose = praise: choose
classic-option-praise-one-by-one = praise: one by one
classic-option-kocherga-on = kocherga
classic-option-kocherga-off = no kocherga
classic-option-trump-roulette-on = trump roulette
classic-option-trump-roulette-off = no roulette
classic-option-ace-ban-on = ace ban
classic-option-ace-ban-off = no ace ban
classic-option-last-trump-on = last trump given
classic-option-last-trump-off = no trump giving
classic-option-redeal-on = redeals
classic-option-redeal-off = no redeals
classic-option-trump-suit = trump: { $suit }
classic-option-trump-suit-none = trump: per deal
classic-option-follow-suit-first = trump suit first
classic-option-follow-any-trump = any trump follows
classic-option-trump-lead-declarer = trumps led: declarer
classic-option-trump-lead-team = trumps led: his pair
classic-option-trump-lead-non-dealers = trumps led: others
classic-option-dealers-jc-holder = J♣ holder deals
classic-option-dealers-clockwise = deal in turn
classic-option-first-leader-jc-holder = first lead: J♣
classic-option-first-leader-ad-holder = first lead: A♦
classic-option-deal-by-1 = deal one by one
classic-option-deal-by-4 = deal by four
classic-option-eggs-carry = eggs: a pair aside
classic-option-eggs-replay = eggs: replayed
classic-option-lucy-reset = Lucy: reset
classic-option-lucy-win = Lucy: wins game
classic-option-redeal-queens-on = redeal: no queens
classic-option-redeal-queens-off = no queen redeal
classic-log-dealing = Deal { $number }{ $attempt ->
    [1] {""}
   *[other] , dealing { $attempt }
}: { $name } deals
classic-log-dealing-you = Deal { $number }{ $attempt ->
    [1] {""}
   *[other] , dealing { $attempt }
}: you deal
classic-log-deal = { $name } says “deal”
classic-log-deal-you = You say “deal”
classic-log-praise = { $name } praises: { $kind }
classic-log-praise-you = You praise: { $kind }
classic-log-cut = { $name } cuts { $count } { $count ->
    [one] card
   *[other] cards
}
classic-log-cut-you = You cut { $count } { $count ->
    [one] card
   *[other] cards
}
classic-log-lay = { $name } lays { $card }
classic-log-lay-you = You lay { $card }
classic-log-name = { $name } names the trump: { $suit }
classic-log-name-you = You name the trump: { $suit }
classic-log-offer = { $name } offers the last trump to the partner
classic-log-offer-you = You offer your last trump to your partner
classic-log-accept = { $name } takes the trump and gives a card back
classic-log-accept-you = You take the trump and give a card back
classic-log-decline = { $name } declines the trump
classic-log-decline-you = You decline the trump
classic-log-redeal = { $name } asks for a redeal: { $cards }
classic-log-redeal-you = You ask for a redeal: { $cards }
classic-log-play = { $name } plays { $card }
classic-log-play-you = You play { $card }
classic-log-trick = { $name } takes the trick
classic-log-trick-you = You take the trick
classic-log-kocherga = { $name } catches the queen of clubs with the kocherga!
classic-log-kocherga-you = You catch the queen of clubs with the kocherga!
classic-console-no-such-choice = There is no choice { $number }.
classic-console-not-offered = Not now: { $cards }
classic-why-must-follow-suit = follow suit
classic-why-must-play-trump = a trump is led
classic-why-must-play-trump-suit = trump suit first
classic-why-must-play-permanent-trump = a queen, jack or kocherga first
classic-why-ace-banned = the ace ban
classic-why-trump-lead-forbidden = { $who ->
    [team] only the declarer's team leads trumps
   *[declarer] only the declarer leads trumps
}
classic-why-other = not allowed
classic-console-help =
    Your choices are numbered after “You may:”; “Not now:” says why a card is not among them.
      3       take choice 3 (a card, a decision, an answer)
      a       let the computer (of the table's level) choose your move
      r       the rules of this table
      t       show the table
      q       stop; the game is saved and goes on next time
classic-console-summary =
    Deals: { $deals }. Pairs: team A { $a }, team B { $b }.

# kozel play --web: the table in the browser beside the terminal's.
console-web-links = The table in the browser: { $player } (for spectators: { $spectators })
console-web-spectators = The table in the browser, for spectators: { $spectators }
console-web-unavailable = Cannot serve the table in the browser on { $address }: { $problem }. Nothing was played; choose another --web-port.
console-web-bad-port = --web-port { $port }: a port is a number from 0 to 65535 (0: any free one).
