"""Work a view does right after its page has been sent: the first deal of a lesson that deals.

Decided rule (issue 18, item 8: every dashboard light at class scale): a view builds its
widgets in the notebook's cell, which is all the page needs, and a lesson that deals at open
makes its first deal in `after_paint(callback)`. Voilà sends a page once its last cell has
run, and the browser asks the kernel for the widgets' state only when it connects (about two
seconds later, after its JavaScript started), so the deal, and numpy with it, no longer hold up
the page while a class opens it at once, and the learner still sees a dealt hand at first paint.

On a kernel (an event loop is running while the cell runs) the callback is put on the loop with
`call_later(0, ...)`, which runs it after the cell's reply (checked on ipykernel 7: a second of
work there left the page's time unchanged). Without a running loop (plain Python, the tests)
it runs at once, so a view made by hand is complete when its constructor returns.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable


def after_paint(callback: Callable[[], object]) -> None:
    """Run `callback` once the running cell is over, or now when no event loop runs. Pass a
    guarded callback (`View.guarded`): nothing may escape on the event loop."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        callback()
        return
    loop.call_later(0, callback)


def deal_from_seed(seed_box, rng, deal: Callable[[], object], top: int = 1000) -> None:
    """A lesson's first deal: the seed box gets its value from the seeded `rng` (a Generator or
    a `lazy_rng`, so numpy loads here), which deals through the box's observer; `deal()` is
    called directly when the value drawn is the one already in the box."""
    value = int((rng() if callable(rng) else rng).integers(top))
    if seed_box.value == value:
        deal()
    else:
        seed_box.value = value
