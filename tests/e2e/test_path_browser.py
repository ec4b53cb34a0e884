"""The path in a real browser: the check-yourself questions are right for a few sentences, a
wrong answer names its misconception, and the menu's progress marks survive a reload and a
new server process."""

from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.support.browser import axe_findings, open_page, shot, until, wait_idle
from tests.support.checks import STEPS, questions, widget_key
from tests.support.server import serving

pytestmark = pytest.mark.e2e

SENTENCES = (
    "The animal didn't cross the street because it was too tired.",
    "Bill is going to the theatre to watch a new movie",
)


def answer(pg, name: str, q, value) -> None:
    """Answer one question as a learner does: type a number, or pick options with the
    keyboard (type to filter, Enter to choose)."""
    box = pg.locator(f".st-key-{widget_key(name, q)}")
    if q.kind in ("number", "count"):
        field = box.locator("input")
        field.fill(f"{value:.4f}" if q.kind == "number" else str(value))
        field.press("Tab")
        return
    field = box.get_by_role("combobox")
    for option in sorted(value) if q.kind == "cells" else [value]:
        field.click()
        field.fill(q.options[option])
        expect(pg.get_by_role("option", name=q.options[option], exact=True)).to_be_visible()
        field.press("Enter")  # the keyboard's way: the filtered option is highlighted
    if q.kind == "cells":
        field.press("Escape")  # close the list (a select box's Escape would clear it)


def check(pg) -> None:
    pg.get_by_role("button", name="Check").click()
    wait_idle(pg)


def menu_link(pg, name: str, *, done: bool):
    title = STEPS[name].title
    return pg.locator("[data-testid=stSidebar]").get_by_role(
        "link", name=f"✓ {title}" if done else title, exact=True
    )


@pytest.mark.parametrize(
    ("name", "sentence", "query"),
    [
        ("softmax", SENTENCES[0], "weights=random"),
        ("scores", SENTENCES[1], ""),  # the real head
        ("masking", SENTENCES[0], "weights=similarity"),  # opens on the causal mask
        ("overview", SENTENCES[1], "weights=random"),  # the form reruns only its fragment
    ],
)
def test_right_answers_for_a_sentence_mark_the_page(page, app_url, name, sentence, query):
    """The questions shown are the ones the core gives for this sentence; the core's answers
    are judged right and the menu marks the page with a ✓."""
    changes = dict(kv.split("=") for kv in query.split("&") if kv)
    qs = questions(name, sentence=sentence, **changes)
    url = (
        STEPS[name].url.strip("/") + f"?sentence={quote(sentence)}" + (f"&{query}" if query else "")
    )
    open_page(page, app_url, url)
    for q in qs:
        answer(page, name, q, q.answer)
    check(page)
    expect(page.get_by_text("All right: this page is marked")).to_be_visible()
    expect(menu_link(page, name, done=True)).to_be_visible()
    shot(page, f"path_{name}_checked")


def test_a_wrong_answer_names_the_misconception(page, app_url):
    """On Scaling, the unscaled score is 'Forgetting √d_k'; on Softmax, the column's top
    key is 'Rows vs columns'."""
    qs = questions("scaling", sentence=SENTENCES[0], weights="random")
    open_page(page, app_url, f"Scaling?weights=random&sentence={quote(SENTENCES[0])}")
    cell = qs[0]
    answer(page, "scaling", cell, dict(cell.wrong)["forgot_sqrt"])
    check(page)
    alert = page.get_by_role("alert").filter(has_text="Not quite.")
    expect(alert).to_contain_text("Forgetting √d_k")
    expect(menu_link(page, "scaling", done=False)).to_be_visible()
    shot(page, "path_scaling_misconception")


def test_a_near_count_is_wrong_and_a_tied_key_is_right(page, app_url):
    """/Tokens: 386 for X's width of 384 is judged wrong. /Overview with random weights on
    "the cat the cat": the query's top key has a twin with the same vector, and the twin is
    judged right, with a word that the two tie."""
    width = questions("tokens")[1]
    open_page(page, app_url, "Tokens")
    answer(page, "tokens", width, width.answer + 2)
    check(page)
    expect(page.get_by_role("alert").filter(has_text="Not quite.")).to_be_visible()
    expect(page.get_by_text("All right: this page is marked")).to_have_count(0)
    shot(page, "path_tokens_386")

    sentence = "the cat the cat"
    top = questions("overview", sentence=sentence, weights="random")[1]
    [twin] = top.ties
    open_page(page, app_url, f"Overview?weights=random&sentence={quote(sentence)}")
    answer(page, "overview", top, twin)
    check(page)
    verdict = page.get_by_role("status").filter(has_text="tie for the largest value")
    expect(verdict).to_contain_text(f"“{top.options[twin]}”")
    shot(page, "path_overview_tied")


def test_the_check_and_its_verdicts_pass_axe_on_a_phone(tab, app_url):
    """At 390 px, with a right and a wrong verdict shown and the page marked in the menu
    (the sidebar open), axe-core finds no serious or critical violation."""
    page = tab(390, 900)
    q_sum, q_cell = questions("softmax", weights="random")
    open_page(page, app_url, "Softmax?weights=random")
    answer(page, "softmax", q_sum, q_sum.answer)
    answer(page, "softmax", q_cell, dict(q_cell.wrong)["rows_vs_columns"])
    check(page)
    expect(page.get_by_role("alert").filter(has_text="Rows vs columns")).to_be_visible()
    answer(page, "softmax", q_cell, q_cell.answer)
    check(page)
    page.get_by_test_id("stExpandSidebarButton").click()
    expect(menu_link(page, "softmax", done=True)).to_be_visible()
    assert axe_findings(page) == []
    shot(page, "path_softmax_checked_390")


def test_progress_survives_a_reload_and_a_new_server(page, app_url):
    """Marks live in the browser: a reload (a new session) and another server process (the
    cookie is the host's) both show them; 'Reset my progress' clears them for good."""
    qs = questions("scores")
    open_page(page, app_url, "Scores")
    for q in qs:
        answer(page, "scores", q, q.answer)
    check(page)
    expect(menu_link(page, "scores", done=True)).to_be_visible()
    # the menu is drawn before the hidden component has written the cookie: wait for it,
    # as a learner's browser has long done by the time they reload
    until(page, "() => /(^|; )attn_progress=[^;]*scores/.test(document.cookie)")

    page.reload()
    wait_idle(page)
    expect(menu_link(page, "scores", done=True)).to_be_visible()
    expect(menu_link(page, "softmax", done=False)).to_be_visible()

    with serving() as (other, _):  # a server restart: a new process, no sessions
        page.goto(f"{other}/Softmax")
        wait_idle(page, 90_000)
        expect(menu_link(page, "scores", done=True)).to_be_visible()
        page.get_by_role("button", name="Reset my progress").click()
        wait_idle(page)
        expect(menu_link(page, "scores", done=False)).to_be_visible()
    page.goto(f"{app_url}/Scores")
    wait_idle(page)
    expect(menu_link(page, "scores", done=False)).to_be_visible()
