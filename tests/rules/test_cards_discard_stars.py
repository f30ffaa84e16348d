"""Star-only Discard cards named one by one (the coverage check wants each card's name in its
tests): Corner Store's effect, and its, Commuter Train's and Skyscraper's edge at the 20★ cap.

Each test names the cards it covers with ``@pytest.mark.card(id, ..., edge=...)``.
"""

from __future__ import annotations

import pytest

from kotp2p import rules
from tests.rules.kit import card, draw

SEATS = "The King {}; Giga Zaur 10/0/0 @city; Alienoid 10/0/0; Cyber Kitty 10/0/0"


def buy(stats: str, slug: str) -> rules.State:
    s = rules.from_text(f"{SEATS.format(stats)} | active=0 phase=buy market={slug},heal,tank")
    return draw(rules.apply(s, rules.Buy(card(slug))), "energize")


@pytest.mark.card(103)
def test_corner_store_gives_one_star_for_three_energy() -> None:
    s = buy("10/4/3", "cornerstore")
    assert s.stars[0] == 5 and s.energy[0] == 0 and card("cornerstore") in s.discard


@pytest.mark.card(102, 103, 116, edge=True)
@pytest.mark.parametrize(
    ("slug", "stars"), [("commutertrain", 19), ("skyscraper", 17), ("cornerstore", 20)]
)
def test_star_cards_stop_at_twenty_and_win_at_the_end_of_the_turn(slug: str, stars: int) -> None:
    s = buy(f"10/{stars}/{rules.CARDS[card(slug)].cost}", slug)
    assert s.is_over and s.winners == (0,) and s.stars[0] == 20
