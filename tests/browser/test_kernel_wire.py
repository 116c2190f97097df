"""kernel_wire tells when the kernel has handled a click: what the click changes is drawn by then."""
import kernel_wire

CARDS = "() => Array.from(document.querySelectorAll('.cartas-table-box [data-card]'), e => e.dataset.card).join(' ')"


def test_a_click_is_drawn_once_the_wire_says_the_kernel_handled_it(dashboard):
    page = dashboard("truco_apostas.ipynb")
    wire = kernel_wire.of(page)
    for _ in range(3):
        before = page.evaluate(CARDS)
        mark = wire.mark()
        page.get_by_role("button", name="Nova mão").click()
        wire.handled(page, mark)
        assert page.evaluate(CARDS) != before  # no waiting for the change itself
        assert len(wire.sent) > mark and all(m in wire.finished for m in wire.sent[mark:])
