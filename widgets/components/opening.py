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
