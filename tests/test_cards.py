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
