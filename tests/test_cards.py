"""Card text: the accepted forms, and errors that name the bad token."""

import numpy as np
import pytest

from analyzer import CardError, evaluate_high, format_cards, parse_cards, parse_ranks


def test_forms():
    expected = [51, 33, 0]  # As = 4*12+3, Td = 4*8+1, 2c = 0
    for text in ("As Td 2c", "as td 2C", "As,Td,2c", "As, 10d, 2c", "AsTd2c", " As  Td\t2c "):
        assert parse_cards(text).tolist() == expected
    assert parse_cards(["As", "Td", "2c"]).tolist() == expected
    assert parse_cards(np.array(expected, dtype=np.uint8)).tolist() == expected
    assert format_cards(parse_cards("as 10d 2c")) == "As Td 2c"


@pytest.mark.parametrize("text,token", [("As Xs", "Xs"), ("As 1c", "1c"), ("As Kz", "Kz"), ("As K", "K")])
def test_unknown_token_is_named(text, token):
    with pytest.raises(CardError, match=repr(token)):
        parse_cards(text)


def test_duplicates_are_named():
    with pytest.raises(CardError, match="duplicate card 'Td'"):
        parse_cards("As Td 2c Td")
    with pytest.raises(CardError, match="duplicate"):
        parse_cards("As 10d Td")


def test_bad_arrays():
    with pytest.raises(CardError, match="unknown card code 52"):
        parse_cards(np.array([1, 52]))
    with pytest.raises(CardError, match="duplicate card 'Kd' in hand 1"):
        evaluate_high(np.array([[0, 1, 2, 3, 4], [45, 45, 2, 3, 4]], dtype=np.uint8))
    with pytest.raises(CardError, match="unknown card code 60 in hand 0"):
        evaluate_high(np.array([[0, 1, 2, 3, 60]], dtype=np.uint8))
    with pytest.raises(CardError, match="at most 10"):
        evaluate_high(list(range(11)))
    with pytest.raises(CardError, match="no cards"):
        parse_cards("")


def test_ranks():
    assert parse_ranks("3") == [1]
    assert parse_ranks("3,K") == parse_ranks("3K") == parse_ranks(["3", "k"]) == [1, 11]
    assert parse_ranks("10") == [8]
    with pytest.raises(CardError, match="unknown rank 'Z'"):
        parse_ranks("Z")


@pytest.mark.parametrize("width", [5, 6, 7])
def test_checked_batches_flag_every_bad_row_and_evaluate_the_rest_as_the_plain_kernels(width):
    """The public evaluators read a plain array of hands once, checking each row in
    the evaluating pass (``high_batch_checked`` / ``low_batch_checked``): every row
    with a duplicate, an empty place or an unknown code is counted, every other row
    gets the plain kernel's strength, for every five-of-a-kind position and
    qualifier."""
    from analyzer.evaluate import _tables
    from kernels.evaluate import high_batch_checked, high_batch_hashed, low_batch_checked, low_batch_hashed

    t, rng = _tables(), np.random.default_rng(width)
    hands = np.argsort(rng.random((3000, 52)), axis=1)[:, :width].astype(np.uint8)
    for fk in (0, 1, 2):
        want, got = np.empty(3000, np.int32), np.empty(3000, np.int32)
        high_batch_hashed(t, hands, fk, want)
        assert high_batch_checked(t, hands, fk, got) == 0 and np.array_equal(got, want)
    for threshold in (1, 12345):
        want, got = np.empty(3000, np.int32), np.empty(3000, np.int32)
        low_batch_hashed(t, hands, threshold, want)
        assert low_batch_checked(t, hands, threshold, got) == 0 and np.array_equal(got, want)
    bad = hands.copy()
    rows = rng.choice(3000, 400, replace=False)
    for i, r in enumerate(rows):
        j = int(rng.integers(0, width))
        bad[r, j] = [bad[r, (j + 1) % width], 255, 52, 200][i % 4]  # a duplicate, empty, unknown codes
    good = np.setdiff1d(np.arange(3000), rows)
    want, got = np.empty(3000, np.int32), np.empty(3000, np.int32)
    high_batch_hashed(t, hands, 0, want)
    assert high_batch_checked(t, bad, 0, got) == 400 and np.array_equal(got[good], want[good])
    low_batch_hashed(t, hands, 1, want)
    assert low_batch_checked(t, bad, 1, got) == 400 and np.array_equal(got[good], want[good])


@pytest.mark.parametrize("width", [5, 6, 7])
def test_checked_batches_take_a_row_exactly_when_its_bytes_are_distinct_cards(width):
    """Every byte value 0..255 in every place of a row of distinct cards, and rows
    of only non-card bytes: the checked kernels count a row as bad exactly when a
    byte is 52 or more or repeats another card of the row (the rule written out in
    Python, not the kernels' bit trick)."""
    from analyzer.evaluate import _tables
    from kernels.evaluate import high_batch_checked, low_batch_checked

    t = _tables()
    base = np.array([0, 9, 22, 35, 48, 51, 17][:width], dtype=np.uint8)
    rows, want_bad = [], 0
    for place in range(width):
        for byte in range(256):
            row = base.copy()
            row[place] = byte
            rows.append(row)
            want_bad += byte >= 52 or byte in np.delete(base, place)
    for filler in (52, 255):
        rows.append(np.full(width, filler, np.uint8))
        rows.append(np.array([filler] * (width - 1) + [3], np.uint8))
        want_bad += 2
    hands = np.array(rows)
    out = np.empty(len(hands), np.int32)
    assert want_bad == width * (204 + width - 1) + 4  # 204 non-cards and width - 1 repeats per place
    assert high_batch_checked(t, hands, 0, out) == want_bad
    assert low_batch_checked(t, hands, 1, out) == want_bad


@pytest.mark.parametrize("width", [5, 6, 7])
def test_checked_batches_catch_every_mix_of_repeats_and_non_cards(width):
    """Every row of ``width`` bytes from {0, 1, 2, 3, 50, 51, 52, 255}: rows with
    two, three or more repeats, repeats of neighbouring codes and of the last
    card (51) next to non-cards. A row is bad exactly when a byte is 52 or more or
    two bytes are equal (written out with numpy: sorted rows, neighbours equal)."""
    from analyzer.evaluate import _tables
    from kernels.evaluate import high_batch_checked, low_batch_checked

    alphabet = np.array([0, 1, 2, 3, 50, 51, 52, 255], dtype=np.uint8)
    places = np.indices((len(alphabet),) * width).reshape(width, -1).T
    hands = np.ascontiguousarray(alphabet[places])
    ordered = np.sort(hands, axis=1)
    want_bad = int(np.count_nonzero((ordered[:, -1] >= 52) | np.any(ordered[:, 1:] == ordered[:, :-1], axis=1)))
    out = np.empty(len(hands), np.int32)
    assert high_batch_checked(_tables(), hands, 0, out) == want_bad
    assert low_batch_checked(_tables(), hands, 1, out) == want_bad


@pytest.mark.parametrize("width", [5, 6, 7])
def test_the_batch_kernels_agree_with_the_mask_evaluators_on_flush_rich_hands(width):
    """The batch kernels (seven cards a row have a loop of their own, the codes read
    once into locals) give the rank-set evaluators' strengths, a separate
    implementation (``high_mask`` / ``low_mask``), on hands drawn from two suits
    (flushes in every position of the row) and from the whole deck."""
    from analyzer.evaluate import _tables
    from kernels.cards import card_bit
    from kernels.evaluate import (high_batch_checked, high_batch_hashed, high_mask, low_batch_checked,
                                  low_batch_hashed, low_mask)
    from kernels.ranking import CAT_SHIFT, FLUSH

    t, rng = _tables(), np.random.default_rng(100 + width)
    two_suits = np.array([c for c in range(52) if c & 3 in (1, 3)], dtype=np.uint8)
    hands = np.concatenate([
        two_suits[np.argsort(rng.random((1500, 26)), axis=1)[:, :width]],
        np.argsort(rng.random((1500, 52)), axis=1)[:, :width].astype(np.uint8),
    ])
    masks = [sum(int(card_bit(c)) for c in row) for row in hands.tolist()]
    got = np.empty(len(hands), np.int32)
    for fk in (0, 1, 2):
        want = [high_mask(t, np.uint64(m), 0, fk, False) for m in masks]
        assert np.array_equal(high_batch_hashed(t, hands, fk, got), want)
        got[:] = 0
        assert high_batch_checked(t, hands, fk, got) == 0 and np.array_equal(got, want)
    for threshold in (1, 12345):
        want = [v if v >= threshold else 0 for v in (low_mask(np.uint64(m), 0) for m in masks)]
        assert np.array_equal(low_batch_hashed(t, hands, threshold, got), want)
        got[:] = 0
        assert low_batch_checked(t, hands, threshold, got) == 0 and np.array_equal(got, want)
    flushes = sum(v >> CAT_SHIFT == FLUSH for v in (high_mask(t, np.uint64(m), 0, 0, False) for m in masks))
    assert flushes > 40  # the two-suit hands do reach the flush branch (about 59 expected for five cards)


def test_the_public_evaluators_still_name_a_bad_row_and_take_padded_rows():
    hands = np.argsort(np.random.default_rng(0).random((50, 52)), axis=1)[:, :7].astype(np.uint8)
    hands[31, 4] = hands[31, 2]
    with pytest.raises(CardError, match=f"duplicate card '{format_cards([hands[31, 2]])}' in hand 31"):
        evaluate_high(hands)
    hands[31, 4] = 255  # an empty place: that row is a six-card hand
    assert evaluate_high(hands)[31] == evaluate_high(hands[31, [0, 1, 2, 3, 5, 6]][None, :])[0]


def test_out_takes_the_strengths_on_every_path_and_is_returned():
    """``out=`` receives every row's strength, the rank-set evaluators' value
    (``high_mask`` / ``low_mask``, a separate implementation), whichever path the
    call takes: the checked one-pass batch, padded rows, wild cards, a list of hands."""
    from analyzer import evaluate_low
    from analyzer.evaluate import _tables
    from kernels.cards import card_bit
    from kernels.evaluate import high_mask, low_mask

    t, rng = _tables(), np.random.default_rng(7)
    hands = np.argsort(rng.random((300, 52)), axis=1)[:, :7].astype(np.uint8)
    padded = hands.copy()
    padded[::3, 6] = 255
    deuces = sum(int(card_bit(c)) for c in range(4))  # the four 2s
    for rows, wild_ranks in ((hands, None), (padded, None), (hands, "2")):
        masks = [sum(int(card_bit(c)) for c in row if c != 255) for row in rows.tolist()]
        out = np.full(len(rows), -1, np.int32)
        assert evaluate_high(rows, wild_ranks=wild_ranks, out=out) is out
        natural_and_wild = [(m & ~deuces, bin(m & deuces).count("1")) if wild_ranks else (m, 0) for m in masks]
        assert out.tolist() == [high_mask(t, np.uint64(m), w, 0, False) for m, w in natural_and_wild]
        if wild_ranks is None:
            out[:] = -1
            assert evaluate_low(rows, qualifier=8, out=out) is out
            threshold = evaluate_low("8c 7d 6h 5s 4c")  # the worst eight-low
            assert out.tolist() == [v if v >= threshold else 0 for v in (low_mask(np.uint64(m), 0) for m in masks)]
    out = np.full(2, -1, np.int32)
    listed = [parse_cards("As Ks Qs Js Ts").tolist(), parse_cards("2c 3d 4h 5s 7c").tolist()]
    assert evaluate_high(listed, out=out) is out
    assert out.tolist() == [evaluate_high("As Ks Qs Js Ts"), evaluate_high("2c 3d 4h 5s 7c")]


def test_a_list_of_hands_may_hold_each_hand_as_text_card_strings_or_codes():
    """Each hand of a list of hands is read as one hand is (text, card strings or
    codes), hands of different lengths padded; a bad card names its hand. Each
    strength is the one the hand gets alone."""
    from analyzer import evaluate_low

    texts = ["As Ks Qs Js Ts", "2c 3d 4h 5s 7c 9d", "9c 9d 9h 5s 5c 2d 3h"]
    alone = [evaluate_high(h) for h in texts]
    for listed in ([h.split() for h in texts], [[h] for h in texts], [parse_cards(h).tolist() for h in texts],
                   [texts[0].split(), texts[1], parse_cards(texts[2])], texts, [texts[0], texts[1].split(), texts[2]]):
        assert evaluate_high(listed).tolist() == alone
    assert evaluate_low([h.split() for h in texts], qualifier=8).tolist() == [
        evaluate_low(h, qualifier=8) for h in texts]
    # A list of card strings is still one hand; a list of texts of several cards is a
    # batch (it had been read as one hand of all their cards, or refused when a text
    # came before a list).
    assert evaluate_high(texts[0].split()) == alone[0]
    assert evaluate_low(texts[:2]).tolist() == [evaluate_low(texts[0]), evaluate_low(texts[1])]
    assert evaluate_high(["AsKs", "QsJsTs"]).tolist() == [evaluate_high("As Ks"), evaluate_high("Qs Js Ts")]
    with pytest.raises(CardError, match="hand 1: unknown card 'Xd'"):
        evaluate_high([texts[0].split(), ["2c", "3c", "4c", "5c", "Xd"]])
    with pytest.raises(CardError, match="hand 2: duplicate card '5s'"):
        evaluate_high([texts[0].split(), texts[1], "5s 5s 4c 3d 2h"])


def test_an_out_that_does_not_fit_is_a_clear_error():
    from analyzer import WantitError, evaluate_low

    hands = np.argsort(np.random.default_rng(8).random((10, 52)), axis=1)[:, :7].astype(np.uint8)
    read_only = np.empty(10, np.int32)
    read_only.flags.writeable = False
    buffer = np.zeros(80, np.uint8)
    overlapping = buffer[:70].reshape(10, 7)
    overlapping[:] = hands
    for evaluate in (evaluate_high, evaluate_low):
        for out, message in ((np.empty(10, np.int64), "dtype int32, got int64"),
                             (np.empty(9, np.int32), r"shape \(10,\), one strength per hand, got \(9,\)"),
                             (np.empty((10, 1), np.int32), r"shape \(10,\)"),
                             (np.empty(20, np.int32)[::2], "contiguous, writeable"),
                             (read_only, "contiguous, writeable"),
                             ([0] * 10, "numpy array, got list")):
            with pytest.raises(WantitError, match=message):
                evaluate(hands, out=out)
        with pytest.raises(WantitError, match="share memory"):
            evaluate(overlapping, out=buffer[:40].view(np.int32))
        with pytest.raises(WantitError, match="batch of hands"):
            evaluate("As Ks Qs Js Ts", out=np.empty(1, np.int32))
