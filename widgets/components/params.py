"""The dashboards' URL parameters, read and checked before any view uses them.

A learner (or anyone with a link) can put anything in a URL, so a view never converts a
parameter itself: it asks a reader here, which returns a `Reading` (the value to use and, when
the text was refused, the `ParamError` that says why and what is used instead). A refused
parameter never fails a cell: the view falls back to the default and says so in its notice
(`View.from_url`), in the page's language.

Decided rules (one per parameter; every reader bounds the text it looks at):

- `?semente=` (the seed of a table created on `mesa.ipynb`, and of the game on the "play"
  dashboards `jogar_truco` and `jogar_21`: the same link deals the same cards, and the bots
  choose the same, so a teacher can have the class play one deal and talk it over): a whole
  number from 0 to `MAX_SEED`, written in ASCII digits (no "²", no "٣", no sign, no exponent).
  Anything else: a seed drawn at random, and the notice says so.
- `?ritmo=` (seconds between bot moves, every "play" dashboard and `mesa.ipynb`): a decimal
  number from 0 to `MAX_PACE`, with a point or a comma ("0.3", "0,3"), at most
  `PACE_DECIMALS` decimals. Anything else (nan, inf, 1e309, -1, 9): the usual pace.
- `?lang=` (every dashboard): its first two letters, in any case, are "pt" or "en" ("en-GB"
  is English), which is how the page's script in the browser decides (`widgets.components.page`), so the
  two never disagree. Anything else: Portuguese, and the notice says so in both languages.
- `?nivel=` (the bots' level, `jogar_truco` and `jogar_21`): one of the engine's levels
  (`cartas.games.LEVELS`), by its key ("easy", "rule", "strong") or by its name in either
  language ("Fácil", "Médio", "Forte", "Easy", "Medium", "Strong"), in any case and with or
  without its accents ("facil", "MEDIO"); at most `LEVEL_LIMIT` characters. Anything else
  (an unknown word, control characters, a level twice as "forteforte"): the default level
  (`cartas.games.DEFAULT_LEVEL`, "Médio"), and the notice names the levels accepted. Given
  twice (`?nivel=facil&nivel=forte`), it is refused too, and the default level is used (the
  other parameters keep their last value, `i18n.query_parameters`).
- `?mesa=` (a table code): what `classroom.tables.clean_code` accepts. Anything else: the lobby,
  and the notice names the code's shape.
- `?tarefa=` (a homework, `tarefa.ipynb`): what `classroom.homework.clean_id` accepts (8
  letters or digits of the class-code alphabet). Anything else: no homework, and the notice
  names the code's shape; whether it exists and is the learner's class's the store says.
- `?tarefa=` on a play dashboard (`jogar_truco`, `jogar_21`; the homework links of older
  versions): whatever its value, the game is played as without it and the notice says that a
  homework game against the bots is played on the homework's page ("Jogar aqui"): there the
  store deals it (docs/rules.md#homework-games), and a game of this page never counts.
- `?codigo=` (a live session's join code, `aula_aluno.ipynb`): what `classroom.live.clean_code`
  accepts. Anything else: the page asks for the code, and the notice names the code's shape.
- `?cenario=` (a scenario link): at most `cartas.scenario.MAX_LINK` characters; its content
  is checked by `cartas.scenario`, whose refusal the builder shows.
- A text longer than its reader's limit is refused by its length alone, before it is parsed;
  a value is shown back (escaped by the view) cut to `SHOWN` characters, with characters that
  cannot be printed replaced by "?".
"""
from __future__ import annotations

import re
from typing import Any, NamedTuple

from cartas.catalogue import Catalogue
from cartas.errors import RuleError
from widgets.components.i18n import DEFAULT, HOMEWORK_PARAM, LANGUAGES, query_parameters

MAX_SEED = 2**31 - 1    # fits every seed box (a 32-bit integer in the browser) and the store
MAX_PACE = 5.0          # seconds between bot moves, at most
PACE_DECIMALS = 3
SHOWN = 24              # characters of a refused value shown back
NUMBER_LIMIT = 32       # characters a number's text may have before it is refused unread
CODE_LIMIT = 40         # characters a table code's text may have (with spaces and dashes)
LEVEL_LIMIT = 16        # characters a level's text may have before it is refused unread

CATALOGUE = Catalogue("params", {
    "too_long": ("O endereço traz ?{name}= com {length} caracteres, mais que os {limit} aceitos: {fallback}.",
                 "The address has ?{name}= with {length} characters, more than the {limit} accepted: "
                 "{fallback}."),
    "not_whole": ("O endereço traz ?{name}={shown}, que não é um número inteiro (só algarismos de 0 a 9): "
                  "{fallback}.",
                  "The address has ?{name}={shown}, which is not a whole number (digits 0 to 9 only): "
                  "{fallback}."),
    "not_decimal": ("O endereço traz ?{name}={shown}, que não é um número como 0,5: {fallback}.",
                    "The address has ?{name}={shown}, which is not a number such as 0.5: {fallback}."),
    "out_of_range": ("O endereço traz ?{name}={shown}, fora do intervalo de {low} a {high}: {fallback}.",
                     "The address has ?{name}={shown}, outside the range {low} to {high}: {fallback}."),
    "unknown_language": ("O endereço traz ?lang={shown}, que não é pt nem en: a página abre em português. "
                         "(The address has ?lang={shown}, which is neither pt nor en: the page opens in "
                         "Portuguese.)",
                         "The address has ?lang={shown}, which is neither pt nor en: the page opens in "
                         "Portuguese."),
    "bad_code": ("O endereço traz ?{name}={shown}, que não é um código de mesa ({n} letras ou algarismos, "
                 "como AB-CDE): {fallback}.",
                 "The address has ?{name}={shown}, which is not a table code ({n} letters or digits, "
                 "such as AB-CDE): {fallback}."),
    "bad_homework": ("O endereço traz ?{name}={shown}, que não é um código de tarefa ({n} letras ou "
                     "algarismos): {fallback}.",
                     "The address has ?{name}={shown}, which is not a homework code ({n} letters or digits): "
                     "{fallback}."),
    "fallback_homework": ("abra a tarefa pelo índice", "open the homework from the index"),
    "homework_elsewhere": ("O endereço traz ?{name}=, mas as partidas da tarefa contra os robôs se jogam na "
                           "página da tarefa, em «Jogar aqui»: {fallback}.",
                           "The address has ?{name}=, but homework games against the bots are played on the "
                           "homework's page, with “Play here”: {fallback}."),
    "fallback_homework_game": ("esta partida não conta para a tarefa", "this game does not count for the homework"),
    "bad_live_code": ("O endereço traz ?{name}={shown}, que não é um código de aula ({n} letras ou algarismos, "
                      "como AB23): {fallback}.",
                      "The address has ?{name}={shown}, which is not a live session code ({n} letters or digits, "
                      "such as AB23): {fallback}."),
    "fallback_live": ("digite o código que aparece no projetor", "type the code shown on the projector"),
    "bad_tournament": ("O endereço traz ?{name}={shown}, que não é um código de torneio ({n} letras ou "
                       "algarismos): {fallback}.",
                       "The address has ?{name}={shown}, which is not a tournament code ({n} letters or digits): "
                       "{fallback}."),
    "fallback_tournament": ("a página mostra o torneio da sua turma", "the page shows your class's tournament"),
    "unknown_level": ("O endereço traz ?{name}={shown}, que não é um nível dos robôs ({choices}): {fallback}.",
                      "The address has ?{name}={shown}, which is not a bots' level ({choices}): {fallback}."),
    "repeated": ("O endereço traz ?{name}= {count} vezes, e só se aceita uma: {fallback}.",
                 "The address has ?{name}= {count} times, and only one is accepted: {fallback}."),
    "fallback_level": ("os robôs jogam no nível de sempre ({level})", "the bots play at the usual level ({level})"),
    "fallback_seed": ("a mesa usa uma semente sorteada", "the table uses a random seed"),
    "fallback_game_seed": ("o jogo usa uma semente sorteada", "the game uses a random seed"),
    "fallback_pace": ("os robôs jogam no ritmo de sempre ({value} s)",
                      "the bots play at the usual pace ({value} s)"),
    "fallback_table": ("crie uma mesa ou digite o código abaixo", "create a table or type its code below"),
    "fallback_scenario": ("o construtor abre sem cenário", "the builder opens without a scenario"),
    "not_a_count": ("O endereço traz ?{name}={shown}, mas o jogo se joga com {choices} jogadores: {fallback}.",
                    "The address has ?{name}={shown}, but the game is played by {choices_en} players: "
                    "{fallback}."),
    "fallback_players": ("o jogo é de {value} jogadores", "the game has {value} players"),
})


class ParamError(RuleError):
    """A URL parameter refused: `code` names why, `fallback` (a `fallback_*` entry) what the
    page uses instead, rendered in the same language."""

    catalogue = CATALOGUE

    def message(self, lang: str = "pt") -> str:
        fields: dict[str, Any] = dict(self.fields)
        fallback = fields.pop("fallback", None)
        extra = {key: _decimal_text(value, lang) if isinstance(value, float) else value
                 for key, value in dict(fields.pop("fallback_fields", None) or {}).items()}
        if "level" in extra:  # a bots' level, by its key: named in `lang`
            from cartas.games import level_name
            extra["level"] = level_name(str(extra["level"]), lang)
        if isinstance(fallback, str):
            fields["fallback"] = CATALOGUE.say(f"fallback_{fallback}", lang, **extra)
        for key in ("low", "high"):
            if isinstance(fields.get(key), float):
                fields[key] = _decimal_text(fields[key], lang)
        return CATALOGUE.say(self.code, lang, **fields)


class Reading(NamedTuple):
    """A parameter as read: the `value` to use, and the `problem` when the text was refused
    (None when it was absent or accepted)."""

    value: Any
    problem: ParamError | None = None


def shown(text: str) -> str:
    """`text` as a notice shows it: at most SHOWN characters (then "…"), every character that
    cannot be printed as "?"."""
    cut = "".join(ch if ch.isprintable() else "?" for ch in text[:SHOWN])
    return cut + ("…" if len(text) > SHOWN else "")


def _decimal_text(value: float, lang: str) -> str:
    text = f"{value:g}"
    return text.replace(".", ",") if lang == "pt" else text


def _too_long(name: str, text: str, limit: int, fallback: str, **fallback_fields) -> ParamError | None:
    if len(text) <= limit:
        return None
    return ParamError("too_long", name=name, length=len(text), limit=limit, fallback=fallback,
                      fallback_fields=fallback_fields)


_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?[0-9]+(?:[.,][0-9]+)?", re.ASCII)


# Readers of one text ---------------------------------------------------------------------
def whole_number(name: str, text: str | None, low: int, high: int, default: Any, fallback: str) -> Reading:
    """`text` as a whole number from `low` to `high` (ASCII digits, an optional sign); None
    gives `default` quietly, a refused text `default` with its ParamError."""
    if text is None:
        return Reading(default)
    text = text.strip()
    problem = _too_long(name, text, NUMBER_LIMIT, fallback)
    if problem is None and not _WHOLE.fullmatch(text):
        problem = ParamError("not_whole", name=name, shown=shown(text), fallback=fallback)
    if problem is None:
        value = int(text)  # at most NUMBER_LIMIT ASCII digits: cheap and cannot fail
        if low <= value <= high:
            return Reading(value)
        problem = ParamError("out_of_range", name=name, shown=shown(text), low=low, high=high,
                             fallback=fallback)
    return Reading(default, problem)


def decimal_number(name: str, text: str | None, low: float, high: float, default: float,
                   fallback: str, decimals: int = PACE_DECIMALS) -> Reading:
    """`text` as a decimal number from `low` to `high`, a point or a comma before at most
    `decimals` decimals (no exponent, no nan or inf); None gives `default` quietly, a refused
    text `default` with its ParamError (whose fallback names the default)."""
    if text is None:
        return Reading(default)
    text = text.strip()
    say_default = {"value": default}
    problem = _too_long(name, text, NUMBER_LIMIT, fallback, **say_default)
    if problem is None:
        whole, _, decimal = text.replace(",", ".").partition(".")
        if not _DECIMAL.fullmatch(text) or len(decimal) > decimals:
            problem = ParamError("not_decimal", name=name, shown=shown(text), fallback=fallback,
                                 fallback_fields=say_default)
    if problem is None:
        value = float(text.replace(",", "."))
        if low <= value <= high:
            return Reading(value)
        problem = ParamError("out_of_range", name=name, shown=shown(text), low=float(low),
                             high=float(high), fallback=fallback, fallback_fields=say_default)
    return Reading(default, problem)


def language_tag(text: str | None) -> Reading:
    """`text`'s first two letters as "pt" or "en" (the browser's rule, see the module);
    None gives the default quietly, anything else the default with its ParamError."""
    if text is None:
        return Reading(DEFAULT)
    lang = text.strip()[:2].lower()
    if lang in LANGUAGES:
        return Reading(lang)
    return Reading(DEFAULT, ParamError("unknown_language", name="lang", shown=shown(text.strip())))


def table_code(name: str, text: str | None) -> Reading:
    """`text` as a table code (`classroom.tables.clean_code`), or None with its ParamError;
    None or an empty text gives None quietly."""
    from classroom.tables import CODE_LENGTH, TableError, clean_code

    if text is None or not text.strip():
        return Reading(None)
    problem = _too_long(name, text, CODE_LIMIT, "table")
    if problem is None:
        try:
            return Reading(clean_code(text))
        except TableError:
            problem = ParamError("bad_code", name=name, shown=shown(text.strip()), n=CODE_LENGTH,
                                 fallback="table")
    return Reading(None, problem)


def homework_code(name: str, text: str | None) -> Reading:
    """`text` as a homework code (`classroom.homework.clean_id`), or None with its
    ParamError; None or an empty text gives None quietly."""
    from classroom.homework import ID_LENGTH, HomeworkError, clean_id

    if text is None or not text.strip():
        return Reading(None)
    problem = _too_long(name, text, CODE_LIMIT, "homework")
    if problem is None:
        try:
            return Reading(clean_id(text))
        except HomeworkError:
            problem = ParamError("bad_homework", name=name, shown=shown(text.strip()), n=ID_LENGTH,
                                 fallback="homework")
    return Reading(None, problem)


def live_code(name: str, text: str | None) -> Reading:
    """`text` as a live session's code (`classroom.live.clean_code`), or None with its
    ParamError; None or an empty text gives None quietly."""
    from classroom.live import CODE_LENGTH, LiveError, clean_code

    if text is None or not text.strip():
        return Reading(None)
    problem = _too_long(name, text, CODE_LIMIT, "live")
    if problem is None:
        try:
            return Reading(clean_code(text))
        except LiveError:
            problem = ParamError("bad_live_code", name=name, shown=shown(text.strip()), n=CODE_LENGTH,
                                 fallback="live")
    return Reading(None, problem)


def tournament_code(name: str, text: str | None) -> Reading:
    """`text` as a tournament's code (CODE_LENGTH letters or digits of its alphabet, any case),
    or None with its ParamError; None or an empty text gives None quietly."""
    from classroom.tournament import CODE_ALPHABET, CODE_LENGTH

    if text is None or not text.strip():
        return Reading(None)
    problem = _too_long(name, text, CODE_LIMIT, "tournament")
    if problem is None:
        code = text.strip().upper()
        if len(code) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in code):
            return Reading(code)
        problem = ParamError("bad_tournament", name=name, shown=shown(text.strip()), n=CODE_LENGTH,
                             fallback="tournament")
    return Reading(None, problem)


def _folded(text: str) -> str:
    """`text` in lower case without its accents ("Médio" -> "medio"): canonical decomposition
    only, so a look-alike (full-width "ｆｏｒｔｅ") stays different and is refused."""
    import unicodedata
    return "".join(ch for ch in unicodedata.normalize("NFD", text)
                   if unicodedata.category(ch) != "Mn").casefold()


def bot_level(name: str, text: str | None) -> Reading:
    """`text` as one of the engine's bot levels (`cartas.games.LEVELS`), named by its key or
    by its name in either language, any case, accents optional (see the module); None or an
    empty text gives the default level quietly, a refused text the default with its ParamError."""
    from cartas.games import DEFAULT_LEVEL, LEVELS, level_name

    if text is None or not text.strip():
        return Reading(DEFAULT_LEVEL)
    text = text.strip()
    say_default = {"level": DEFAULT_LEVEL}  # named in the notice's language (`ParamError.message`)
    problem = _too_long(name, text, LEVEL_LIMIT, "level", **say_default)
    if problem is None:
        words = {_folded(key): key for key in LEVELS}
        words.update({_folded(level_name(key, lang)): key for key in LEVELS for lang in LANGUAGES})
        level = words.get(_folded(text)) if text.isprintable() else None
        if level is not None:
            return Reading(level)
        choices = ", ".join(_folded(level_name(key)) for key in LEVELS)
        problem = ParamError("unknown_level", name=name, shown=shown(text), choices=choices,
                             fallback="level", fallback_fields=say_default)
    return Reading(DEFAULT_LEVEL, problem)


def scenario_link(name: str, text: str | None) -> Reading:
    """`text` as a scenario link to open, when it is not longer than a link can be; what it
    holds is checked by `cartas.scenario` when it is opened. None or empty gives None."""
    from cartas.scenario import MAX_LINK

    if text is None or not text.strip():
        return Reading(None)
    problem = _too_long(name, text, MAX_LINK, "scenario")
    return Reading(None, problem) if problem else Reading(text.strip())


# The dashboards' parameters ---------------------------------------------------------------
def seed(name: str = "semente", fallback: str = "seed") -> Reading:
    """`?semente=`: a table's seed (a game's, with `fallback="game_seed"`), or None (a random one)."""
    return whole_number(name, query_parameters().get(name), 0, MAX_SEED, None, fallback)


def pace(default: float, name: str = "ritmo") -> Reading:
    """`?ritmo=`: seconds between bot moves, `default` when absent or refused."""
    return decimal_number(name, query_parameters().get(name), 0.0, MAX_PACE, default, "pace")


def level(name: str = "nivel") -> Reading:
    """`?nivel=`: the bots' level on a "play" dashboard, the default level when absent or
    refused; given twice (`?nivel=facil&nivel=forte`) it is refused, since the link means two
    things and the page cannot tell which."""
    from cartas.games import DEFAULT_LEVEL
    from widgets.components.i18n import query_fields

    text = query_parameters().get(name)
    given = len(query_fields().get(name, []))
    if given > 1:
        return Reading(DEFAULT_LEVEL, ParamError("repeated", name=name, count=given, fallback="level",
                                                 fallback_fields={"level": DEFAULT_LEVEL}))
    return bot_level(name, text)


def initial_language() -> str:
    """The page's starting language: `?lang=` when it names one of ours, else the default."""
    return language().value


def language() -> Reading:
    """`?lang=`: the page's starting language."""
    return language_tag(query_parameters().get("lang"))


def table(name: str = "mesa") -> Reading:
    """`?mesa=`: the code of the table to open, or None."""
    return table_code(name, query_parameters().get(name))



def homework(name: str = HOMEWORK_PARAM) -> Reading:
    """`?tarefa=`: the code of the homework to open, or None."""
    return homework_code(name, query_parameters().get(name))
def homework_game(name: str = HOMEWORK_PARAM) -> Reading:
    """`?tarefa=` on a play dashboard: None, with the ParamError saying where a homework game
    is played, whenever the address has it (see the rules above)."""
    if name not in query_parameters():
        return Reading(None)
    return Reading(None, ParamError("homework_elsewhere", name=name, fallback="homework_game"))


def live(name: str = "codigo") -> Reading:
    """`?codigo=`: the live session to join, or None."""
    return live_code(name, query_parameters().get(name))


def tournament(name: str = "torneio") -> Reading:
    """`?torneio=`: the class tournament to show, or None."""
    return tournament_code(name, query_parameters().get(name))


def scenario(name: str = "cenario") -> Reading:
    """`?cenario=`: the scenario link to open, or None."""
    return scenario_link(name, query_parameters().get(name))


def player_count(name: str, text: str | None, counts: tuple[int, ...]) -> Reading:
    """`text` as one of a game's numbers of players `counts` (the engine's
    `GameSpec.seat_counts`, the first being the default; truco: 4, or 2 mano a mano). None,
    the default quietly; refused (not a whole number, not one of `counts`, too long), the
    default with its ParamError."""
    default = counts[0]
    fallback = {"value": default}
    reading = whole_number(name, text, min(counts), max(counts), default, "players")
    if reading.problem is not None:
        return Reading(default, ParamError(reading.problem.code, **{**reading.problem.fields,
                                                                   "fallback_fields": fallback}))
    if reading.value in counts:
        return reading
    ordered = sorted(counts)
    head = ", ".join(map(str, ordered[:-1]))
    return Reading(default, ParamError("not_a_count", name=name, shown=str(reading.value),
                                       choices=f"{head} ou {ordered[-1]}", choices_en=f"{head} or {ordered[-1]}",
                                       fallback="players", fallback_fields=fallback))


def players(counts: tuple[int, ...], name: str = "jogadores") -> Reading:
    """`?jogadores=`: how many play on a "play" dashboard (`player_count`); given twice it is
    refused, as `?nivel=` is."""
    from widgets.components.i18n import query_fields

    given = len(query_fields().get(name, []))
    if given > 1:
        return Reading(counts[0], ParamError("repeated", name=name, count=given, fallback="players",
                                             fallback_fields={"value": counts[0]}))
    return player_count(name, query_parameters().get(name), counts)
