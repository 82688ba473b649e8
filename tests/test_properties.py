"""Properties that hold for every hand (hypothesis): suits are symmetric, card order
does not matter, and one more card never lowers a best-of-n high or low."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import evaluate_high, evaluate_low
from analyzer.cards import cards_mask

hands = st.lists(st.integers(0, 51), min_size=5, max_size=9, unique=True)
suit_perms = st.permutations([0, 1, 2, 3])


def relabel(cards, perm):
    return [4 * (c >> 2) + perm[c & 3] for c in cards]


@settings(max_examples=400, deadline=None)
@given(hands, suit_perms, st.randoms(use_true_random=False))
def test_suit_permutation_and_card_order_do_not_matter(cards, perm, rnd):
    shuffled = relabel(cards, perm)
    rnd.shuffle(shuffled)
    assert evaluate_high(shuffled) == evaluate_high(cards)
    assert evaluate_low(shuffled) == evaluate_low(cards)
    assert evaluate_low(shuffled, qualifier=8) == evaluate_low(cards, qualifier=8)


@settings(max_examples=400, deadline=None)
@given(hands, st.integers(0, 51))
def test_adding_a_card_never_lowers_high_or_low(cards, extra):
    if extra in cards:
        return
    more = cards + [extra]
    assert evaluate_high(more) >= evaluate_high(cards)
    assert evaluate_low(more) >= evaluate_low(cards)
    assert evaluate_low(more, qualifier=8) >= evaluate_low(cards, qualifier=8)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=6, max_size=8, unique=True), st.integers(1, 2), suit_perms)
def test_wild_hands_are_suit_symmetric_and_monotone(cards, w, perm):
    wild = cards[:w]
    high = evaluate_high(cards, wild=wild)
    assert evaluate_high(relabel(cards, perm), wild=relabel(wild, perm)) == high
    assert evaluate_high(cards[:-1], wild=wild) <= high
    assert evaluate_low(cards[:-1], wild=wild) <= evaluate_low(cards, wild=wild)


def test_batch_equals_single_hands_and_both_paths_agree():
    rng = np.random.default_rng(5)
    for k in (5, 6, 7):
        batch = rng.random((300, 52)).argpartition(k, axis=1)[:, :k].astype(np.uint8)
        highs = evaluate_high(batch)
        lows = evaluate_low(batch)
        assert highs.dtype == np.int32 and highs.shape == (300,)
        assert [evaluate_high(list(r)) for r in batch[:50]] == highs[:50].tolist()
        # A padded copy goes through the mask path; it must give the same numbers.
        padded = np.concatenate([batch, np.full((300, 2), 255, np.uint8)], axis=1)
        assert (evaluate_high(padded) == highs).all()
        assert (evaluate_low(padded) == lows).all()


def _mask(cards):
    return np.uint64(cards_mask(cards))


@settings(max_examples=600, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=10, unique=True), st.integers(0, 3),
       st.sampled_from([0.0, 1.0, 0.37, 2.5]))
def test_the_policies_hand_value_is_the_mask_evaluators(cards, wilds, draw_weight):
    """``policies.high_value`` takes up to seven natural cards through their key
    (``plain_high``); it must be, to the last bit, the value the mask evaluator
    gives, which every policy decision was defined on."""
    from analyzer.evaluate import _tables
    from kernels.evaluate import high_mask
    from kernels.policies import draw_bonus, high_value, strength_value

    t = _tables()
    natural = _mask(cards)
    want = strength_value(high_mask(t, natural, wilds, 0, False)) + draw_weight * draw_bonus(natural, wilds)
    assert high_value(t, natural, wilds, draw_weight) == want


def test_a_strengths_value_is_its_slot_plus_its_top_two_ranks_as_fractions():
    """``strength_value`` reads the strength's bits from 12 up as one number; it must
    be, to the last bit, slot + first rank / 16 + second rank / 256 added part by
    part (the definition), for every strength of every high table and of the
    five-of-a-kind and natural-royal strengths the mask evaluators make."""
    from analyzer.evaluate import _tables
    from kernels.evaluate import FLUSH_SIZE, N_SLOTS, T_FLUSH, T_HIGH, T_HIGH_WILD, T_SEVEN_HIGH, T_SEVEN_LOW
    from kernels.policies import strength_value
    from kernels.ranking import CAT_SHIFT, FIVE_KIND_ABOVE_SF, FIVE_KIND_BELOW_SF, NATURAL_ROYAL, pack

    t = _tables().astype(np.int64)
    strengths = np.unique(np.concatenate([
        t[T_FLUSH:T_FLUSH + FLUSH_SIZE], t[T_HIGH:T_HIGH + N_SLOTS], t[T_HIGH_WILD:T_HIGH_WILD + N_SLOTS],
        t[T_SEVEN_HIGH:T_SEVEN_LOW],
        [pack(slot, r, r, r, r, r) for slot in (FIVE_KIND_BELOW_SF, FIVE_KIND_ABOVE_SF) for r in range(1, 14)],
        [pack(NATURAL_ROYAL, 13, 12, 11, 10, 9)]]))
    assert len(strengths) > 7000
    for s in strengths.tolist():
        assert strength_value(s) == (s >> CAT_SHIFT) + ((s >> 16) & 0xF) / 16.0 + ((s >> 12) & 0xF) / 256.0, s


@settings(max_examples=600, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=1, max_size=10, unique=True), st.integers(0, 3),
       st.sampled_from([0.0, 1.0, 0.37, 2.5]), st.integers(1, 14), st.booleans())
def test_the_policies_card_gains_are_the_two_values_difference(cards, wilds, draw_weight, low_max, held):
    """``high_gain`` adds the card's key to the hand's; ``low_gain`` answers 0 for a
    card whose rank is held or above ``low_max``; ``low_card_count`` is one
    popcount. Every offer and pay decision reads them, so each must be the
    definition's value to the last bit: the difference of two ``high_value`` /
    ``low_value`` calls, and the count of low ranks walked one by one (hands of
    0-9 cards with 0-3 wilds, the card in the hand or not)."""
    from analyzer.evaluate import _tables
    from kernels.policies import high_gain, high_value, low_card_count, low_gain, low_value

    t = _tables()
    hand = cards[1:] + (cards[:1] if held else [])
    natural, b = _mask(hand), _mask(cards[:1])
    assert high_gain(t, natural, wilds, b, draw_weight) == \
        high_value(t, natural | b, wilds, draw_weight) - high_value(t, natural, wilds, draw_weight)
    assert low_gain(natural, wilds, b, low_max) == \
        low_value(natural | b, wilds, low_max) - low_value(natural, wilds, low_max)
    ranks = {c >> 2 for c in hand}
    for limit in (low_max, -1, 0, low_max + 6, 40):  # and limits no policy sets, counted the same way
        assert low_card_count(natural, limit) == sum(1 for v in range(1, limit + 1)
                                                     if (12 if v == 1 else v - 2) in ranks)


def test_an_offer_decision_is_its_score_against_the_threshold():
    """``wants_card`` takes the card when my gain, plus ``DENY_WEIGHT`` times the next
    player's public gain when they would be forced to take it, reaches the
    threshold. It may skip the next player's gain once my own reaches the threshold
    (that gain is never negative); the decision must be the full score's. Random
    hands, aims and weights (a negative deny weight too, which the kernel allows
    though the parameter's range does not), with thresholds at my gain, just above
    it and at fixed values, so that the next player's gain often decides."""
    from analyzer.evaluate import _tables
    from kernels.policies import (
        AIM, DENY_WEIGHT, DRAW_WEIGHT, LOW_MAX, N_OFFER_PARAMS, TAKE_THRESHOLD, aim_of, gain, public_gain, wants_card,
    )

    t, rng = _tables(), np.random.default_rng(7)
    policy = np.zeros(N_OFFER_PARAMS)
    decided_by_the_next_player = 0
    for _ in range(3000):
        cards = rng.permutation(52)[:int(rng.integers(2, 12))].tolist()
        k = int(rng.integers(0, len(cards)))
        card, mine, visible = cards[0], _mask(cards[1:1 + k]), _mask(cards[1 + k:])
        wilds, next_wilds, forced = int(rng.integers(0, 3)), int(rng.integers(0, 2)), bool(rng.integers(0, 2))
        policy[AIM], policy[LOW_MAX] = rng.integers(0, 3), rng.integers(5, 14)
        policy[DRAW_WEIGHT], policy[DENY_WEIGHT] = rng.choice([0.0, 1.0, 0.37]), rng.choice([0.0, 0.5, 2.0, -0.5])
        b = _mask([card])
        mine_gain = gain(t, policy, mine, wilds, b, aim_of(policy, mine))
        theirs = public_gain(t, policy, visible, next_wilds, b)
        assert theirs >= 0.0
        for threshold in (mine_gain, mine_gain + 1e-9, mine_gain + 0.01, mine_gain + 0.3, 0.1, -0.5):
            policy[TAKE_THRESHOLD] = threshold
            score = mine_gain + (policy[DENY_WEIGHT] * theirs if forced and policy[DENY_WEIGHT] != 0.0 else 0.0)
            want = score >= threshold
            decided_by_the_next_player += want != (mine_gain >= threshold)
            assert wants_card(t, policy, mine, wilds, card, visible, next_wilds, forced) == want
    assert decided_by_the_next_player > 100


def test_the_best_of_several_cards_is_the_first_largest_gain_card_by_card():
    """``best_gain`` (Do Ya's choice among the rejects on the table) works out my
    hand's own parts once for all the cards; it must give ``gain`` card by card: the
    index of the first largest gain and that gain, the same float. Random hands of
    0-5 natural cards with 0-2 wilds, aims high and low, 1-6 cards, some of them held
    (the fallback), draw weights 0, 1 and 0.37; a third of the hands from cards of
    two suits and few ranks, so that ties and flushes come up."""
    from analyzer.evaluate import _tables
    from kernels.policies import DRAW_WEIGHT, LOW_MAX, N_OFFER_PARAMS, best_gain, gain

    t, rng = _tables(), np.random.default_rng(17)
    policy = np.zeros(N_OFFER_PARAMS)
    narrow = np.array([4 * r + s for r in (0, 1, 2, 3, 8, 12) for s in (0, 1)])
    ties = 0
    for i in range(4000):
        deck = narrow if i % 3 == 0 else np.arange(52)
        cards = rng.permutation(deck)[:int(rng.integers(1, 12))].tolist()
        n_hand = int(rng.integers(0, min(5, len(cards) - 1) + 1))
        hand, offered = cards[:n_hand], cards[n_hand:][:6]
        if hand and rng.integers(0, 10) == 0:
            offered[int(rng.integers(0, len(offered)))] = hand[0]
        natural, w, aim = _mask(hand), int(rng.choice([1, 1, 1, 0, 2])), int(rng.integers(0, 2))
        policy[LOW_MAX], policy[DRAW_WEIGHT] = rng.integers(5, 14), rng.choice([0.0, 1.0, 0.37])
        codes = np.array([0] + offered, dtype=np.int64)
        gains = [gain(t, policy, natural, w, _mask([c]), aim) for c in offered]
        index, most = best_gain(t, policy, natural, w, codes, 1, len(offered), aim)
        assert (index, most) == (gains.index(max(gains)), max(gains)), (hand, offered, w, aim)
        ties += gains.count(max(gains)) > 1
    assert ties > 100


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_popcount_counts_the_set_bits(m):
    """``popcount`` is LLVM's ``ctpop`` (an intrinsic): the number of ones in the
    word's binary digits, for any 64-bit pattern."""
    from kernels.ranking import popcount

    assert popcount(np.uint64(m)) == bin(m).count("1")
    assert popcount(np.int64(m - 2**64 if m >= 2**63 else m)) == bin(m).count("1")


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 2**64 - 1))
def test_nth_bit_is_the_kth_lowest_set_bit(m):
    """``nth_bit(m, k)`` is the ``k``-th lowest one of ``m`` as a mask bit, for every
    ``k`` below its bit count: the portable search, and ``pdep`` where this machine's
    numba compiles it (``nth_bit`` is one of the two)."""
    from kernels.ranking import HAS_PDEP, nth_bit, nth_bit_pdep, nth_bit_search

    ways = [nth_bit_search] + ([nth_bit_pdep] if HAS_PDEP else [])
    assert nth_bit in ways
    ones = [i for i in range(64) if m >> i & 1]
    for k, i in enumerate(ones):
        for way in ways:
            assert int(way(np.uint64(m), k)) == 1 << i


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=7, unique=True))
def test_a_mask_s_key_is_the_sum_of_its_cards_keys(cards):
    """``mask_key`` and ``rank_key`` sum a mask's keys a suit at a time from a
    table of rank sets; they must be the hand key's definition: the initial key
    plus each card's key (``tables.card_keys``), summed card by card modulo 2**64,
    and the sum of the cards' rank multipliers."""
    from analyzer.evaluate import _tables
    from kernels.evaluate import mask_key, rank_key
    from kernels.tables import INITIAL_KEY, RANK_MULTIPLIERS, card_keys

    keys = card_keys()
    want = (int(INITIAL_KEY) + sum(int(keys[c]) for c in cards)) % 2**64
    assert int(mask_key(_tables(), _mask(cards))) == want
    assert int(rank_key(_tables(), _mask(cards))) == sum(int(RANK_MULTIPLIERS[c >> 2]) for c in cards)


def test_the_draw_bonus_of_every_longest_suit_and_run_is_its_definition():
    """``_draw_bonus_from`` reads its float from a table of longest suits and runs
    (``DRAW_BONUSES``), and works it out beyond the table: both must be the
    definition's float, a tenth for each card of the longest suit beyond two and
    0.08 for each rank of the run beyond two, wild cards counted in both, for every
    count a hand can have and beyond the table's edges."""
    from kernels.policies import _draw_bonus_from

    for suit in range(26):
        for run in range(6):
            for wilds in range(13):
                want = 0.1 * max(0, suit + wilds - 2) + 0.08 * max(0, run + wilds - 2)
                assert _draw_bonus_from(suit, run, wilds) == want, (suit, run, wilds)


@settings(max_examples=800, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=10, unique=True), st.integers(0, 3))
def test_the_draw_bonus_is_its_definition(cards, wilds):
    """``draw_bonus`` reads the straight-draw count from a table of rank sets; it
    must be its definition: a tenth for each card of the longest suit beyond two,
    and 0.08 for each rank beyond two held in the best five consecutive ranks (the
    ace high or low), wilds counted in both."""
    from kernels.policies import draw_bonus

    suits = [sum(1 for c in cards if c & 3 == s) for s in range(4)]
    values = {(c >> 2) + 2 for c in cards} | ({1} if any(c >> 2 == 12 for c in cards) else set())
    run = max(len(values & set(range(low, low + 5))) for low in range(1, 11))
    want = 0.1 * max(0, max(suits) + wilds - 2) + 0.08 * max(0, run + wilds - 2)
    assert draw_bonus(_mask(cards), wilds) == want


@settings(max_examples=800, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=10, unique=True), st.integers(0, 3), st.integers(0, 14))
def test_the_low_estimate_is_its_definition(cards, wilds, low_max):
    """``low_value`` reads natural cards' value from a table built at import; it
    must be, to the last bit, its definition walked value by value: the different
    low values (ace 1, 2 .. king 13; a ``low_max`` of 14 reads the ace again) no
    higher than ``low_max``, a wild standing in for each one missing, five at
    most, plus a tenth of the sum of ``(14 - v) / 70`` over those counted."""
    from kernels.policies import low_value

    ranks = {c >> 2 for c in cards}
    count, tiebreak, left = 0, 0.0, wilds
    for v in range(1, low_max + 1):
        held = (12 if v == 1 else v - 2) in ranks
        if held or left > 0:
            left -= 0 if held else 1
            count += 1
            tiebreak += (14 - v) / 70.0
            if count == 5:
                break
    assert low_value(_mask(cards), wilds, low_max) == count + 0.1 * tiebreak


def _greedy_packet(t, policy, hand, count, aim, howdy, spite_of):
    """Anaconda's pass by its definition, card by card: give away the card whose loss
    leaves the best ``aim_value``, less ``spite_of(bit)``, the first in mask order on
    a tie."""
    from kernels.pass_policies import aim_value

    chosen = np.uint64(0)
    for _ in range(count):
        best, best_score = np.uint64(0), -np.inf
        for bit in range(64):
            b = np.uint64(1 << bit)
            if hand & ~chosen & b:
                score = aim_value(t, policy, hand & ~chosen & ~b, aim, howdy) - spite_of(bit)
                if score > best_score:
                    best, best_score = b, score
        chosen |= best
    return chosen


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True), st.integers(1, 3), st.integers(0, 2),
       st.sampled_from([0.0, 1.0, 0.37]), st.sampled_from([0.0, 0.3, 2.0]), st.integers(0, 6), st.booleans(),
       st.sampled_from([5, 8, 13]))
def test_anaconda_s_pass_choice_is_its_greedy_definition(cards, count, aim, draw_weight, spite, n_evidence, howdy,
                                                         low_max):
    """``choose_pass`` had no test of its own: its choice must be the definition's,
    card by card: give away the card whose loss leaves the best ``aim_value``, less
    ``SPITE_WEIGHT`` for a card the recipient seems to collect, the first in mask
    order on a tie (the guard for any faster form of it: aiming low, the first card
    whose loss costs nothing is taken without trying the others)."""
    from analyzer.evaluate import _tables
    from kernels.pass_policies import (
        AIM, DRAW_WEIGHT, LOW_MAX, N_PASS_PARAMS, SPITE_WEIGHT, choose_pass, collects_low, pass_aim,
    )

    t = _tables()
    policy = np.zeros(N_PASS_PARAMS)
    policy[AIM], policy[DRAW_WEIGHT], policy[SPITE_WEIGHT], policy[LOW_MAX] = aim, draw_weight, spite, low_max
    hand = _mask(cards)
    evidence = _mask([c for c in range(52) if c not in cards][:n_evidence * 7:7])
    got = choose_pass(t, policy, hand, count, evidence, np.zeros(2, np.uint64), howdy)

    they_go_low = bool(evidence) and collects_low(evidence, low_max)

    def spite_of(bit):
        rank = bit & 15
        low_value = 1 if rank == 12 else rank + 2  # the ace is 1
        return spite if spite and evidence and (low_value <= low_max if they_go_low else rank >= 8) else 0.0

    assert got == _greedy_packet(t, policy, hand, count, pass_aim(policy, hand), howdy, spite_of)


def test_anaconda_s_high_pass_without_spite_is_its_greedy_definition():
    """The pass aiming high without wild cards or spite (the default field's, a loop
    of its own on scores 256 times the values) against its definition, card by
    card, on 1,500 random hands at three draw weights, where the property test
    above reaches that loop in a few dozen of its examples: give away the card
    whose loss leaves the best ``aim_value``, the first in mask order on a tie."""
    from analyzer.evaluate import _tables
    from kernels.pass_policies import AIM, AIM_HIGH, DRAW_WEIGHT, N_PASS_PARAMS, choose_pass

    t = _tables()
    rng = np.random.default_rng(20261207)
    stream = np.zeros(2, np.uint64)
    for i in range(1500):
        policy = np.zeros(N_PASS_PARAMS)
        policy[AIM], policy[DRAW_WEIGHT] = AIM_HIGH, (0.37, 1.0, 2.5)[i % 3]
        hand = _mask(rng.choice(52, 7, replace=False).tolist())
        count = 1 + i % 3
        got = choose_pass(t, policy, hand, count, np.uint64(0), stream, False)
        assert got == _greedy_packet(t, policy, hand, count, AIM_HIGH, False, lambda bit: 0.0), (
            hex(hand), count, policy[DRAW_WEIGHT])


@settings(max_examples=500, deadline=None)
@given(st.integers(5, 13), st.lists(st.lists(st.integers(0, 51), min_size=0, max_size=5, unique=True),
                                    min_size=0, max_size=7))
def test_the_declaration_fears_an_opponent_showing_four_lower_low_cards(top, ups):
    """``declare`` with ``FEAR_VISIBLE_LOW`` gives up an unpaired low topped by
    ``top`` when some opponent shows four different low values (ace 1, 2 ..
    king 13) below ``top``, and only then (the count is one popcount)."""
    from kernels.policies import (
        DECLARE_BOTH_CATEGORY, DECLARE_LOW_TOP, FEAR_VISIBLE_LOW, N_OFFER_PARAMS, declare,
    )
    from kernels.ranking import CAT_SHIFT, LOW_NO_PAIR
    from kernels.showdown import DECLARE_HIGH, DECLARE_LOW

    policy = np.zeros(N_OFFER_PARAMS)
    policy[DECLARE_LOW_TOP], policy[FEAR_VISIBLE_LOW], policy[DECLARE_BOTH_CATEGORY] = 14, 1, 99
    low = (LOW_NO_PAIR << CAT_SHIFT) | ((14 - top) << 16) | (13 << 12)  # an unpaired low topped by ``top``
    opponents = np.array([_mask(up) for up in ups] + [np.uint64(0)], dtype=np.uint64)
    feared = any(len({1 if c >> 2 == 12 else (c >> 2) + 2 for c in up} & set(range(1, top))) >= 4 for up in ups)
    got = declare(policy, 1 << CAT_SHIFT, low, opponents, (1 << len(ups)) - 1, np.zeros(8, np.int64), 0, False)
    assert got == (DECLARE_HIGH if feared else DECLARE_LOW)


def test_the_high_gain_of_a_natural_hand_from_the_short_table_is_the_two_values_difference():
    """``high_gain`` of a natural hand of up to five cards reads both hands in the
    short table, and the hand with the card from the flush table when it holds five
    of a suit: the same float as the two ``high_value`` calls' difference, for every
    card not held of 3,000 random hands of 0 to 5 cards, half of them from two suits
    (flushes with the card and before it, straights, pairs to quads), at draw weights
    0, 0.37 and 2."""
    from analyzer.evaluate import _tables
    from kernels.policies import high_gain, high_value

    t = _tables()
    rng = np.random.default_rng(12)
    checked = 0
    for i in range(3000):
        deck = rng.permutation(52) if i % 2 else rng.permutation(26) * 2 + (i // 2) % 2  # two suits
        natural = _mask(deck[:rng.integers(0, 6)])
        draw_weight = (0.0, 0.37, 2.0)[i % 3]
        for bit in range(64):
            b = np.uint64(1 << bit)
            if bit & 15 < 13 and not natural & b:
                assert high_gain(t, natural, 0, b, draw_weight) == \
                    high_value(t, natural | b, 0, draw_weight) - high_value(t, natural, 0, draw_weight)
                checked += 1
    assert checked > 130_000


def test_a_high_value_without_a_card_from_shared_parts_is_aim_value():
    """``_plain_high_value_without`` (Anaconda's pass and hide choices aiming high
    without wild cards) values the cards less one from parts of the whole hand and
    the short table: it must be ``aim_value`` of the cards left, the same float, for
    every card of 4,000 random hands of 1 to 7 cards (pairs, trips, quads, flushes
    among them) and draw weights 0, 0.37 and 2."""
    from analyzer.evaluate import _tables
    from kernels.evaluate import mask_key
    from kernels.pass_policies import (
        AIM_HIGH, DRAW_WEIGHT, N_PASS_PARAMS, _longest_less_one_by_suit, _plain_high_value_without, aim_value,
    )

    t = _tables()
    halves = t.view(np.uint16)
    rng = np.random.default_rng(11)
    policy = np.zeros(N_PASS_PARAMS)
    checked = 0
    for i in range(4000):
        deck = rng.permutation(52) if i % 2 else rng.permutation(20) * 2 + (i // 2) % 2  # half from 20 cards: repeats
        cards = _mask(deck[:rng.integers(1, 8)])
        policy[DRAW_WEIGHT] = (0.0, 0.37, 2.0)[i % 3]
        key = mask_key(t, cards)
        longest_less_one = _longest_less_one_by_suit(cards)
        for bit in range(64):
            b = np.uint64(1 << bit)
            if cards & b:
                got = _plain_high_value_without(t, halves, policy[DRAW_WEIGHT], cards, key, longest_less_one, b)
                assert got == aim_value(t, policy, cards & ~b, AIM_HIGH, False)
                checked += 1
    assert checked > 12_000


def _dealers():
    """Two loops dealing ``n`` cards of a deck (``cards[:52]``, state
    ``cards[52:55]``): by ``draw``, and by ``draw_held``; compiled once."""
    from numba import njit

    from kernels.rng import DECK_SIZE, DECK_STACKED, DECK_TOP, draw, draw_held

    @njit
    def by_draw(cards, stream, n, out):
        for i in range(n):
            out[i] = draw(cards, 0, 52, stream)

    @njit
    def held(cards, stream, n, out):
        top, size, stacked = cards[52 + DECK_TOP], cards[52 + DECK_SIZE], cards[52 + DECK_STACKED] != 0
        k, c = stream[0], stream[1]
        for i in range(n):
            out[i], top, c = draw_held(cards, 0, top, size, stacked, k, c)
        cards[52 + DECK_TOP] = top
        stream[1] = c

    return by_draw, held


_DEALERS = []
_M64 = (1 << 64) - 1


def _lazy_deal(deck, top, key, counter, stacked, n):
    """The lazy deck written out in Python integers: word ``j`` of the stream is
    SplitMix64's output function of ``key + j * golden``; a draw swaps the card at
    ``top + (word >> 32) * left >> 32`` to the top (a stacked deck deals in order).
    The cards dealt (-1 once the stock is empty), the deck and its top and counter."""
    def mix(z):
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    deck, dealt = list(deck), []
    for _ in range(n):
        if top >= 52:
            dealt.append(-1)
            continue
        if not stacked:
            counter += 1
            j = top + (((mix((key + counter * 0x9E3779B97F4A7C15) & _M64) >> 32) * (52 - top)) >> 32)
            deck[j], deck[top] = deck[top], deck[j]
        dealt.append(deck[top])
        top += 1
    return dealt, deck, top, counter


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 52), st.integers(0, 2**63 - 1), st.integers(0, 2**20), st.booleans(), st.integers(0, 60))
def test_a_deck_dealt_by_draw_or_held_in_a_loop_deals_the_lazy_shuffle_s_cards(top, key, counter, stacked, n):
    """``draw`` and ``draw_held`` (the deck's top and the stream's counter held by
    the loop) deal the cards of the lazy shuffle written out in Python, in order, down
    to an empty stock, and leave the deck, its top and the counter as it does."""
    from kernels.cards import NO_CARD
    from kernels.rng import DECK_SIZE, DECK_STACKED, DECK_TOP

    if not _DEALERS:
        _DEALERS.extend(_dealers())
    deck = np.zeros(55, np.int64)
    deck[:52] = np.random.default_rng(key % 1000).permutation(52)
    deck[52 + DECK_TOP], deck[52 + DECK_SIZE], deck[52 + DECK_STACKED] = top, 52, int(stacked)
    dealt, order, top_after, counter_after = _lazy_deal(deck[:52].tolist(), top, key, counter, stacked, n)
    for deal in _DEALERS:
        cards, stream, out = deck.copy(), np.array([key, counter], np.uint64), np.zeros(n, np.int64)
        deal(cards, stream, n, out)
        assert [-1 if c == NO_CARD else int(c) for c in out] == dealt
        assert cards[:52].tolist() == order and int(cards[52 + DECK_TOP]) == top_after
        assert int(stream[1]) == counter_after
