/* The greedy playout of core/yard/ai/rollout.py in C: the same plays, card for card; and
 * the endgame against the baseline of core/yard/ai/endgame.py: the same values.
 *
 * core.yard.ai.rollout.playout plays a sampled world to the end of the deal with a cheap
 * greedy policy; the search player runs it hundreds of thousands of times a decision
 * round, and in Python one playout costs some tens of microseconds. This module does
 * the same sums on 64-bit masks (about a microsecond). It is optional: rollout.py
 * uses it when it was built (setup.py builds it when a C compiler is at hand) and
 * falls back to its own Python otherwise. The tables (which card beats which, what
 * a card is worth kept) come from Python through init(), so both sides use the same
 * numbers; tests/core/yard/ai/test_rollout.py plays thousands of random worlds through
 * both and asks for the same result.
 *
 * Only the policy without exploration (explore == 0) is here: with exploration the
 * Python playout draws random numbers, and the C one would have to draw the same.
 *
 * Once the stock is empty the search solves each world exactly against the
 * baseline (core.yard.ai.endgame.solve_model): the baseline's choice
 * (core.yard.ai.policy.baseline_move) at every node of the other team, some ten
 * microseconds each in Python. Both are here too, with the same floats to the
 * last bit and the same count of nodes (tests/core/yard/ai/test_endgame_c.py); the
 * baseline's weights come from Python through init_baseline().
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <stdint.h>

/* The floats must round as Python's do, one operation at a time: no wider
 * intermediates, and no fused multiply-add (a compiler may fuse a * b + c when the
 * target has the instruction). */
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "doubles must be evaluated as doubles (FLT_EVAL_METHOD 0)"
#endif
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

typedef uint64_t mask_t;

enum { DECK = 36, SUIT_BITS = 9, HAND = 4, LEAD = 0, BEAT = 1, DISCARD = 2, MOLODKA = 3, MAX_SETS = 16 };
#define SUIT_MASK ((mask_t)0x1FF)
#define FULL_MASK (((mask_t)1 << DECK) - 1)

static mask_t BEATERS[4][DECK];
static double KEEP[4][DECK];
static int POINTS[DECK];
static double BEAT_FACTOR = 1.0;
static int ready = 0;

static PyObject *s_trump, *s_hands, *s_stock, *s_piles, *s_tricks, *s_turn, *s_plays, *s_n,
    *s_win_seat, *s_win_mask, *s_molodka_seat, *s_molodka_done, *s_trump_card, *s_trump_holder,
    *s_gone;

static inline int popcount(mask_t m) { return __builtin_popcountll(m); }
static inline int lowest(mask_t m) { return __builtin_ctzll(m); }

static int points_in(mask_t m) {
    int total = 0;
    while (m) {
        total += POINTS[lowest(m)];
        m &= m - 1;
    }
    return total;
}

/* A per-card table summed over the cards of m in ascending card order, as Python's
 * sum over indexes_of does (the same float, to the last bit). */
static double table_sum(const double *row, mask_t m) {
    double total = 0.0;
    while (m) {
        total += row[lowest(m)];
        m &= m - 1;
    }
    return total;
}

/* What the cards of m are worth kept in hand (rollout.keep_value). */
static double keep_value(int trump, mask_t m) { return table_sum(KEEP[trump], m); }

static int singles(mask_t hand, mask_t *out) {
    int count = 0;
    while (hand) {
        out[count++] = hand & (~hand + 1);
        hand &= hand - 1;
    }
    return count;
}

/* combinations(cards, size) in itertools' (lexicographic) order. */
static int combos(const mask_t *cards, int count, int size, int start, mask_t acc, mask_t *out,
                  int found) {
    if (size == 0) {
        out[found++] = acc;
        return found;
    }
    for (int i = start; i <= count - size; i++) {
        found = combos(cards, count, size - 1, i + 1, acc | cards[i], out, found);
    }
    return found;
}

/* core.yard.deal.subset_masks, in its order. */
static int subsets(mask_t hand, int size, mask_t *out) {
    mask_t cards[DECK];
    int count = singles(hand, cards);
    if (size == 1) {
        for (int i = 0; i < count; i++) out[i] = cards[i];
        return count;
    }
    if (size == count) {
        out[0] = hand;
        return 1;
    }
    if (size == count - 1) {
        for (int i = 0; i < count; i++) out[i] = hand ^ cards[i];
        return count;
    }
    if (size > count || count > HAND) return 0;
    return combos(cards, count, size, 0, 0, out, 0);
}

/* core.yard.deal.beat_masks: every subset of hand that beats the set winning one to one
 * (Hall's condition on every proper part of the winning set), in its order. */
static int beats(mask_t hand, mask_t winning, int trump, mask_t *out) {
    mask_t targets[HAND];
    int size = 0;
    mask_t useful = 0;
    for (mask_t rest = winning; rest; rest &= rest - 1) {
        if (size == HAND) return 0;
        targets[size] = BEATERS[trump][lowest(rest)];
        useful |= targets[size++];
    }
    useful &= hand;
    if (popcount(useful) < size) return 0;
    mask_t unions[1 << HAND];
    int needs[1 << HAND];
    int conditions = 0;
    for (int part = 1; part < (1 << size) - 1; part++) {
        mask_t uni = 0;
        for (int i = 0; i < size; i++)
            if (part >> i & 1) uni |= targets[i];
        unions[conditions] = uni;
        needs[conditions++] = popcount((mask_t)part);
    }
    mask_t candidates[MAX_SETS];
    int total = subsets(useful, size, candidates);
    int found = 0;
    for (int c = 0; c < total; c++) {
        int ok = 1;
        for (int k = 0; k < conditions && ok; k++)
            if (popcount(candidates[c] & unions[k]) < needs[k]) ok = 0;
        if (ok) out[found++] = candidates[c];
    }
    return found;
}

static int can_beat(mask_t hand, mask_t winning, int trump) {
    mask_t found[MAX_SETS];
    return beats(hand, winning, trump, found) > 0;
}

static inline double set_cost(int trump, mask_t m) {
    return keep_value(trump, m) - points_in(m) * 0.01;
}

/* rollout.greedy_lead. */
static mask_t greedy_lead(mask_t hand, int trump) {
    mask_t best = 0;
    long long key_count = -1, key_points = -1;
    mask_t key_part = 0;
    int have = 0;
    for (int suit = 0; suit < 4; suit++) {
        if (suit == trump) continue;
        mask_t part = hand & (SUIT_MASK << (suit * SUIT_BITS));
        if (!part) continue;
        long long count = popcount(part), points = points_in(part);
        if (!have || count > key_count || (count == key_count && points > key_points) ||
            (count == key_count && points == key_points && part > key_part)) {
            best = part;
            key_count = count;
            key_points = points;
            key_part = part;
            have = 1;
        }
    }
    if (!best) {
        if (popcount(hand) == HAND)
            best = hand;
        else
            best = hand & (~hand + 1);
    }
    return best;
}

/* Sort items by (key, item) ascending, keys beside them (Python's sorted with a
 * (key, item) tuple: the same order). Few items: an insertion sort. */
static void sort_by_key(double *keys, mask_t *items, int count) {
    for (int i = 1; i < count; i++) {
        double key = keys[i];
        mask_t item = items[i];
        int at = i;
        while (at > 0 && (keys[at - 1] > key || (keys[at - 1] == key && items[at - 1] > item))) {
            keys[at] = keys[at - 1];
            items[at] = items[at - 1];
            at--;
        }
        keys[at] = key;
        items[at] = item;
    }
}

/* rollout.greedy_discard: the n cards least worth keeping (points first when
 * loading onto the partner's trick, last when dumping). */
static mask_t greedy_discard(mask_t hand, int n, int trump, int load) {
    mask_t cards[DECK];
    double keys[DECK];
    int count = 0;
    for (mask_t rest = hand; rest; rest &= rest - 1, count++) {
        int i = lowest(rest);
        cards[count] = (mask_t)i;
        keys[count] = load ? KEEP[trump][i] - POINTS[i] : KEEP[trump][i] + POINTS[i];
    }
    sort_by_key(keys, cards, count);
    mask_t m = 0;
    for (int k = 0; k < n && k < count; k++) m |= (mask_t)1 << cards[k];
    return m;
}

/* rollout._holds: no opponent of seat among the after next players can beat m. */
static int holds(const mask_t *hands, mask_t m, int seat, int after, int trump) {
    int single = popcount(m) == 1;
    for (int offset = 1; offset <= after; offset++) {
        int other = (seat + offset) & 3;
        if (((other ^ seat) & 1) == 0) continue;
        if (single) {
            if (hands[other] & BEATERS[trump][lowest(m)]) return 0;
        } else if (can_beat(hands[other], m, trump)) {
            return 0;
        }
    }
    return 1;
}

static int is_molodka(mask_t hand) {
    if (popcount(hand) != HAND) return 0;
    int suit = lowest(hand) / SUIT_BITS;
    return (hand >> (suit * SUIT_BITS) & ~SUIT_MASK) == 0;
}

/* Sort sets by (cost, mask), as rollout._by_cost. */
static void by_cost(mask_t *sets, int count, int trump) {
    double costs[MAX_SETS];
    for (int i = 0; i < count; i++) costs[i] = set_cost(trump, sets[i]);
    sort_by_key(costs, sets, count);
}

/* The baseline's weights (core.yard.ai.baseline.DEFAULT_WEIGHTS): SPENT[trump][card], the
 * value of keeping a card (core.yard.ai.policy.SPENT), and the guessed points per card
 * discarded, the chance that a player able to beat does beat, and what beating
 * the partner must gain. */
static double SPENT[4][DECK];
static double LOAD, DUMP, WILL, OVERTAKE;
static int baseline_ready = 0;
/* CHOOSE[n][k]: binomial coefficients, exact (below 2^53 for n <= 36). */
static uint64_t CHOOSE[DECK + 1][DECK + 1];

/* core.yard.deal.lead_masks: per suit, its cards by 1 to 4 of them, each size in
 * itertools.combinations' order. */
static int leads(mask_t hand, mask_t *out) {
    int found = 0;
    for (int suit = 0; suit < 4; suit++) {
        mask_t cards[SUIT_BITS];
        int count = singles(hand & (SUIT_MASK << (suit * SUIT_BITS)), cards);
        for (int size = 1; size <= count && size <= HAND; size++)
            found = combos(cards, count, size, 0, 0, out, found);
    }
    return found;
}

/* core.yard.ai.baseline.at_least: the chance that hand cards drawn from unseen hold
 * need of useful. Hits and total are exact integers, so the division rounds as
 * Python's int / int does. */
static double at_least(int unseen, int useful, int hand, int need) {
    if (hand > unseen) hand = unseen;
    if (need > hand || need > useful) return 0.0;
    if (need <= 0) return 1.0;
    uint64_t hits = 0;
    for (int j = need; j <= hand; j++)
        hits += CHOOSE[useful][j] * CHOOSE[unseen - useful][hand - j];
    return (double)hits / (double)CHOOSE[unseen][hand];
}

/* The baseline's value of keeping the cards of m, summed in ascending card order
 * (policy._set_facts). */
static double spent_value(int trump, mask_t m) { return table_sum(SPENT[trump], m); }

/* An opponent still to play after the seat choosing, as the seat sees him. */
typedef struct {
    int size;     /* his hand size, less the trump card when it is known to be there */
    mask_t known; /* the trump card when it is known to be in his hand, else 0 */
} rival_t;

/* baseline_move's keeps: the chance that the team holding the trick with cards
 * keeps it against its rivals still to play, each with a random hand of the
 * unseen cards. */
static double keeps(mask_t cards, const rival_t *rivals, int count, int trump, mask_t unseen) {
    mask_t pools[HAND];
    int useful[HAND];
    int size = 0;
    /* Each card's beaters, fewest unseen first (stable, as Python's sorted). */
    for (mask_t rest = cards; rest; rest &= rest - 1) {
        mask_t pool = BEATERS[trump][lowest(rest)];
        int key = popcount(pool & unseen);
        int at = size++;
        while (at > 0 && useful[at - 1] > key) {
            pools[at] = pools[at - 1];
            useful[at] = useful[at - 1];
            at--;
        }
        pools[at] = pool;
        useful[at] = key;
    }
    int unseen_count = popcount(unseen);
    double chance = 1.0;
    for (int r = 0; r < count; r++) {
        double beat = 1.0;
        mask_t uni = 0;
        for (int need = 1; need <= size; need++) {
            uni |= pools[need - 1];
            int held = (uni & rivals[r].known) ? need - 1 : need;
            double p = at_least(unseen_count, popcount(uni & unseen), rivals[r].size, held);
            if (p < beat) beat = p;
        }
        chance *= 1.0 - WILL * beat;
    }
    return chance;
}

/* The best action so far by baseline_move's key (worth, is_discard, -points,
 * -mask), compared as Python compares the tuples. */
typedef struct {
    int have, kind, points;
    double worth;
    mask_t mask;
} choice_t;

static void consider(choice_t *best, int kind, mask_t m, int points, double worth) {
    if (best->have) {
        if (worth < best->worth) return;
        if (worth == best->worth) {
            int discard = kind == DISCARD, best_discard = best->kind == DISCARD;
            if (discard < best_discard) return;
            if (discard == best_discard &&
                (points > best->points || (points == best->points && m >= best->mask)))
                return;
        }
    }
    best->have = 1;
    best->kind = kind;
    best->points = points;
    best->worth = worth;
    best->mask = m;
}

/* A deal's state as core.yard.ai.worlds.World holds it, the stock's cards aside (kept
 * beside it: the endgame's stock is empty, and the baseline sees only its size). */
typedef struct {
    int trump, trump_card, trump_holder, stock_size;
    mask_t hands[4], piles[2], gone;
    long long tricks[2];
    int turn, n, win_seat;
    mask_t win_mask;
    int molodka_seat, molodka_done;
    int plays;
    int play_seat[4], play_kind[4];
    mask_t play_mask[4];
} world_t;

/* core.yard.ai.policy.baseline_move: the baseline's (kind, mask) for seat to play in w
 * (a molodka aside), judged from what seat sees: its hand, the table, the cards
 * gone, the hand and stock sizes and who drew the trump card. Every hand holds
 * at most four cards, so do the sets. */
static void baseline_move(const world_t *w, int seat, int *kind_out, mask_t *mask_out) {
    int trump = w->trump;
    mask_t hand = w->hands[seat];
    mask_t face_up = 0;
    double table_points = 0.0;
    int winner = -1;
    for (int k = 0; k < w->plays; k++) {
        mask_t m = w->play_mask[k];
        if (w->play_kind[k] == DISCARD) {
            /* Onto his own team's trick one loads points; onto the other's, low cards. */
            int loading = ((w->play_seat[k] - winner) & 1) == 0;
            table_points += popcount(m) * (loading ? LOAD : DUMP);
        } else {
            face_up |= m;
            table_points += points_in(m);
            winner = w->play_seat[k];
        }
    }
    mask_t unseen = FULL_MASK & ~(hand | face_up | w->gone);
    mask_t known = (mask_t)1 << w->trump_card;
    int known_seat = -1;
    /* The trump card is in the stock until drawn, then in its holder's hand. */
    if ((unseen & known) && (w->trump_holder >= 0 || w->stock_size > 0)) {
        unseen &= ~known;
        if (w->trump_holder >= 0 && w->trump_holder != seat) known_seat = w->trump_holder;
    }
    int first = w->plays ? w->play_seat[0] : seat;
    int done = w->plays ? w->plays : 1;
    int mine = seat & 1;
    /* Per team, its opponents still to play after this seat. */
    rival_t rivals_of[2][3];
    int rival_count[2] = {0, 0};
    int partners = 0, opponents = 0;
    for (int k = done; k < 4; k++) {
        int other = (first + k) & 3;
        if (other == seat) continue;
        if ((other & 1) == mine)
            partners++;
        else
            opponents++;
        int side = (other & 1) ^ 1;
        rival_t *rival = &rivals_of[side][rival_count[side]++];
        rival->size = popcount(w->hands[other]);
        rival->known = 0;
        if (other == known_seat) {
            rival->size -= 1;
            rival->known = known;
        }
    }
    const rival_t *rivals = rivals_of[mine];
    int count_rivals = rival_count[mine];
    double won_per_card = LOAD * partners + DUMP * opponents;
    double lost_per_card = DUMP * partners + LOAD * opponents;
    mask_t sets[MAX_SETS];
    choice_t best = {0, LEAD, 0, 0.0, 0};
    if (w->n == 0) {
        int count = leads(hand, sets);
        for (int i = 0; i < count; i++) {
            mask_t m = sets[i];
            int points = points_in(m);
            double ours = count_rivals ? keeps(m, rivals, count_rivals, trump, unseen) : 1.0;
            int size = popcount(m);
            double base = table_points + points;
            double worth = ours * (base + size * won_per_card) -
                           (1.0 - ours) * (base + size * lost_per_card) - spent_value(trump, m);
            consider(&best, LEAD, m, points, worth);
        }
        *kind_out = best.kind;
        *mask_out = best.mask;
        return;
    }
    int n = w->n;
    int win_team = w->win_seat & 1;
    double overtake = win_team == mine ? OVERTAKE : 0.0;
    int count = beats(hand, w->win_mask, trump, sets);
    for (int i = 0; i < count; i++) {
        mask_t m = sets[i];
        int points = points_in(m);
        double ours = count_rivals ? keeps(m, rivals, count_rivals, trump, unseen) : 1.0;
        double base = table_points + points;
        double worth = ours * (base + n * won_per_card) -
                       (1.0 - ours) * (base + n * lost_per_card) - spent_value(trump, m);
        if (overtake != 0.0) worth -= overtake;
        consider(&best, BEAT, m, points, worth);
    }
    /* Every discard leaves the trick to the set now winning it. */
    const rival_t *holders = rivals_of[win_team];
    int count_holders = rival_count[win_team];
    double keep = count_holders ? keeps(w->win_mask, holders, count_holders, trump, unseen) : 1.0;
    double ours = win_team == mine ? keep : 1.0 - keep;
    count = subsets(hand, n, sets);
    for (int i = 0; i < count; i++) {
        mask_t m = sets[i];
        int points = points_in(m);
        double base = table_points + points;
        double worth = ours * (base + n * won_per_card) -
                       (1.0 - ours) * (base + n * lost_per_card) - spent_value(trump, m);
        consider(&best, DISCARD, m, points, worth);
    }
    *kind_out = best.kind;
    *mask_out = best.mask;
}

/* rollout.legal_moves: the turn seat's actions, beats before discards. */
static int legal_moves(const world_t *w, int *kinds, mask_t *sets) {
    mask_t hand = w->hands[w->turn];
    if (w->n == 0) {
        int count = leads(hand, sets);
        for (int i = 0; i < count; i++) kinds[i] = LEAD;
        return count;
    }
    int count = beats(hand, w->win_mask, w->trump, sets);
    for (int i = 0; i < count; i++) kinds[i] = BEAT;
    int discards = subsets(hand, w->n, sets + count);
    for (int i = count; i < count + discards; i++) kinds[i] = DISCARD;
    return count + discards;
}

/* rollout.step without the draw (all of it on a stock-empty world): one action of
 * seat (a molodka takes the seat's cards back and leads them all); the fourth play
 * finishes the trick as rollout._finish_trick does (the face-up plays gone, the
 * molodka on offer). */
static void end_step(world_t *w, int seat, int kind, mask_t m) {
    mask_t *hands = w->hands;
    if (kind == MOLODKA) {
        for (int k = 0; k < w->plays; k++) hands[w->play_seat[k]] |= w->play_mask[k];
        m = hands[seat];
        hands[seat] = 0;
        w->plays = 1;
        w->play_seat[0] = seat;
        w->play_kind[0] = LEAD;
        w->play_mask[0] = m;
        w->n = HAND;
        w->win_seat = seat;
        w->win_mask = m;
        w->turn = (seat + 1) & 3;
        w->molodka_done = 1;
        w->molodka_seat = -1;
        return;
    }
    hands[seat] ^= m;
    w->play_seat[w->plays] = seat;
    w->play_kind[w->plays] = kind;
    w->play_mask[w->plays] = m;
    w->plays++;
    if (kind == LEAD) w->n = popcount(m);
    if (kind != DISCARD) {
        w->win_seat = seat;
        w->win_mask = m;
    }
    if (w->plays < 4) {
        w->turn = (seat + 1) & 3;
        return;
    }
    int winner = w->win_seat;
    int team = winner & 1;
    for (int k = 0; k < 4; k++) {
        w->piles[team] |= w->play_mask[k];
        if (w->play_kind[k] != DISCARD) w->gone |= w->play_mask[k];
    }
    w->tricks[team] += 1;
    w->turn = winner;
    w->plays = 0;
    w->n = 0;
    w->win_mask = 0;
    w->molodka_done = 0;
    w->molodka_seat = -1;
    if (popcount(hands[winner]) == HAND) {
        for (int offset = 1; offset <= 3; offset++) {
            int other = (winner + offset) & 3;
            if (is_molodka(hands[other])) {
                w->molodka_seat = other;
                break;
            }
        }
    }
}

/* rollout.loss_points. */
static int loss_points(int points, long long tricks) {
    if (tricks == 0) return 6;
    return points <= 30 ? 4 : 2;
}

/* rollout.utility: what a deal's end is worth to team, the same float. */
static double utility(int points_a, long long tricks_a, long long tricks_b, int team,
                      double weight, double win, double smooth) {
    int points = team == 0 ? points_a : 120 - points_a;
    long long mine = team == 0 ? tricks_a : tricks_b;
    long long theirs = team == 0 ? tricks_b : tricks_a;
    double value;
    if (points > 60)
        value = (double)loss_points(120 - points, theirs);
    else if (points < 60)
        value = -(double)loss_points(points, mine);
    else
        value = 0.0;
    if (smooth > 0)
        value += win * tanh((points - 60) / smooth);
    else if (points != 60)
        value += points > 60 ? win : -win;
    return value + weight * (points - 60) / 60;
}

/* One endgame search: its node count against the budget, and what it values. */
typedef struct {
    long long nodes, budget;
    int over; /* the budget ran out: the search unwinds */
    int team;
    double weight, win, smooth;
} model_t;

/* core.yard.ai.endgame.solve_model's value(): the deal's end from w (changed), the
 * other team playing the baseline's choices, team its best; a node at every pass
 * of the loop, as there. */
static double model_value(model_t *model, world_t *w) {
    int kinds[2 * MAX_SETS];
    mask_t sets[2 * MAX_SETS];
    for (;;) {
        if (++model->nodes > model->budget) {
            model->over = 1;
            return 0.0;
        }
        int seat = w->turn;
        if (!w->hands[seat] && !w->plays)
            return utility(points_in(w->piles[0]), w->tricks[0], w->tricks[1], model->team,
                           model->weight, model->win, model->smooth);
        if (w->molodka_seat >= 0 && !w->molodka_done && !w->plays) {
            end_step(w, w->molodka_seat, MOLODKA, 0);
            continue;
        }
        if ((seat & 1) != model->team) {
            int kind;
            mask_t m;
            baseline_move(w, seat, &kind, &m);
            end_step(w, seat, kind, m);
            continue;
        }
        int count = legal_moves(w, kinds, sets);
        if (count == 1) {
            end_step(w, seat, kinds[0], sets[0]);
            continue;
        }
        double best = -1e9;
        for (int i = 0; i < count; i++) {
            world_t child = *w;
            end_step(&child, seat, kinds[i], sets[i]);
            double found = model_value(model, &child);
            if (model->over) return 0.0;
            if (found > best) best = found;
        }
        return best;
    }
}

/* The cards a trick's winner and the next seats draw after end_step finished the
 * trick (rollout._finish_trick: the winner first, the shown trump card's drawer
 * remembered), then the molodka on offer with the hands as drawn. */
static void draw(world_t *w, const int *stock, int *stock_at) {
    int left = w->stock_size;
    if (left <= 0) return;
    int winner = w->turn;
    int count = 4 * (HAND - popcount(w->hands[winner]));
    if (count > left) count = left;
    for (int i = 0; i < count; i++) {
        int card = stock[*stock_at + i];
        int seat = (winner + i) & 3;
        w->hands[seat] |= (mask_t)1 << card;
        if (card == w->trump_card) w->trump_holder = seat;
    }
    *stock_at += count;
    w->stock_size -= count;
    w->molodka_seat = -1;
    if (popcount(w->hands[winner]) == HAND) {
        for (int offset = 1; offset <= 3; offset++) {
            int other = (winner + offset) & 3;
            if (is_molodka(w->hands[other])) {
                w->molodka_seat = other;
                break;
            }
        }
    }
}

/* rollout.step on any world: end_step, then the draw when the trick is over. */
static void full_step(world_t *w, const int *stock, int *stock_at, int seat, int kind, mask_t m) {
    int finishing = kind != MOLODKA && w->plays == 3;
    end_step(w, seat, kind, m);
    if (finishing) draw(w, stock, stock_at);
}

/* The greedy policy's (kind, mask) for the turn seat of w (rollout.playout's
 * choice without exploration; sighted: it sees the world's hands). */
static void greedy_move(const world_t *w, int sighted, int *kind_out, mask_t *mask_out) {
    int trump = w->trump, turn = w->turn, n = w->n, plays = w->plays;
    const mask_t *hands = w->hands;
    mask_t hand = hands[turn];
    if (n == 0) {
        *kind_out = LEAD;
        *mask_out = greedy_lead(hand, trump);
        return;
    }
    int trick_points = 0;
    for (int k = 0; k < plays; k++) trick_points += points_in(w->play_mask[k]);
    mask_t sets[MAX_SETS];
    int count = beats(hand, w->win_mask, trump, sets);
    int partner = ((w->win_seat ^ turn) & 1) == 0;
    *kind_out = DISCARD;
    if (sighted) {
        int after = 3 - plays;
        if (count && !partner) {
            by_cost(sets, count, trump);
            for (int i = 0; i < count; i++) {
                if (holds(hands, sets[i], turn, after, trump)) {
                    if (trick_points + points_in(sets[i]) >= keep_value(trump, sets[i]) * 0.5) {
                        *kind_out = BEAT;
                        *mask_out = sets[i];
                        return;
                    }
                    break;
                }
            }
        }
        int load = partner && holds(hands, w->win_mask, turn, after, trump);
        *mask_out = greedy_discard(hand, n, trump, load);
        return;
    }
    if (count && !partner) {
        /* rollout._cheapest: the first set of least cost. */
        mask_t best = sets[0];
        double best_cost = set_cost(trump, best);
        for (int i = 1; i < count; i++) {
            double cost = set_cost(trump, sets[i]);
            if (cost < best_cost) {
                best = sets[i];
                best_cost = cost;
            }
        }
        if (trick_points >= keep_value(trump, best) * BEAT_FACTOR - points_in(best)) {
            *kind_out = BEAT;
            *mask_out = best;
            return;
        }
    }
    *mask_out = greedy_discard(hand, n, trump, partner && plays == 3);
}

/* rollout.baseline_playout without exploration: w (changed) played to the deal's
 * end, its next plays plays by the baseline's choices, the rest by the greedy
 * policy; a molodka on offer is declared at the start of a trick (one not declared
 * by the time cards are on the table stays undeclared). */
static void baseline_playout(world_t *w, const int *stock, int stock_at, int plays, int sighted) {
    while (w->hands[w->turn] || w->plays) {
        if (w->molodka_seat >= 0 && !w->molodka_done && !w->plays) {
            full_step(w, stock, &stock_at, w->molodka_seat, MOLODKA, 0);
            continue;
        }
        int seat = w->turn, kind;
        mask_t m;
        if (plays > 0) {
            baseline_move(w, seat, &kind, &m);
            plays--;
        } else {
            greedy_move(w, sighted, &kind, &m);
        }
        full_step(w, stock, &stock_at, seat, kind, m);
    }
}

static PyObject *played_result(const world_t *w) {
    return Py_BuildValue("(iLL)", points_in(w->piles[0]), w->tricks[0], w->tricks[1]);
}

static int read_mask(PyObject *value, mask_t *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(value);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = (mask_t)v;
    return 0;
}

static int read_int_attr(PyObject *obj, PyObject *name, long *out) {
    PyObject *value = PyObject_GetAttr(obj, name);
    if (!value) return -1;
    *out = PyLong_AsLong(value);
    Py_DECREF(value);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int read_mask_attr(PyObject *obj, PyObject *name, mask_t *out) {
    PyObject *value = PyObject_GetAttr(obj, name);
    if (!value) return -1;
    int failed = read_mask(value, out);
    Py_DECREF(value);
    return failed;
}

/* A list attribute of masks into out (at most limit). Returns the count or -1. */
static int read_masks(PyObject *obj, PyObject *name, mask_t *out, int limit) {
    PyObject *value = PyObject_GetAttr(obj, name);
    if (!value) return -1;
    if (!PyList_Check(value) || PyList_GET_SIZE(value) > limit) {
        Py_DECREF(value);
        PyErr_SetString(PyExc_ValueError, "a world's list is malformed");
        return -1;
    }
    int count = (int)PyList_GET_SIZE(value);
    for (int i = 0; i < count; i++) {
        if (read_mask(PyList_GET_ITEM(value, i), &out[i]) < 0) {
            Py_DECREF(value);
            return -1;
        }
    }
    Py_DECREF(value);
    return count;
}

/* A trick's plays, (seat, kind, mask) tuples, into the arrays (at most limit).
 * Returns the count or -1. */
static int read_plays(PyObject *plays, int limit, int *seats, int *kinds, mask_t *masks) {
    PyObject *fast = PySequence_Fast(plays, "plays: (seat, kind, mask) tuples");
    if (!fast) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if (count > limit) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "a trick holds at most %d plays here", limit);
        return -1;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        long seat, kind;
        unsigned long long m;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, k), "llK", &seat, &kind, &m)) {
            Py_DECREF(fast);
            return -1;
        }
        seats[k] = (int)(seat & 3);
        kinds[k] = (int)kind;
        masks[k] = (mask_t)m;
    }
    Py_DECREF(fast);
    return (int)count;
}

/* A world's plays: at most three before a turn. */
static int read_plays_attr(PyObject *world, int *seats, int *kinds, mask_t *masks) {
    PyObject *plays = PyObject_GetAttr(world, s_plays);
    if (!plays) return -1;
    int count = read_plays(plays, 3, seats, kinds, masks);
    Py_DECREF(plays);
    return count;
}

/* What baseline_move needs to be safe on: the chooser's hand and the winning set
 * of at most four cards, a lead size of at most four, a card index in range. */
static int check_position(const world_t *w, int seat) {
    if (w->trump < 0 || w->trump > 3 || w->trump_card < 0 || w->trump_card >= DECK) {
        PyErr_SetString(PyExc_ValueError, "trump or trump card out of range");
        return -1;
    }
    if (popcount(w->hands[seat]) > HAND || popcount(w->win_mask) > HAND || w->n < 0 ||
        w->n > HAND) {
        PyErr_SetString(PyExc_ValueError, "hands and sets hold at most four cards");
        return -1;
    }
    return 0;
}

/* A World into w and its stock (top first) into stock, when given; without, the
 * stock must be empty (ValueError otherwise, as solve_model). */
static int read_full_world(PyObject *world, world_t *w, int *stock) {
    long value;
    mask_t masks[DECK];
    int count = read_masks(world, s_stock, masks, DECK);
    if (count < 0) return -1;
    if (count > 0 && !stock) {
        PyErr_SetString(PyExc_ValueError, "the stock is not empty");
        return -1;
    }
    for (int i = 0; i < count; i++) {
        if (masks[i] >= DECK) {
            PyErr_SetString(PyExc_ValueError, "a stock card out of range");
            return -1;
        }
        stock[i] = (int)masks[i];
    }
    w->stock_size = count;
    if (read_int_attr(world, s_trump, &value) < 0) return -1;
    w->trump = (int)value;
    if (read_int_attr(world, s_trump_card, &value) < 0) return -1;
    w->trump_card = (int)value;
    if (read_int_attr(world, s_trump_holder, &value) < 0) return -1;
    w->trump_holder = (int)value;
    if (read_masks(world, s_hands, w->hands, 4) != 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a world has four hands");
        return -1;
    }
    if (read_masks(world, s_piles, w->piles, 2) != 2) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a world has two piles");
        return -1;
    }
    if (read_masks(world, s_tricks, masks, 2) != 2) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a world has two trick counts");
        return -1;
    }
    w->tricks[0] = (long long)masks[0];
    w->tricks[1] = (long long)masks[1];
    if (read_int_attr(world, s_turn, &value) < 0) return -1;
    w->turn = (int)(value & 3);
    if (read_int_attr(world, s_n, &value) < 0) return -1;
    w->n = (int)value;
    if (read_int_attr(world, s_win_seat, &value) < 0) return -1;
    w->win_seat = (int)value;
    if (read_mask_attr(world, s_win_mask, &w->win_mask) < 0) return -1;
    if (read_mask_attr(world, s_gone, &w->gone) < 0) return -1;
    w->plays = read_plays_attr(world, w->play_seat, w->play_kind, w->play_mask);
    if (w->plays < 0) return -1;
    if (read_int_attr(world, s_molodka_seat, &value) < 0) return -1;
    if (value > 3) {
        PyErr_SetString(PyExc_ValueError, "molodka seat out of range");
        return -1;
    }
    w->molodka_seat = value < 0 ? -1 : (int)value;
    PyObject *done = PyObject_GetAttr(world, s_molodka_done);
    if (!done) return -1;
    w->molodka_done = PyObject_IsTrue(done);
    Py_DECREF(done);
    if (w->molodka_done < 0) return -1;
    for (int seat = 0; seat < 4; seat++)
        if (check_position(w, seat) < 0) return -1;
    return 0;
}

static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *world;
    int sighted;
    if (!PyArg_ParseTuple(args, "Op", &world, &sighted)) return NULL;
    if (!baseline_ready || !ready) {
        PyErr_SetString(PyExc_RuntimeError, "init() and init_baseline() first");
        return NULL;
    }
    world_t w;
    int stock[DECK];
    if (read_full_world(world, &w, stock) < 0) return NULL;
    baseline_playout(&w, stock, 0, 0, sighted);
    return played_result(&w);
}

static PyObject *py_baseline_move(PyObject *self, PyObject *args) {
    PyObject *hands, *plays;
    world_t w = {0};
    int seat;
    unsigned long long win_mask, gone;
    if (!PyArg_ParseTuple(args, "OiOiiKiiiiK", &hands, &seat, &plays, &w.n, &w.win_seat,
                          &win_mask, &w.trump, &w.trump_card, &w.trump_holder, &w.stock_size,
                          &gone))
        return NULL;
    if (!baseline_ready || !ready) {
        PyErr_SetString(PyExc_RuntimeError, "init() and init_baseline() first");
        return NULL;
    }
    if (seat < 0 || seat > 3) {
        PyErr_SetString(PyExc_ValueError, "seat out of range");
        return NULL;
    }
    w.win_mask = (mask_t)win_mask;
    w.gone = (mask_t)gone;
    PyObject *fast = PySequence_Fast(hands, "four hands");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != 4) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "four hands");
        return NULL;
    }
    for (int i = 0; i < 4; i++) {
        if (read_mask(PySequence_Fast_GET_ITEM(fast, i), &w.hands[i]) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    w.plays = read_plays(plays, 4, w.play_seat, w.play_kind, w.play_mask);
    if (w.plays < 0 || check_position(&w, seat) < 0) return NULL;
    int kind;
    mask_t m;
    baseline_move(&w, seat, &kind, &m);
    return Py_BuildValue("(iK)", kind, (unsigned long long)m);
}

static PyObject *py_solve_model(PyObject *self, PyObject *args) {
    PyObject *world;
    model_t model = {0, 0, 0, 0, 0.0, 0.0, 0.0};
    if (!PyArg_ParseTuple(args, "OidL|dd", &world, &model.team, &model.weight, &model.budget,
                          &model.win, &model.smooth))
        return NULL;
    if (!baseline_ready || !ready) {
        PyErr_SetString(PyExc_RuntimeError, "init() and init_baseline() first");
        return NULL;
    }
    world_t w;
    if (read_full_world(world, &w, NULL) < 0) return NULL;
    double value = model_value(&model, &w);
    if (model.over) Py_RETURN_NONE;
    return PyFloat_FromDouble(value);
}

static PyObject *py_values(PyObject *self, PyObject *args) {
    PyObject *world, *moves;
    int seat, sighted, plays = 0;
    if (!PyArg_ParseTuple(args, "OiOp|i", &world, &seat, &moves, &sighted, &plays)) return NULL;
    if (!baseline_ready || !ready) {
        PyErr_SetString(PyExc_RuntimeError, "init() and init_baseline() first");
        return NULL;
    }
    if (seat < 0 || seat > 3) {
        PyErr_SetString(PyExc_ValueError, "seat out of range");
        return NULL;
    }
    world_t start;
    int stock[DECK];
    if (read_full_world(world, &start, stock) < 0) return NULL;
    PyObject *fast = PySequence_Fast(moves, "moves: (kind, mask) pairs");
    if (!fast) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    PyObject *result = PyList_New(count);
    if (!result) {
        Py_DECREF(fast);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        int kind;
        unsigned long long m;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iK", &kind, &m)) {
            Py_DECREF(fast);
            Py_DECREF(result);
            return NULL;
        }
        world_t w = start;
        int stock_at = 0;
        if (kind < 0) {
            w.molodka_seat = -1;
            w.molodka_done = 1;
        } else {
            full_step(&w, stock, &stock_at, seat, kind, (mask_t)m);
        }
        baseline_playout(&w, stock, stock_at, plays, sighted);
        PyObject *item = played_result(&w);
        if (!item) {
            Py_DECREF(fast);
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, item);
    }
    Py_DECREF(fast);
    return result;
}

static int read_table(PyObject *rows, int is_float, void *out) {
    PyObject *outer = PySequence_Fast(rows, "a table of four rows");
    if (!outer) return -1;
    if (PySequence_Fast_GET_SIZE(outer) != 4) {
        Py_DECREF(outer);
        PyErr_SetString(PyExc_ValueError, "a table of four rows");
        return -1;
    }
    for (int t = 0; t < 4; t++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(outer, t), "a row of 36");
        if (!row || PySequence_Fast_GET_SIZE(row) != DECK) {
            Py_XDECREF(row);
            Py_DECREF(outer);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a row of 36");
            return -1;
        }
        for (int i = 0; i < DECK; i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(row, i);
            if (is_float) {
                double v = PyFloat_AsDouble(item);
                ((double(*)[DECK])out)[t][i] = v;
            } else {
                mask_t v;
                if (read_mask(item, &v) == 0) ((mask_t(*)[DECK])out)[t][i] = v;
            }
            if (PyErr_Occurred()) {
                Py_DECREF(row);
                Py_DECREF(outer);
                return -1;
            }
        }
        Py_DECREF(row);
    }
    Py_DECREF(outer);
    return 0;
}

static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *beaters, *keep, *points;
    double factor;
    if (!PyArg_ParseTuple(args, "OOOd", &beaters, &keep, &points, &factor)) return NULL;
    if (read_table(beaters, 0, BEATERS) < 0 || read_table(keep, 1, KEEP) < 0) return NULL;
    PyObject *row = PySequence_Fast(points, "36 card points");
    if (!row) return NULL;
    if (PySequence_Fast_GET_SIZE(row) != DECK) {
        Py_DECREF(row);
        PyErr_SetString(PyExc_ValueError, "36 card points");
        return NULL;
    }
    for (int i = 0; i < DECK; i++) {
        POINTS[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(row, i));
    }
    Py_DECREF(row);
    if (PyErr_Occurred()) return NULL;
    BEAT_FACTOR = factor;
    ready = 1;
    Py_RETURN_NONE;
}

static PyObject *py_init_baseline(PyObject *self, PyObject *args) {
    PyObject *spent;
    double load, dump, will, overtake;
    if (!PyArg_ParseTuple(args, "Odddd", &spent, &load, &dump, &will, &overtake)) return NULL;
    if (read_table(spent, 1, SPENT) < 0) return NULL;
    LOAD = load;
    DUMP = dump;
    WILL = will;
    OVERTAKE = overtake;
    baseline_ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS,
     "init(beaters, keep, points, beat_factor): the tables of core.yard.rules and core.yard.ai.rollout."},
    {"playout", py_playout, METH_VARARGS,
     "playout(world, sighted) -> (points_a, tricks_a, tricks_b): rollout.playout without "
     "exploration; the world is not changed."},
    {"values", py_values, METH_VARARGS,
     "values(world, seat, moves, sighted, plays=0) -> [(points_a, tricks_a, tricks_b)]: each "
     "(kind, mask) move of seat played in the world (kind -1: the molodka on offer is "
     "passed), then rollout.baseline_playout(world, plays) without exploration (plays 0: "
     "rollout.playout)."},
    {"init_baseline", py_init_baseline, METH_VARARGS,
     "init_baseline(spent, load, dump, will, overtake): the baseline's weights "
     "(core.yard.ai.policy.SPENT and core.yard.ai.baseline.DEFAULT_WEIGHTS)."},
    {"baseline_move", py_baseline_move, METH_VARARGS,
     "baseline_move(hands, seat, plays, n, win_seat, win_mask, trump, trump_card, "
     "trump_holder, stock_size, gone) -> (kind, mask): core.yard.ai.policy.baseline_move."},
    {"solve_model", py_solve_model, METH_VARARGS,
     "solve_model(world, team, weight, budget, win=0.0, smooth=0.0) -> float | None: "
     "core.yard.ai.endgame.solve_model on a stock-empty world (not changed)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_playout",
    "The greedy playout of core.yard.ai.rollout and the endgame of core.yard.ai.endgame in C.", -1,
    methods};

PyMODINIT_FUNC PyInit__playout(void) {
#define INTERN(var, text) \
    if (!(var = PyUnicode_InternFromString(text))) return NULL;
    INTERN(s_trump, "trump");
    INTERN(s_hands, "hands");
    INTERN(s_stock, "stock");
    INTERN(s_piles, "piles");
    INTERN(s_tricks, "tricks");
    INTERN(s_turn, "turn");
    INTERN(s_plays, "plays");
    INTERN(s_n, "n");
    INTERN(s_win_seat, "win_seat");
    INTERN(s_win_mask, "win_mask");
    INTERN(s_molodka_seat, "molodka_seat");
    INTERN(s_molodka_done, "molodka_done");
    INTERN(s_trump_card, "trump_card");
    INTERN(s_trump_holder, "trump_holder");
    INTERN(s_gone, "gone");
#undef INTERN
    for (int n = 0; n <= DECK; n++) {
        CHOOSE[n][0] = 1;
        for (int k = 1; k <= n; k++) CHOOSE[n][k] = CHOOSE[n - 1][k - 1] + CHOOSE[n - 1][k];
    }
    return PyModule_Create(&module);
}
