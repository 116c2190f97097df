"""A damaged store on the teacher's laptop (issue 33, item 12): the class view says what is
wrong and what to do, in both languages, instead of "try again in a moment"."""
from __future__ import annotations

from test_learners_and_class_dashboard import open_page

from serving import ROOT, start_voila, stop


def test_a_damaged_store_file_tells_the_teacher_what_is_wrong_and_what_to_do(browser, tmp_path):
    damaged = tmp_path / "cartas.db"
    damaged.write_bytes(b"this is not a database, but someone's data " * 200)
    process, base = start_voila(ROOT / "notebooks", tmp_path / "voila.log",
                                {"CARTAS_PROGRESS": str(tmp_path / "progress.json"), "CARTAS_DB": str(damaged)})
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        for lang, said, not_said in (
                ("pt", ["O arquivo da turma está danificado", str(damaged), "tentar de novo não resolve",
                        "cópia de segurança"], "tente de novo em instantes"),
                ("en", ["The class file is damaged", str(damaged), "trying again will not help",
                        "backup copy"], "try again in a moment")):
            teacher = open_page(context, f"{base}/voila/render/turma.ipynb?lang={lang}")
            teacher.locator(".cartas-class-name input").fill("7º B")
            teacher.locator(".cartas-create-class").click()
            teacher.wait_for_selector(".cartas-message .cartas-error")
            message = teacher.locator(".cartas-message").text_content()
            assert all(part in message for part in said), message
            assert not_said not in message
            teacher.close()
        assert damaged.read_bytes().startswith(b"this is not a database")  # left as it was
    finally:
        context.close()
        stop(process)
