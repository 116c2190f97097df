"""What a teacher's page says while she opens her class (the check's and the tournament's pages):
with its code and teacher key on her own server, by its JupyterHub group under the hub. A page
spreads `OPENING_TEXT` into its own TEXT and may say any of it its own way."""
from __future__ import annotations

OPENING_TEXT = {
    "intro": {"pt": "Abra a turma com o código e a chave do professor.",
              "en": "Open the class with its code and the teacher key."},
    "hub_intro": {"pt": "Escreva a turma (o grupo do JupyterHub).", "en": "Type the class (its JupyterHub group)."},
    "code": {"pt": "Código da turma", "en": "Class code"},
    "key": {"pt": "Chave do professor", "en": "Teacher key"},
    "open_class": {"pt": "Abrir a turma", "en": "Open the class"},
    "refused": {"pt": "Código ou chave do professor errados.", "en": "Wrong class code or teacher key."},
    "hub_refused": {"pt": "Não há essa turma no JupyterHub, ou você não é professor(a).",
                    "en": "There is no such class on JupyterHub, or you do not teach."},
    "store_down": {"pt": "O armazenamento não responde agora; tente de novo em instantes.",
                   "en": "The store does not answer right now; try again in a moment."},
}


def draw_opening(view, hub: bool) -> None:
    """Word a teacher's class-opening row in the view's language: `view.intro` (an HTML), its
    `code` and `key` fields (the key hidden under the hub) and `open_class_button`."""
    from html import escape
    view.intro.value = f"<p style='font-size:16px'>{escape(view.t('hub_intro' if hub else 'intro'))}</p>"
    view.key.layout.display = "none" if hub else ""
    view.code.placeholder, view.key.placeholder = view.t("code"), view.t("key")
    view.open_class_button.description = view.t("open_class")
