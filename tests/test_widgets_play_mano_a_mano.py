"""`jogar_truco` mano a mano (docs/rules.md#mano-a-mano-players): the players' chooser, a whole
game of two through the buttons, at every level, with the coach, in both languages, and
`?jogadores=` checked like the page's other parameters."""
from urllib.parse import urlencode

import pytest
from test_widgets_play_truco import take_turn

from cartas.truco import from_deal
from widgets.pages.jogar_truco import PlayTruco


def test_the_players_chooser_offers_pairs_and_mano_a_mano_in_both_languages():
    view = PlayTruco(seed=3, delay=0, lang="pt")
    assert view.players.options == (("Em duplas (4)", 4), ("Mano a mano (2)", 2))
    assert view.players.value == 4 and view.state.players == 4
    view.language.value = "en"
    assert [label for label, _ in view.players.options] == ["In pairs (4)", "One on one (2)"]
    assert view.state.players == 4  # relabelling deals no new game


@pytest.mark.parametrize("level", ["easy", "rule", "strong"])
@pytest.mark.parametrize("variant", ["paulista", "mineiro"])
def test_a_whole_game_mano_a_mano_through_the_buttons(variant, level):
    view = PlayTruco(variant=variant, seed=5, delay=0, lang="pt", level=level)
    view.players.value = 2  # the learner chooses one against one: a new game at once
    state = view.state
    assert state.players == 2 and len(view.bots) == 1 and set(view.bots) == {1}
    table = view.table.value
    assert table.count('class="cartas-seat"') == 2 and 'data-place="top"' in table
    assert "Dupla" not in table
    hints = 0
    while not view.state.is_terminal():
        assert view.acting_seat() == 0
        if hints < 3:
            assert view.hint()  # the coach speaks at her decisions, with two seats too
            hints += 1
        take_turn(view)
        assert view.last_error is None, view.message.value
    assert view.state is state and max(state.score) >= 12 or state.last_hand["reason"] == "forbidden_raise"
    status = view.status.value
    assert "Fim de jogo: você venceu" in status or "Fim de jogo: o outro jogador venceu" in status
    assert "dupla" not in status
    view.language.value = "en"
    assert "Game over: you won" in view.status.value or "the other player won" in view.status.value
    assert "cartas-review-text" in view.review_box.value
    view.again.click()
    assert view.state.players == 2 and view.state.score == (0, 0)


def test_a_mano_a_mano_threshold_hand_is_decided_from_her_own_cards():
    state = from_deal("paulista", [["3♣", "2♦", "K♥"], ["4♣", "5♦", "6♥"]], "7♠", dealer=1,
                      score=(11, 4), seed=1, players=2)
    view = PlayTruco(state=state, delay=0, lang="pt", seed=1)
    assert view.players.value == 2  # the chooser follows the state it was given
    assert "veja suas cartas" in view.status.value and "parceiro" not in view.status.value
    assert view.hint()  # play or run, from her cards alone
    view.play_hand_button.click()
    assert view.state.phase == "play" and view.state.hand_value == 3


@pytest.mark.parametrize("text, players, refused", [
    ("2", 2, None), ("4", 4, None), (" 2 ", 2, None),
    ("3", 4, "jogado com 2 ou 4"), ("5", 4, "fora do intervalo"), ("dois", 4, "não é um número inteiro"),
    ("2" * 40, 4, "caracteres"),
])
def test_jogadores_in_the_url_is_checked_like_the_other_parameters(text, players, refused, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", urlencode({"jogadores": text}))
    view = PlayTruco(seed=2, delay=0, lang="pt")
    assert view.players.value == players and view.state.players == players
    notice = view.url_notice()
    if refused is None:
        assert notice == ""
    else:
        assert refused in notice.replace("se joga com", "jogado com") and "o jogo é de 4 jogadores" in notice
        view.language.value = "en"
        assert "the game has 4 players" in view.url_notice()


def test_jogadores_given_twice_is_refused(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "jogadores=2&jogadores=4")
    view = PlayTruco(seed=2, delay=0, lang="en")
    assert view.state.players == 4 and "only one is accepted" in view.url_notice()


TEAM_WORDS = ("dupla", "parceir", "partner", "your team", "vocês")


def _hint_texts(view) -> list[str]:
    """The hint in both languages: what `hint()` returns and what the hint box shows."""
    out = []
    for lang in ("pt", "en"):
        view.language.value = lang
        out += [view.hint(), view.hint_box.value]
    return out


@pytest.mark.parametrize("score", [(0, 0), (11, 4)])
def test_the_coach_hint_mano_a_mano_speaks_to_you_not_to_a_pair(score):
    """Issue: wording mano a mano. The hint of a game of two (a card and truco; a mão de onze)
    names no pair, team nor partner in either language; a game of four still speaks of the pair."""
    two = from_deal("paulista", [["5♣", "5♥", "5♠"], ["4♥", "6♦", "7♥"]], "4♦", dealer=1, score=score,
                    seed=1, players=2)
    texts = _hint_texts(PlayTruco(state=two, delay=0, lang="pt", seed=1))
    assert [w for text in texts for w in TEAM_WORDS if w in text.lower()] == [], texts
    assert any("você" in text for text in texts) and any("you take" in text for text in texts)
    four = from_deal("paulista", [["5♣", "5♥", "5♠"], ["4♥", "6♦", "7♥"], ["Q♦", "J♠", "K♥"],
                                  ["4♠", "6♠", "7♠"]], "4♦", dealer=3, score=score, seed=1)
    texts = _hint_texts(PlayTruco(state=four, delay=0, lang="pt", seed=1))
    assert any("dupla" in text or "parceiro" in text for text in texts)
    assert any("your team" in text or "partner" in text for text in texts)
