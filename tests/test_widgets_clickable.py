"""The clickable card row: it reports picks of enabled cards only."""
import pytest

from cartas.cards import Card
from widgets.components.card_picker import CardPicker
from widgets.draw.svg import card_svg


def picker():
    cards = [Card.parse(t) for t in ("7♥", "A♠")]
    return CardPicker(cards=[{"svg": card_svg(c), "label": str(c), "enabled": i == 1}
                             for i, c in enumerate(cards)])


def test_picking_an_enabled_card_notifies_every_time():
    row, seen = picker(), []
    row.on_pick(seen.append)
    row.pick(1)
    row.pick(1)  # the same card twice still notifies
    assert seen == [1, 1]


def test_a_disabled_or_missing_card_cannot_be_picked():
    row, seen = picker(), []
    row.on_pick(seen.append)
    for index in (0, 2):
        with pytest.raises(ValueError, match=f"card {index} cannot be picked"):
            row.pick(index)
    assert seen == []
