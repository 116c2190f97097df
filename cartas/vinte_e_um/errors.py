"""21's refusals: one family, `VinteEUmError(RuleError)`, rendered from the 21 catalogue.

Every set-up check (players, chips, packs, seeds...), every refused action (`IllegalAction`),
every refused saved state (`from_json`) and every refused odds question raises a
`VinteEUmError` with a `code` (a key of `cartas.vinte_e_um.catalogue.CATALOGUE`) and fields;
`error.message("pt")` / `error.message("en")` render it, and `str(error)` is the English.

Fields are language-neutral values; `message` renders a few of them per language: `kind`
(an action kind), `expected` (kinds), `phase`, `waiting` (seats), `field` for the
action's number ("amount"/"seat"), `rule` (why a saved state is refused), and adds
`<name>_s` plural endings for every whole-number field.
"""
from __future__ import annotations

from ..errors import RuleError
from .catalogue import CATALOGUE


def shown(value: object, limit: int = 40) -> str:
    """A value as a learner may read it in a refusal: its repr, cut short when long."""
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails still gets named
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def render_fields(fields: dict[str, object], lang: str) -> dict[str, object]:
    """Fields ready for a template in `lang` (see the module docstring)."""
    say = CATALOGUE.say
    data = dict(fields)
    for name, value in fields.items():
        if isinstance(value, RuleError):  # a refusal wrapped by this one, in the same language
            data[name] = value.message(lang)
        if isinstance(value, int) and not isinstance(value, bool):
            data[name + "_s"] = "" if value == 1 else "s"
    if "kind" in data and f"kind.{data['kind']}" in CATALOGUE:
        data["kind"] = say(f"kind.{data['kind']}", lang)
    if "expected" in data and isinstance(data["expected"], (list, tuple)):
        data["expected"] = say("word.or", lang).join(
            f"“{say('kind.' + k, lang)}”" if lang == "pt" else repr(k) for k in data["expected"])
    if "phase" in data and f"phase.{data['phase']}" in CATALOGUE:
        data["phase"] = say(f"phase.{data['phase']}", lang)
    if "field" in data and f"field.{data['field']}" in CATALOGUE:
        data["field"] = say(f"field.{data['field']}", lang)
    if "waiting" in data and isinstance(data["waiting"], (list, tuple)):
        data["waiting"] = ", ".join(map(str, data["waiting"])) or say("word.nobody", lang)
    if "rule" in data and f"rule.{data['rule']}" in CATALOGUE:
        data["rule"] = say(f"rule.{data['rule']}", lang, **{k: v for k, v in fields.items()
                                                              if k != "rule"})
    return data


class VinteEUmError(RuleError):
    """A 21 input the rules refuse (a table, a deal, a viewer, a saved state...)."""

    catalogue = CATALOGUE

    def message(self, lang: str = "pt") -> str:
        """The reason in `lang` ("pt" or "en")."""
        return self.catalogue.say(self.code, lang, **render_fields(self.fields, lang))


class IllegalAction(VinteEUmError):
    """An action the rules do not allow now; the message says why. The state is unchanged."""
