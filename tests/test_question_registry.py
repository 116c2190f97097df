"""The question kinds' registry (`cartas.questions`, issue 30 item 4): every question kind of
every lesson is a pure function of a seeded Generator in the engine, registered by key, found by
the pages, the live quiz and the review there; each wrong choice it can offer is named by a
misconception (in both languages, in the game's catalogue) or is an explicit slip."""
from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from cartas import questions
from cartas.questions import LESSONS, SLIP, Question, QuestionError, Text, all_kinds, find_kind, lesson_kinds

ROOT = Path(__file__).resolve().parents[1]
SEEDS = 300  # draws per kind and variant
SLOW = {"vinte_e_um_rodada", "vinte_e_um_banca"}  # a round of bots per question: fewer draws
KINDS = {kind.key: kind for kind in all_kinds()}


def _draws(kind, seeds: int):
    for variant in kind.variants or (None,):
        for seed in range(seeds):
            yield seed, variant, kind.make(np.random.default_rng(seed), variant)


def _seeds(kind) -> int:
    return 40 if kind.lesson in SLOW else SEEDS


def test_every_lesson_with_exercises_has_its_kinds_registered():
    assert {kind.lesson for kind in all_kinds()} == set(LESSONS)
    assert len(KINDS) == len(all_kinds())  # one kind per key
    for key, kind in KINDS.items():
        assert key.startswith(kind.lesson + ".") and find_kind(key) is kind


@pytest.mark.parametrize("key", sorted(KINDS))
def test_a_kind_is_a_pure_function_of_its_seed(key):
    kind = KINDS[key]
    for variant in kind.variants or (None,):
        for seed in range(5):
            a, b = (kind.make(np.random.default_rng(seed), variant) for _ in range(2))
            assert a == b and a.prompt == b.prompt and a.choices == b.choices, (key, seed)
            with pytest.raises(AttributeError):
                a.answer = None  # type: ignore[misc]  # a question is immutable


@pytest.mark.parametrize("key", sorted(KINDS))
def test_every_wrong_choice_any_seed_offers_is_named(key):
    """Its answer is one of its choices; each other choice names a misconception the kind
    declares (or is a slip); every misconception it declares is offered by some seed."""
    kind = KINDS[key]
    offered: Counter = Counter()
    for seed, variant, q in _draws(kind, _seeds(kind)):
        assert isinstance(q, Question) and q.kind == key and q.skill == kind.skill, (seed, variant)
        values = [c.value for c in q.choices]
        assert q.answer in values and len(set(values)) == len(values), (seed, variant, values)
        for choice in q.choices:
            assert isinstance(choice.label, Text) and choice.label.pt and choice.label.en
            if choice.value == q.answer:
                assert choice.misconception is None
            else:
                assert choice.misconception == SLIP or choice.misconception in kind.misconceptions, \
                    (seed, variant, choice)
                offered[choice.misconception] += 1
        for text in (q.prompt, q.reason):
            assert isinstance(text, Text) and text.pt and text.en, (seed, variant)
    assert set(kind.misconceptions) <= set(offered), (key, offered)
    assert len(kind.misconceptions) >= 2, (key, "fewer than two named misconceptions")  # issue 32, item 2


def test_every_kind_names_at_least_two_misconceptions_it_produces():
    """Issue 32 item 2: over many seeds and every variant, each kind offers at least two
    distinct named misconceptions (not counting slips)."""
    for key, kind in KINDS.items():
        offered = {c.misconception for _, _, q in _draws(kind, 60 if kind.lesson in SLOW else 150)
                   for c in q.choices if c.misconception not in (None, SLIP)}
        assert len(offered) >= 2, (key, offered)


def test_every_misconception_has_its_correcting_rule_and_lesson_section():
    """Each named misconception: its belief and the rule that corrects it in both languages, and
    a link to the section of a lesson whose notebook (rendered as a dashboard renders it) has
    that heading's anchor in each language."""
    import json

    from nbconvert.filters import markdown2html

    anchors: dict[str, set[str]] = {}
    for lesson in {m.lesson for m in questions.all_misconceptions()}:
        cells = json.loads((ROOT / "notebooks" / f"{lesson}.ipynb").read_text())["cells"]
        html = "".join(markdown2html("".join(c["source"])) for c in cells if c["cell_type"] == "markdown")
        anchors[lesson] = set(re.findall(r'id="([^"]+)"', html))
    declared = {m for kind in all_kinds() for m in kind.misconceptions}
    assert declared == {m.key for m in questions.all_misconceptions()}  # none named and never offered
    for m in questions.all_misconceptions():
        assert m.rule.pt and m.rule.en and m.rule.pt != m.rule.en, m.key
        assert m.lesson in LESSONS, m.key
        for lang in ("pt", "en"):
            page, anchor = m.link(lang).split("#")
            assert page == f"{m.lesson}.ipynb" and anchor in anchors[m.lesson], (m.key, lang, anchor)


def test_every_misconception_is_said_in_both_languages():
    named = {m for kind in all_kinds() for m in kind.misconceptions}
    for key in named:
        text = questions.misconception(key).text
        assert text.pt and text.en and text.pt != text.en, key
    with pytest.raises(KeyError):
        questions.misconception(SLIP)


def test_rule_a_misconception_names_the_wrong_choice_it_explains():
    """Spot checks of the readings: the vira's own rank is "the manilha is the vira's rank";
    the rank before it, counting backwards; in a call of Paulista's truco, 3 points for running
    is "running pays the raised value"."""
    from cartas.cards import Rank
    from cartas.truco import NATURAL_ORDER

    q = find_kind("manilhas.rank_from_vira").make(np.random.default_rng(0))
    vira = q.facts["vira"]
    at = NATURAL_ORDER.index(vira.rank)
    assert q.misconception(vira.rank) == "manilha_is_vira"
    if NATURAL_ORDER[at - 1] != q.answer:
        assert q.misconception(NATURAL_ORDER[at - 1]) == "counts_backwards"
    for seed in range(50):
        q = find_kind("truco_apostas.points_for_running").make(np.random.default_rng(seed), "paulista")
        pending = q.facts["state"].pending_raise
        assert q.misconception(pending["value"]) == "running_pays_raised"
    q = find_kind("vinte_e_um_pontos.worth").make(np.random.default_rng(1))
    hand = q.facts["hand"]
    if any(c.rank == Rank.ACE for c in hand):
        assert "ace_always_11" in {c.misconception for c in q.choices} | {None}


def test_rule_a_tied_first_trick_goes_to_nobody_not_to_the_mao():
    """docs/rules.md#truco-tied-first: with the first trick tied, the engine's hand winner is the
    next untied trick's (nobody for three ties), whoever the mão is; the mão's team, when it is
    not the winner, is the choice "a tied first trick goes to the mão"."""
    from cartas.truco import hand_winner, team_of

    seen = set()
    for seed in range(120):
        q = find_kind("truco_rodadas.tied_first").make(np.random.default_rng(seed), "paulista")
        results, mao = q.facts["results"], q.facts["mao"]
        assert results[0] is None
        untied = next((r for r in results if r is not None), None)
        assert hand_winner(results) == untied
        assert q.answer == ("-" if untied is None else "AB"[untied])
        mao_letter = "AB"[team_of(mao)]
        if mao_letter != q.answer:
            assert q.misconception(mao_letter) == "tied_first_goes_to_mao"
            seen.add(results)
    assert len(seen) >= 4  # (tie, A), (tie, B), (tie, tie, A), (tie, tie, B), (tie, tie, tie)


def test_rule_a_two_card_21_takes_the_bank_a_three_card_21_does_not():
    """docs/rules.md#21-rotation ("natural"): the first player from the banker's left whose first
    two cards make 21 takes the bank, a three-card 21 takes nothing; choosing the first 21
    whatever its cards is "a two-card 21 is just 21"."""
    from cartas.vinte_e_um import is_two_card_21, points

    named = Counter()
    for seed in range(200):
        q = find_kind("vinte_e_um_banca.natural").make(np.random.default_rng(seed))
        hands, banker = q.facts["hands"], q.facts["banker"]
        naturals = [s for s in (1, 2, 3) if is_two_card_21(hands[s], 11)]
        assert q.answer == (naturals[0] if naturals else banker)
        first_21 = next((s for s in (1, 2, 3) if points(hands[s], 11) == 21), None)
        if first_21 is not None and first_21 != q.answer:
            assert len(hands[first_21]) == 3 and q.misconception(first_21) == "two_card_21_is_just_21"
            named["two_card_21_is_just_21"] += 1
    assert named["two_card_21_is_just_21"] > 100


def test_an_unknown_kind_lesson_or_variant_is_refused_in_both_languages():
    with pytest.raises(QuestionError) as error:
        find_kind("manilhas.nope")
    assert "manilhas.nope" in error.value.message("pt") and "Kinds:" in error.value.message("en")
    with pytest.raises(QuestionError) as error:
        lesson_kinds("cenarios")
    assert error.value.code == "unknown_lesson"
    with pytest.raises(QuestionError) as error:
        find_kind("manilhas.rank_from_vira").make(np.random.default_rng(0), "mineiro")
    assert error.value.code == "unknown_variant"


def test_a_lesson_asks_its_variants_kinds():
    assert [k.key for k in lesson_kinds("manilhas", "paulista")] == ["manilhas.rank_from_vira", "manilhas.stronger"]
    assert [k.key for k in lesson_kinds("manilhas", "mineiro")] == ["manilhas.fixed_manilhas", "manilhas.stronger"]
    rng = np.random.default_rng(5)
    kinds = Counter(questions.draw_question("truco_mao_de_onze", rng, "mineiro").kind for _ in range(60))
    assert set(kinds) == {"truco_mao_de_onze.run", "truco_mao_de_onze.play", "truco_mao_de_onze.raise"}
    assert questions.draw_question("truco_mineiro", rng, turn=0).kind == "truco_mineiro.duel"


def _strings_and_privates(path: Path) -> tuple[bool, set[str]]:
    tree = ast.parse(path.read_text())
    imports_importlib = any(isinstance(node, ast.Import) and any(a.name == "importlib" for a in node.names)
                            or isinstance(node, ast.ImportFrom) and node.module == "importlib"
                            for node in ast.walk(tree))
    privates = {node.attr for node in ast.walk(tree)
                if isinstance(node, ast.Attribute) and node.attr == "_question"
                and not (isinstance(node.value, ast.Name) and node.value.id == "self")}
    return imports_importlib, privates


@pytest.mark.parametrize("page", ["aula", "revisao", "tarefa"])
def test_the_live_quiz_and_the_review_find_questions_in_the_registry(page):
    """No question maker loaded by `importlib` from a string, no reach into a page's private
    `_question`: the projector and the review ask `cartas.questions`."""
    imports_importlib, privates = _strings_and_privates(ROOT / "widgets" / "pages" / f"{page}.py")
    assert not imports_importlib and not privates


def test_no_page_keeps_a_question_maker_of_its_own():
    """A lesson page's exercises ask the registry; none builds a Question itself."""
    for path in sorted((ROOT / "widgets").rglob("*.py")):
        tree = ast.parse(path.read_text())
        built = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
                 and isinstance(node.func, ast.Name) and node.func.id == "Question"]
        assert not built, (path.name, built)
