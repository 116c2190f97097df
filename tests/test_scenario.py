"""Scenarios: round trips through JSON and links, and a catalogue of refused scenarios."""
import copy
import json

import pytest
from hypothesis import given, settings, strategies as st

from cartas.cards import TRUCO_PACK
from cartas.scenario import (
    FORMAT,
    ScenarioError,
    build,
    decode_link,
    encode_link,
    from_json,
    to_json,
    truco_from_state,
    truco_scenario,
    validate,
    vinte_e_um_scenario,
)
from cartas.truco import new_game

HANDS = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "J♥", "Q♥"], ["2♠", "3♠", "4♠"]]


def paulista(**changes):
    data = {"format": FORMAT, "game": "truco", "variant": "paulista",
            "hands": copy.deepcopy(HANDS), "vira": "K♠", "dealer": 3, "score": [2, 5]}
    data.update(changes)
    return data


def table21(**changes):
    data = {"format": FORMAT, "game": "21", "players": 4, "banker": 1, "chips": 20,
            "deal": {"first_cards": ["5♥", "K♣", "2♦", "A♠"], "upcard": "9♣", "then": ["3♥"]}}
    data.update(changes)
    return data


@st.composite
def truco_deals(draw):
    variant = draw(st.sampled_from(["paulista", "mineiro"]))
    cards = draw(st.permutations(TRUCO_PACK))
    hands = [cards[3 * i:3 * i + 3] for i in range(4)]
    vira = cards[12] if variant == "paulista" else None
    top = 11 if variant == "paulista" else 9
    score = draw(st.tuples(st.integers(0, top), st.integers(0, top)))
    return truco_scenario(variant, hands, vira, draw(st.integers(0, 3)), score,
                          seed=draw(st.none() | st.integers(0, 10**9)))


@settings(max_examples=40, deadline=None)
@given(truco_deals())
def test_truco_scenarios_survive_json_and_links(scenario):
    assert from_json(to_json(scenario)) == scenario
    link = encode_link(scenario)
    assert decode_link(link) == scenario
    assert all(c.isalnum() or c in "-_." for c in link)


@settings(max_examples=15, deadline=None)
@given(st.integers(3, 12), st.integers(0, 2**32), st.sampled_from([1, 11, "flexible"]),
       st.sampled_from(["rounds", "auction", "sale", "permanent"]))
def test_21_scenarios_survive_json_and_links(players, seed, ace, rotation):
    scenario = vinte_e_um_scenario(players, banker=seed % players, seed=seed, ace=ace,
                                   rotation=rotation, chips=15)
    assert decode_link(encode_link(scenario)) == scenario
    assert from_json(to_json(scenario)) == scenario


def test_a_truco_scenario_builds_the_same_deal():
    state = build(validate(paulista(score=[11, 4])))
    assert [[str(c) for c in h] for h in state.hands] == HANDS
    assert str(state.vira) == "K♠" and state.dealer == 3 and state.score == (11, 4)
    assert state.phase == "decide"  # a mão de onze: the scenario keeps its meaning


def test_a_state_gives_back_its_scenario():
    state = new_game("mineiro", seed=4)
    scenario = truco_from_state(state)
    again = build(scenario)
    assert again.hands == state.hands and again.dealer == state.dealer and again.vira is None


def test_a_21_scenario_deals_the_chosen_cards():
    state = build(validate(table21()))
    assert state.banker == 1
    assert [str(h[0]) for h in state.hands] == ["5♥", "K♣", "2♦", "A♠"]


def test_an_edited_link_is_refused_as_tampered():
    link = encode_link(validate(paulista()))
    version, body, digest = link.split(".")
    for edited in (f"{version}.{body[:-3]}{'xyz' if body[-3:] != 'xyz' else 'abc'}.{digest}",
                   f"{version}.{body}.{'0' * len(digest)}", link[:-1]):
        with pytest.raises(ScenarioError) as err:
            decode_link(edited)
        assert err.value.code == "tampered"
        assert "alterado" in err.value.message("pt")


def test_a_digest_cannot_hide_a_changed_scenario():
    """Re-encoding by hand without the right digest is caught even when the JSON is valid."""
    import base64
    import zlib
    changed = json.dumps(validate(paulista(score=[11, 11]))).encode()
    body = base64.urlsafe_b64encode(zlib.compress(changed)).decode().rstrip("=")
    digest = encode_link(validate(paulista())).split(".")[2]
    with pytest.raises(ScenarioError, match="changed"):
        decode_link(f"1.{body}.{digest}")


BAD_TRUCO = [
    (paulista(format="cartas.cenario/9"), "format", "formato de cenário desconhecido"),
    (paulista(game="poker"), "game", "jogo desconhecido"),
    (paulista(variant="gaucho"), "engine", "variante de truco desconhecida"),
    (paulista(extra=1), "unknown_field", "campo desconhecido"),
    ({k: v for k, v in paulista().items() if k != "hands"}, "missing", "falta o campo hands"),
    (paulista(hands=HANDS[:3]), "hands_shape", "4 mãos de 3 cartas"),
    (paulista(hands=[HANDS[0][:2]] + HANDS[1:]), "hands_shape", "o assento 0 tem 2 cartas"),
    (paulista(hands=[["7♥", "A♠", "onze"]] + HANDS[1:]), "card", "'onze' não é uma carta"),
    (paulista(hands=[["7♥", "A♠", "9♦"]] + HANDS[1:]), "engine", "9♦ na mão do assento 0 não está no baralho"),
    (paulista(hands=[["7♥", "A♠", "4♣"]] + HANDS[1:]), "engine", "4♣ foi distribuída duas vezes"),
    (paulista(vira="7♥"), "engine", "a vira 7♥ não pode estar também numa mão"),
    (paulista(vira=None), "engine", "precisa de uma vira"),
    (paulista(variant="mineiro"), "engine", "não tem vira"),
    (paulista(manilhas=["7♦", "7♠", "7♥", "7♣"]), "manilhas", "contradizem a vira"),
    (paulista(dealer=4), "engine", "de 0 a 3"),
    (paulista(dealer=True), "engine", "de 0 a 3"),
    (paulista(score=[12, 0]), "engine", "de 0 a 11"),
    (paulista(score=[1]), "engine", "dois números"),
    (paulista(score=[True, 0]), "engine", "dois números"),
    (paulista(seed=-1), "seed", "semente"),
    (paulista(seed=10**30), "number_too_long", "longo demais"),
    (paulista(tie_lead="random"), "engine", "depois de um empate"),
]

BAD_21 = [
    (table21(players=2), "number", "participantes"),
    (table21(banker=4), "number", "banca"),
    (table21(ace=5), "option", "valor do ás"),
    (table21(ace=11.0), "option", "valor do ás"),
    (table21(ace=True), "option", "valor do ás"),
    (table21(players=True), "number", "participantes"),
    (table21(rotation="forever"), "option", "rodízio da banca"),
    (table21(deal={"first_cards": ["5♥", "5♥", "2♦", "A♠"]}), "twice", "5♥ aparece duas vezes"),
    (table21(deal={"first_cards": ["5♥", "K♣"]}), "deal_shape", "first_cards precisa de uma carta por assento"),
    (table21(deal={"first_cards": ["5♥", "K♣", "2♦", "A♠"], "upcard": "Z♣"}), "card", "não é uma carta"),
    (table21(deal={"first_cards": ["5♥", None, "2♦", "A♠"]}), "engine", ""),  # 21's own text
    (table21(chips=[20, 20]), "option", "fichas"),
    (table21(rotation="natural", ace=1), "engine", ""),
]


@pytest.mark.parametrize("data,code,phrase", BAD_TRUCO + BAD_21,
                         ids=[f"{c}-{i}" for i, (_, c, _) in enumerate(BAD_TRUCO + BAD_21)])
def test_bad_scenarios_are_refused_with_their_message(data, code, phrase):
    with pytest.raises(ScenarioError) as err:
        validate(data)
    assert err.value.code == code
    assert phrase.lower() in err.value.message("pt").lower()
    assert isinstance(err.value, ValueError) and str(err.value) == err.value.message("en")
    # the same scenario is refused the same way when it arrives as JSON
    with pytest.raises(ScenarioError) as again:
        from_json(json.dumps(data, ensure_ascii=False))
    assert again.value.code == code


@pytest.mark.parametrize("text,code", [
    ("{not json", "malformed"), ("[1, 2]", "malformed"), (b"\xff\xfe", "malformed"),
    ('"just text"', "malformed"),
])
def test_malformed_json_is_refused(text, code):
    with pytest.raises(ScenarioError) as err:
        from_json(text)
    assert err.value.code == code and "não pôde ser lido" in err.value.message("pt")


@pytest.mark.parametrize("link", ["", "abc", "3.abc.def", "2.abc.def", "1.!!!.0123456789",
                                  "2.!!!.0123456789", "1." + "A" * 5000 + ".x"])
def test_garbage_links_are_refused(link):
    with pytest.raises(ScenarioError) as err:
        decode_link(link)
    assert err.value.code in ("malformed", "tampered")


def test_a_natural_rotation_scenario_takes_the_engines_ace_default():
    from cartas.scenario import validate
    scenario = validate({"format": FORMAT, "game": "21", "players": 4, "banker": 0,
                         "rotation": "natural"})
    assert scenario["ace"] == 11


def test_a_number_of_5000_digits_is_refused_as_too_long_in_both_languages():
    text = ('{"format": "cartas.cenario/1", "game": "21", "players": ' + "7" * 5000
            + ', "banker": 0}')
    with pytest.raises(ScenarioError) as err:
        from_json(text)
    assert err.value.code == "number_too_long"
    assert "longo demais" in err.value.message("pt") and "too long" in str(err.value)
    with pytest.raises(ScenarioError) as err:
        validate(table21(players=10**5000))
    assert err.value.code == "number_too_long" and "players" in str(err.value)


def test_bools_and_floats_are_not_whole_numbers_in_a_scenario():
    for data in (table21(banker=True), table21(chips=20.0), table21(ace=11.0),
                 paulista(dealer=3.0)):
        with pytest.raises(ScenarioError):
            validate(data)


def test_a_truco_scenario_keeps_tie_lead_through_json_links_and_states():
    scenario = truco_scenario("paulista", HANDS, "K♠", 3, (2, 5), tie_lead="first_tying")
    assert scenario["tie_lead"] == "first_tying"
    assert decode_link(encode_link(scenario)) == scenario
    state = build(scenario)
    assert state.tie_lead == "first_tying"
    assert truco_from_state(state)["tie_lead"] == "first_tying"


def test_an_engine_refusal_is_wrapped_and_speaks_the_readers_language():
    with pytest.raises(ScenarioError) as err:
        validate(paulista(vira="7♥"))
    assert err.value.code == "engine" and err.value.engine_code == "vira_in_hand"
    assert "cannot also be in a hand" in err.value.message("en")
    assert "não pode estar também numa mão" in err.value.message("pt")


def _version_1_link(scenario: dict) -> str:
    """A link as version 1 wrote it: zlib of the whole validated JSON, without a dictionary."""
    import base64
    import hashlib
    import zlib
    raw = json.dumps(validate(scenario), ensure_ascii=False, separators=(",", ":"),
                     sort_keys=True).encode("utf-8")
    body = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")
    return f"1.{body}.{hashlib.sha256(b'cartas-cenario:' + raw).hexdigest()[:10]}"


def test_links_written_by_version_1_still_open_the_same_scenario():
    for scenario in (truco_scenario("paulista", HANDS, "K♠", 3, (11, 4), title="Aula 3"),
                     vinte_e_um_scenario(4, 1, deal={"first_cards": ["5♥", "K♣", "2♦", "A♠"],
                                                     "upcard": "9♣", "then": ["3♦"]})):
        old = _version_1_link(scenario)
        assert old.startswith("1.") and decode_link(old) == scenario
        assert encode_link(scenario).startswith("2.") and decode_link(encode_link(scenario)) == scenario


def test_a_truco_link_is_short_enough_for_a_projected_qr_code():
    link = encode_link(truco_scenario("paulista", HANDS, "K♠", 3, (11, 4)))
    assert len(link) <= 120, link  # version 1 took 300 characters for the same deal
    assert len(encode_link(truco_scenario("mineiro", HANDS, None, 1, (3, 4)))) <= 120


def test_a_changed_character_in_a_version_2_link_is_refused_as_tampered():
    link = encode_link(truco_scenario("paulista", HANDS, "K♠", 3, (11, 4)))
    version, body, digest = link.split(".")
    for i in range(0, len(body), 7):
        changed = body[:i] + ("B" if body[i] != "B" else "C") + body[i + 1:]
        with pytest.raises(ScenarioError) as err:
            decode_link(f"{version}.{changed}.{digest}")
        assert err.value.code in ("tampered", "malformed")


def test_a_refused_field_is_named_in_the_readers_language():
    with pytest.raises(ScenarioError) as err:
        validate(table21(players=13))
    assert err.value.message("pt") == "O campo participantes deve ser um número inteiro de 3 a 12, não 13."
    assert str(err.value) == "The field participants must be a whole number from 3 to 12, not 13."


def test_a_scenario_plays_the_registrys_game_with_its_rule_bot():
    from cartas.games import find_game
    from cartas.scenario import bot, game_of
    from cartas.truco.bots import RuleBot
    from cartas.vinte_e_um import SensibleBot

    mineiro = truco_scenario("mineiro", [["4♣", "7♥", "A♠"], ["7♦", "3♦", "2♠"], ["K♥", "Q♣", "J♦"],
                                         ["5♠", "6♥", "4♦"]], dealer=1)
    table = vinte_e_um_scenario(6, 2, seed=4)
    assert game_of(mineiro) is find_game("mineiro") and game_of(table) is find_game("21")
    assert build(mineiro).game == "mineiro" and build(table).game == "21"
    assert isinstance(bot(mineiro, 1), RuleBot) and isinstance(bot(table, 1), SensibleBot)
    state = build(table)
    assert bot(table, 3).choose(state.view(state.current_seat)) in state.legal_actions()


def test_a_21_scenario_seats_the_registrys_range_of_players():
    from cartas.games import find_game

    low, high = find_game("21").seats
    assert vinte_e_um_scenario(high, 0)["players"] == high
    for players in (low - 1, high + 1):
        with pytest.raises(ScenarioError) as info:
            vinte_e_um_scenario(players, 0)
        assert info.value.code == "number" and f"{low} a {high}" in info.value.message("pt")
