"""The teacher's check before and after (issue 32, item 4; classroom.checks).

Decided rules (docs/rules.md#check-before-after, docs/rules.md#check-gain):
- The class opens with its code and teacher key, as the class view opens
  (`classroom.classes.open_class`); under JupyterHub with the class's hub group alone (the class
  service checks that she teaches it).
- She ticks the skills to check (those some question kind trains) and the number of questions
  (MIN_SIZE to MAX_SIZE) and opens the check: its "before" phase is open; the learners take it on
  their phones (`verificacao_aluno.ipynb`). After the unit she opens the "after" phase (the same
  kinds, other deals) and, at the end, closes the check.
- Results, read again by "Atualizar" (no timer): per skill and for the class, the mean share
  right before and after over the matched learners (those who took both phases), and the
  normalized gain; when before is 1 the gain is "—" and the page says why (no room to gain). Then
  the misconceptions that vanished and those that stayed, named in the page's language, with how
  many learners showed each before and still do.
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

from classroom import checks as rules, hub_user
from classroom.classes import NotAllowed
from classroom.mastery import BY_KEY
from classroom.store import StoreError
from widgets.components.base import View
from widgets.components.opening import OPENING_TEXT, draw_opening

TEXT = {
    "title": {"pt": "Verificação antes e depois (professor)", "en": "Check before and after (teacher)"},
    **OPENING_TEXT,
    "skills": {"pt": "Habilidades a verificar", "en": "Skills to check"},
    "size": {"pt": "Perguntas", "en": "Questions"},
    "open": {"pt": "Abrir a verificação (antes)", "en": "Open the check (before)"},
    "after": {"pt": "Abrir a fase depois", "en": "Open the after phase"},
    "close": {"pt": "Encerrar a verificação", "en": "Close the check"},
    "refresh": {"pt": "Atualizar os resultados", "en": "Refresh the results"},
    "no_skill": {"pt": "Marque pelo menos uma habilidade.", "en": "Tick at least one skill."},
    "opened": {"pt": "Verificação {id} da turma {code}: fase «{phase}». Os alunos abrem {link}.",
               "en": "Check {id} of class {code}: “{phase}” phase. Learners open {link}."},
    "phase_before": {"pt": "antes", "en": "before"},
    "phase_after": {"pt": "depois", "en": "after"},
    "phase_closed": {"pt": "encerrada", "en": "closed"},
    "matched": {"pt": "Alunos que fizeram as duas fases: {n}.", "en": "Learners who took both phases: {n}."},
    "skill": {"pt": "Habilidade", "en": "Skill"},
    "before": {"pt": "Antes", "en": "Before"},
    "after_col": {"pt": "Depois", "en": "After"},
    "gain": {"pt": "Ganho normalizado", "en": "Normalized gain"},
    "class_row": {"pt": "Turma", "en": "Class"},
    "gain_means": {"pt": "Ganho normalizado = (depois − antes) / (1 − antes): a parte do que faltava que a turma "
                         "aprendeu. «—»: já acertavam tudo antes (não há o que ganhar).",
                   "en": "Normalized gain = (after − before) / (1 − before): the share of what was missing that "
                         "the class learned. “—”: all right already before (no room to gain)."},
    "vanished": {"pt": "Equívocos que sumiram", "en": "Misconceptions that vanished"},
    "stayed": {"pt": "Equívocos que ficaram", "en": "Misconceptions that stayed"},
    "held": {"pt": "{before} antes · {after} depois", "en": "{before} before · {after} after"},
    "none": {"pt": "Nenhum.", "en": "None."},
}


def percent(value: float | None) -> str:
    return "—" if value is None else f"{round(100 * value)}%"


def gain_text(value: float | None) -> str:
    return "—" if value is None else f"{value:+.2f}"


class CheckTeacher(View):
    """The teacher's check page (see the module's rules)."""

    TEXT = TEXT

    def __init__(self, lang=None):
        super().__init__(lang=lang)
        self.class_code: str | None = None
        self.check: dict | None = None
        self.found: dict | None = None
        self.intro = w.HTML()
        self.code = w.Text(layout=w.Layout(width="160px")).add_class("cartas-check-class")
        self.key = w.Password(layout=w.Layout(width="200px")).add_class("cartas-check-key")
        self.open_class_button = w.Button(layout=w.Layout(width="160px")).add_class("cartas-check-open-class")
        self.open_class_button.on_click(self.guarded(lambda _: self.open_class(self.code.value, self.key.value)))
        self.skill_boxes = {key: w.Checkbox(value=False, indent=False, layout=w.Layout(width="auto"))
                            .add_class(f"cartas-check-skill-{key}") for key in rules.checkable_skills()}
        self.skills_head = w.HTML()
        self.size = w.Dropdown(options=list(range(rules.MIN_SIZE, rules.MAX_SIZE + 1)), value=rules.DEFAULT_SIZE,
                               layout=w.Layout(width="auto"), style={"description_width": "initial"}
                               ).add_class("cartas-check-size")
        self.open_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-check-open")
        self.after_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-check-after")
        self.close_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-check-close")
        self.refresh_button = w.Button(layout=w.Layout(width="auto")).add_class("cartas-check-refresh")
        self.open_button.on_click(self.guarded(lambda _: self.open_check(
            [k for k, box in self.skill_boxes.items() if box.value], int(self.size.value))))
        self.after_button.on_click(self.guarded(lambda _: self.open_after()))
        self.close_button.on_click(self.guarded(lambda _: self.close()))
        self.refresh_button.on_click(self.guarded(lambda _: self.refresh()))
        self.opening = w.VBox([self.intro, w.HBox([self.code, self.key, self.open_class_button],
                                                  layout=w.Layout(flex_flow="row wrap"))])
        self.compose = w.VBox([self.skills_head, w.VBox(list(self.skill_boxes.values())),
                               w.HBox([self.size, self.open_button], layout=w.Layout(flex_flow="row wrap"))],
                              layout=w.Layout(display="none"))
        self.state = w.HTML().add_class("cartas-check-state")
        self.controls = w.HBox([self.after_button, self.close_button, self.refresh_button],
                               layout=w.Layout(flex_flow="row wrap", display="none"))
        self.results = w.HTML().add_class("cartas-check-results")
        self.draw_title()
        self.children = [self.header(), self.opening, self.message, self.compose, self.state, self.controls,
                         self.results]
        self.redraw()

    # Actions ----------------------------------------------------------------------------
    def _room(self):
        from classroom import open as open_classroom
        return open_classroom()

    def _call(self, action):
        try:
            return action(self._room().checks())
        except StoreError as error:
            raise ValueError(self.t("store_down")) from error

    def open_class(self, code: str, key: str) -> None:
        try:
            made = self._room().open_class(code, key)
        except NotAllowed:
            raise ValueError(self.t("hub_refused" if hub_user() else "refused")) from None
        except StoreError as error:
            raise ValueError(self.t("store_down")) from error
        self.class_code = made.code
        found = self._call(lambda c: c.class_checks(made.code))
        self.check = next((c for c in found if c["phase"] in rules.PHASES), None)
        self.opening.layout.display = "none"
        self.refresh()

    def _class(self) -> str:
        if self.class_code is None:
            raise ValueError(self.t("intro"))
        return self.class_code

    def open_check(self, skills: list[str], size: int = rules.DEFAULT_SIZE) -> dict:
        code = self._class()
        if not skills:
            raise ValueError(self.t("no_skill"))
        self.check = self._call(lambda c: c.open(code, skills, size))
        self.refresh()
        return self.check

    def open_after(self) -> None:
        if self.check is None:
            raise ValueError(self.t("no_skill"))
        ident, code = self.check["id"], self._class()
        self.check = self._call(lambda c: c.open_after(code, ident))
        self.refresh()

    def close(self) -> None:
        if self.check is None:
            raise ValueError(self.t("no_skill"))
        ident, code = self.check["id"], self._class()
        self.check = self._call(lambda c: c.close(code, ident))
        self.refresh()

    def refresh(self) -> None:
        """Read the open check's results again."""
        if self.check is not None and self.class_code is not None:
            ident, code = self.check["id"], self.class_code
            self.found = self._call(lambda c: c.results(code, ident))
        self.redraw()

    # Drawing ----------------------------------------------------------------------------
    def redraw(self) -> None:
        self.draw_title()
        lang, hub = self.lang, hub_user() is not None
        draw_opening(self, hub)
        self.skills_head.value = f"<b>{escape(self.t('skills'))}</b>"
        for key, box in self.skill_boxes.items():
            box.description = BY_KEY[key].name[lang]
        self.size.description = self.t("size")
        self.open_button.description = self.t("open")
        self.after_button.description = self.t("after")
        self.close_button.description = self.t("close")
        self.refresh_button.description = self.t("refresh")
        opened = self.class_code is not None
        check = self.check
        self.compose.layout.display = "" if opened and (check is None or check["phase"] == "closed") else "none"
        self.controls.layout.display = "" if check is not None else "none"
        self.after_button.layout.display = "" if check is not None and check["phase"] == "before" else "none"
        self.close_button.layout.display = "" if check is not None and check["phase"] != "closed" else "none"
        if check is None:
            self.state.value = self.results.value = ""
            return
        self.state.value = (f"<div data-check='{escape(check['id'])}' data-phase='{escape(check['phase'])}' "
                            f"data-seed-before='{check['seeds']['before']}' "
                            f"data-seed-after='{check['seeds']['after']}' "
                            f"style='font-size:16px;margin:6px 0'>"
                            f"{escape(self.t('opened', id=check['id'], code=self.class_code or '', phase=self.t('phase_' + check['phase']), link='verificacao_aluno.ipynb'))}"  # noqa: E501
                            "</div>")
        self.results.value = self.results_html(self.found) if self.found else ""

    def results_html(self, found: dict) -> str:
        lang = self.lang
        rows = []
        for skill, row in found["by_skill"].items():
            rows.append(f"<tr><th scope='row'>{escape(row['name'][lang])}</th><td>{percent(row['before'])}</td>"
                        f"<td>{percent(row['after'])}</td><td data-skill='{escape(skill)}'>"
                        f"{gain_text(row['gain'])}</td></tr>")
        whole = found["class"]
        rows.append(f"<tr><th scope='row'>{escape(self.t('class_row'))}</th><td>{percent(whole['before'])}</td>"
                    f"<td>{percent(whole['after'])}</td><td class='cartas-check-gain'>{gain_text(whole['gain'])}"
                    "</td></tr>")
        head = "".join(f"<th scope='col'>{escape(self.t(k))}</th>" for k in ("skill", "before", "after_col", "gain"))
        table = (f"<table class='cartas-check-table' style='border-collapse:collapse;font-size:15px'>"
                 f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")

        def listed(key: str) -> str:
            items = "".join(f"<li data-misconception='{escape(e['key'])}'>{escape(e['name'][lang])} "
                            f"<span style='color:#555'>({escape(self.t('held', before=e['before'], after=e['after']))})"
                            "</span></li>" for e in found[key])
            body = f"<ul>{items}</ul>" if items else f"<p>{escape(self.t('none'))}</p>"
            return (f"<div class='cartas-check-{key}'><h3 style='margin:8px 0 2px'>{escape(self.t(key))}</h3>"
                    f"{body}</div>")
        return (f"<div data-matched='{found['matched']}'><p>{escape(self.t('matched', n=found['matched']))}</p>"
                f"{table}<p style='font-size:13px;color:#444'>{escape(self.t('gain_means'))}</p>"
                f"{listed('vanished')}{listed('stayed')}</div>")
