"""The teacher's insight, a part of the class view (`turma`, issue 32 item 3): what the class
gets wrong, and why.

Decided rules (the report itself is `classroom.insight`'s):
- It reads the class's whole answers through the classroom interface alone
  (`Classroom.class_answers`), so it works in this process and under the hub; the report is
  made again only when the answers changed (the class view refreshes every few seconds).
- First, one sentence per skill: its % right and the misconception most learners hold, with
  who holds it. Then per skill and per question kind: % right, the median time, the
  misconceptions with how many learners hold each; per learner: what she still shows, the
  rule that corrects it with a link to the lesson's section, her last wrong answers replayed
  as she saw them (the question made again from its seed); per live-quiz question: how many
  chose each choice, the popular wrong choice named and the sentence to say to the class.
- Two CSV downloads (UTF-8 with a byte-order mark): one row per answer; one row per item x
  misconception. Names are escaped; every sentence is in both languages (`TEXT`, the engine's
  catalogue for the misconceptions and their rules). Lists, not wide tables: it reads on a
  360 px phone.
"""
from __future__ import annotations

from html import escape, unescape
from urllib.parse import quote

import ipywidgets as w

from cartas import questions
from classroom import insight
from classroom.mastery import BY_KEY
from widgets.components.i18n import translate
from widgets.pages.index import LESSONS

TEXT = {
    "head": {"pt": "O que a turma erra, e por quê", "en": "What the class gets wrong, and why"},
    "nothing": {"pt": "Ainda não há respostas desta turma.", "en": "No answers from this class yet."},
    "summary": {"pt": "Em uma frase, por habilidade", "en": "In one sentence, per skill"},
    "sentence_held": {"pt": "{skill}: {right} de acerto; {n} {who} que {belief} ({names}).",
                      "en": "{skill}: {right} right; {n} {who} that {belief} ({names})."},
    "sentence_clear": {"pt": "{skill}: {right} de acerto; nenhum erro de concepção persistente.",
                       "en": "{skill}: {right} right; no misconception persists."},
    "one_thinks": {"pt": "aluno acha", "en": "learner thinks"},
    "many_think": {"pt": "alunos acham", "en": "learners think"},
    "skills": {"pt": "Por habilidade", "en": "Per skill"},
    "kinds": {"pt": "Por tipo de pergunta", "en": "Per question kind"},
    "learners": {"pt": "Por aluno", "en": "Per learner"},
    "live": {"pt": "Aula ao vivo, pergunta a pergunta", "en": "Live quiz, question by question"},
    "figures": {"pt": "{answered} respostas · {right} de acerto · tempo mediano {seconds}",
                "en": "{answered} answers · {right} right · median time {seconds}"},
    "no_time": {"pt": "–", "en": "–"},
    "held_by": {"pt": "{belief}: {times}× · {n} com o erro ({names})",
                "en": "{belief}: {times}× · held by {n} ({names})"},
    "held_by_none": {"pt": "{belief}: {times}× · ninguém com o erro (deslizes)",
                     "en": "{belief}: {times}× · held by nobody (slips)"},
    "clear": {"pt": "Sem erros de concepção persistentes.", "en": "No misconception persists."},
    "still": {"pt": "ainda mostra:", "en": "still shows:"},
    "rule": {"pt": "A regra:", "en": "The rule:"},
    "lesson_link": {"pt": "rever a lição", "en": "review the lesson"},
    "chose": {"pt": "Escolheu «{chosen}»; a resposta era «{right}».",
              "en": "Chose “{chosen}”; the answer was “{right}”."},
    "her_last": {"pt": "As últimas respostas erradas, como ela as viu:",
                 "en": "Her last wrong answers, as she saw them:"},
    "popular": {"pt": "A escolha errada mais comum: «{choice}» ({n}), {belief}.",
                "en": "The most popular wrong choice: “{choice}” ({n}), {belief}."},
    "popular_slip": {"pt": "A escolha errada mais comum: «{choice}» ({n}), um deslize.",
                     "en": "The most popular wrong choice: “{choice}” ({n}), a slip."},
    "say": {"pt": "Para dizer à turma:", "en": "To say to the class:"},
    "everyone_right": {"pt": "Todos acertaram.", "en": "Everyone was right."},
    "csv_answers": {"pt": "Baixar as respostas (CSV)", "en": "Download the answers (CSV)"},
    "csv_items": {"pt": "Baixar o relatório por item (CSV)", "en": "Download the item report (CSV)"},
}


SUMMARY = "min-height:44px;padding:10px 0;cursor:pointer"  # a finger's tap target (44 px)


def t(key: str, lang: str, **fields) -> str:
    return translate(TEXT, key, lang, **fields)


def _percent(value: float, lang: str) -> str:
    return f"{value:.0f}%"


def _seconds(value: float | None, lang: str) -> str:
    if value is None:
        return t("no_time", lang)
    text = f"{value:.1f} s"
    return text.replace(".", ",") if lang == "pt" else text


def _names(ids, names: dict[str, str]) -> str:
    return ", ".join(names.get(i, i) for i in ids)


def skill_name(key: str, lang: str) -> str:
    skill = BY_KEY.get(key)
    return skill.name[lang] if skill else (key or "–")


def skill_sentences(report: insight.Insight, names: dict[str, str], lang: str) -> list[str]:
    """One plain sentence per skill: what the class misunderstands there and who still does."""
    out = []
    for item in report.skills:
        fields = {"skill": skill_name(item.key, lang), "right": _percent(item.percent_right, lang)}
        held = [h for h in item.misconceptions if h.learners]
        if held:
            top = held[0]
            out.append(t("sentence_held", lang, n=len(top.learners),
                         who=t("one_thinks" if len(top.learners) == 1 else "many_think", lang),
                         belief=unescape(questions.misconception(top.key).text[lang]),
                         names=_names(top.learners, names),
                         **fields))
        else:
            out.append(t("sentence_clear", lang, **fields))
    return out


def _held_list(item: insight.Item, names: dict[str, str], lang: str) -> str:
    if not item.misconceptions:
        return f"<li>{escape(t('clear', lang))}</li>"
    rows = []
    for held in item.misconceptions:
        belief = questions.misconception(held.key).text[lang]  # the catalogue's own (escaped) HTML
        if held.learners:
            text = t("held_by", lang, belief="\0", times=held.times, n=len(held.learners),
                     names=_names(held.learners, names))
        else:
            text = t("held_by_none", lang, belief="\0", times=held.times)
        rows.append(f"<li data-misconception='{escape(held.key)}' data-learners='{len(held.learners)}'>"
                    f"{escape(text).replace(chr(0), f'<b>{belief}</b>')}</li>")
    return "".join(rows)


def _items_html(items, names: dict[str, str], lang: str, title) -> str:
    parts = []
    for item in items:
        figures = t("figures", lang, answered=item.answered, right=_percent(item.percent_right, lang),
                    seconds=_seconds(item.median_seconds, lang))
        parts.append(f"<li class='cartas-insight-item' data-key='{escape(item.key)}'>"
                     f"<b>{escape(title(item.key))}</b> <span>{escape(figures)}</span>"
                     f"<ul>{_held_list(item, names, lang)}</ul></li>")
    return "<ul class='cartas-insight-list'>" + "".join(parts) + "</ul>"


def _label(question, value: str, lang: str) -> str:
    from classroom.answers import value_text
    for choice in question.choices:
        if value_text(choice.value) == value:
            return choice.label[lang]
    return escape(value)


def _replayed(answer, lang: str) -> str:
    """A wrong answer as she saw it: the question made again, her choice and the right one."""
    from classroom.answers import value_text
    question = answer.question()
    if question is None:
        return ""
    chose = t("chose", lang, chosen="\0", right="\1")
    chose = escape(chose).replace("\0", _label(question, answer.chosen, lang)).replace(
        "\1", _label(question, value_text(question.answer), lang))
    return (f"<li class='cartas-insight-replay' data-kind='{escape(answer.kind)}' data-seed='{answer.seed}'>"
            f"<div>{question.prompt[lang]}</div><div><i>{chose}</i></div></li>")


def _learners_html(report: insight.Insight, names: dict[str, str], lang: str) -> str:
    parts = []
    for person in report.learners:
        if not person.holds:
            continue
        rows = []
        for key, last in person.holds:
            m = questions.misconception(key)
            replays = "".join(_replayed(a, lang) for a in last)
            rows.append(f"<li data-misconception='{escape(key)}'><b>{m.text[lang]}</b><br>"
                        f"{escape(t('rule', lang))} {m.rule[lang]} "
                        f"<a href='{escape(m.link(lang))}' target='_blank'>{escape(t('lesson_link', lang))}</a>"
                        f"<div style='font-size:13px'>{escape(t('her_last', lang))}</div>"
                        f"<ol style='font-size:13px'>{replays}</ol></li>")
        name = names.get(person.learner_id, person.learner_id)
        beliefs = "; ".join(questions.misconception(key).text[lang] for key, _ in person.holds)
        parts.append(f"<li class='cartas-insight-learner' data-learner='{escape(person.learner_id)}'>"
                     f"<details><summary style='{SUMMARY}'><b>{escape(name)}</b> {escape(t('still', lang))} "
                     f"{beliefs}</summary><ul>{''.join(rows)}</ul></details></li>")
    if not parts:
        return f"<p>{escape(t('clear', lang))}</p>"
    return "<ul class='cartas-insight-list'>" + "".join(parts) + "</ul>"


def live_html(question: insight.LiveQuestion, lang: str) -> str:
    """One live-quiz question: its choices with how many chose each, and the popular wrong one
    named with the sentence to say (also what the projector shows once the answer is out)."""
    made = None
    if question.kind and question.seed is not None:
        import numpy as np
        kind = questions.find_kind(question.kind)
        made = kind.make(np.random.default_rng(question.seed), question.variant or None)
    bars = []
    for value, n in zip(question.choices, question.counts):
        label = _label(made, value, lang) if made is not None else escape(value)
        mark = " ✓" if value == question.answer else ""
        bars.append(f"<li data-choice='{escape(value)}' data-count='{n}'>{label}{mark}: <b>{n}</b></li>")
    prompt = f"<div>{made.prompt[lang]}</div>" if made is not None else ""
    if question.popular_wrong is None:
        said = f"<p>{escape(t('everyone_right', lang))}</p>"
    else:
        n = question.counts[question.choices.index(question.popular_wrong)] \
            if question.popular_wrong in question.choices else 0
        choice = _label(made, question.popular_wrong, lang) if made is not None else escape(question.popular_wrong)
        key = question.popular_misconception
        if key is None or key == questions.SLIP:
            said = f"<p>{escape(t('popular_slip', lang, choice=chr(0), n=n)).replace(chr(0), choice)}</p>"
        else:
            m = questions.misconception(key)
            popular = escape(t("popular", lang, choice="\0", n=n, belief="\1"))
            said = (f"<p class='cartas-insight-popular' data-misconception='{escape(key)}'>"
                    f"{popular.replace(chr(0), choice).replace(chr(1), m.text[lang])}"
                    f"<br><b>{escape(t('say', lang))}</b> {m.rule[lang]}</p>")
    return (f"<div class='cartas-insight-live' data-context='{escape(question.context)}'>{prompt}"
            f"<ul>{''.join(bars)}</ul>{said}</div>")


def projector_html(board: dict, question, lang: str) -> str:
    """On the projector, once a lesson question's answer is shown: its most popular wrong
    choice, the misconception it reveals and the sentence to say to the class ("" when nobody
    was wrong, or for a question that names none, a scenario's)."""
    counts, right = board.get("counts") or [], board.get("answer")
    if question is None or not isinstance(right, int) or len(counts) != len(question.choices):
        return ""
    k = insight.popular_wrong(counts, right)
    if k is None:
        return ""
    choice = question.choices[k]
    if choice.misconception in (None, questions.SLIP):
        text = f"{escape(t('popular_slip', lang, choice=chr(0), n=counts[k])).replace(chr(0), choice.label[lang])}"
        return f"<div class='cartas-live-popular' data-option='{k}'>{text}</div>"
    m = questions.misconception(choice.misconception)
    popular = escape(t("popular", lang, choice="\0", n=counts[k], belief="\1"))
    return (f"<div class='cartas-live-popular' data-option='{k}' data-misconception='{escape(m.key)}' "
            f"style='font-size:19px;background:#fff3e0;padding:8px;border-radius:6px;margin-top:8px'>"
            f"{popular.replace(chr(0), choice.label[lang]).replace(chr(1), m.text[lang])}"
            f"<br><b>{escape(t('say', lang))}</b> {m.rule[lang]}</div>")


def insight_html(report: insight.Insight, names: dict[str, str], lang: str) -> str:
    """The whole report as HTML (see the module's rules)."""
    if not report.learners:
        return f"<p class='cartas-insight-empty'>{escape(t('nothing', lang))}</p>"
    sentences = "".join(f"<li>{escape(s)}</li>" for s in skill_sentences(report, names, lang))
    lessons = {k.key: k.lesson for k in questions.all_kinds()}
    titles = {lesson.key: lesson.title[lang] for lesson in LESSONS}

    def kind_title(key: str) -> str:
        kind = questions.find_kind(key)
        return f"{titles.get(lessons[key], lessons[key])} · {skill_name(kind.skill, lang)} ({key.split('.', 1)[1]})"

    live = "".join(live_html(q, lang) for q in report.live)
    return (f"<div class='cartas-insight' lang='{lang}' style='font-size:15px;overflow-wrap:anywhere'>"
            f"<h4>{escape(t('head', lang))}</h4>"
            f"<h5>{escape(t('summary', lang))}</h5><ul class='cartas-insight-sentences'>{sentences}</ul>"
            f"<h5>{escape(t('skills', lang))}</h5>"
            f"{_items_html(report.skills, names, lang, lambda key: skill_name(key, lang))}"
            f"<details><summary style='{SUMMARY}'><b>{escape(t('kinds', lang))}</b></summary>"
            f"{_items_html(report.kinds, names, lang, kind_title)}</details>"
            f"<h5>{escape(t('learners', lang))}</h5>{_learners_html(report, names, lang)}"
            + (f"<h5>{escape(t('live', lang))}</h5>{live}" if live else "") + "</div>")


class InsightPanel(w.VBox):
    """The insight inside the class view `view` (a View: its language and store)."""

    def __init__(self, view):
        super().__init__(_dom_classes=("cartas-insight-panel",))
        self.view = view
        self.code: str | None = None
        self.names: dict[str, str] = {}
        self.answers: list = []
        self.report: insight.Insight | None = None
        self._seen: tuple | None = None
        self.body = w.HTML().add_class("cartas-insight-body")
        self.download = w.HTML().add_class("cartas-insight-csv")
        self.children = [self.body, self.download]

    def show(self, code: str, names: dict[str, str]) -> None:
        """Read the class's answers (through the classroom interface) and draw the report."""
        answers = self.view._store().class_answers(code)
        seen = (code, len(answers), max((a.at for a in answers), default=0.0))
        self.code, self.names = code, dict(names)
        if seen != self._seen:
            self.answers, self.report, self._seen = answers, insight.report(answers), seen
        self.redraw()

    def redraw(self) -> None:
        lang = self.view.lang
        if self.report is None or self.code is None:
            self.body.value = self.download.value = ""
            return
        self.body.value = insight_html(self.report, self.names, lang)
        if not self.answers:
            self.download.value = ""
            return
        code = escape(self.code)
        answers = quote(insight.answers_csv(self.answers, self.names))
        items = quote(insight.items_csv(self.report, self.names))
        self.download.value = (
            f"<a class='cartas-insight-csv-answers' download='respostas-{code}.csv' "
            f"href='data:text/csv;charset=utf-8,{answers}'>{escape(t('csv_answers', lang))}</a> · "
            f"<a class='cartas-insight-csv-items' download='itens-{code}.csv' "
            f"href='data:text/csv;charset=utf-8,{items}'>{escape(t('csv_items', lang))}</a>")
