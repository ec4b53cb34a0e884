"""A class in real browsers: a teacher creates it on /Teach, two learners join on /Join in
browsers of their own and answer the Scaling page's check (one with a known misconception),
one takes the concept inventory before and after; the dashboard refreshes on its own and
shows both learners, the misconception, the shares and the gain, its CSV holds the same
answers, and a reload of the teacher's page (the key now out of the address) still opens it."""

import csv
import io
import re

import pytest
from playwright.sync_api import expect

from attn_lessons import inventory
from attn_ui.path import membership
from attn_ui.teacher import misconception_words
from tests.e2e.test_path_browser import answer, check
from tests.support.browser import as_new_person, axe_findings, open_page, shot, until, wait_idle
from tests.support.checks import STEPS, questions

pytestmark = pytest.mark.e2e


def saved(pg) -> None:
    """The page says the answers are stored for the class. A check reruns the whole page,
    then stores them: on a loaded 2-core machine (a fresh clone's `make test`) the note once
    came later than expect's default 5 s."""
    expect(pg.get_by_text("Your answers are saved for your class.")).to_be_visible(timeout=30_000)


def take(pg, app_url, form: str, wrong: int) -> None:
    """One form of the concept inventory: the first `wrong` questions answered wrong."""
    open_page(pg, app_url, f"Concept_inventory?form={form}")
    groups = pg.locator("[data-testid=stForm] [data-testid=stRadio]")
    for n, q in enumerate(inventory.items(form)):
        pick = next(iter(q.wrong)) if n < wrong else q.answer
        groups.nth(n).locator("[data-testid=stRadioOption]").nth(pick).click()
    pg.get_by_role("button", name="Submit my answers").click()
    wait_idle(pg)
    saved(pg)


def learner(pg, app_url, code: str, nickname: str, answers: dict, inventory_wrong=()):
    """A learner in a browser of their own (`pg`, a phone's tab, made a new person's):
    joins, checks the Scaling page with `answers` (else the right ones), and takes the
    inventory's forms, the first `inventory_wrong` = (before, after) questions of each
    wrong."""
    as_new_person(pg)
    open_page(pg, app_url, f"Join?code={code}")
    expect(pg.get_by_label("Class code", exact=True)).to_have_value(code)
    pg.get_by_label("Nickname", exact=True).fill(nickname)
    pg.get_by_role("button", name="Join the class").click()
    wait_idle(pg)
    expect(pg.get_by_text(f"as {nickname}.")).to_be_visible()
    # the page shows the class before its hidden box has written the class's cookie, and the
    # step page below is a new visit that reads it: wait for it, as a learner's browser has
    # long done by the time they open another page (once it was not there yet, in CI)
    until(pg, f"() => /(^|; ){membership.COOKIE}=[^;]/.test(document.cookie)")
    open_page(pg, app_url, STEPS["scaling"].url.strip("/") + "?weights=random")
    for q in questions("scaling", weights="random"):
        answer(pg, "scaling", q, answers.get(q.key, q.answer))
    check(pg)
    saved(pg)
    for form, wrong in zip(("pre", "post"), inventory_wrong, strict=False):
        take(pg, app_url, form, wrong)


def test_a_teacher_sees_what_two_learners_answered(page, tab, app_url):
    open_page(page, app_url, "Teach")
    page.get_by_label("Class name", exact=True).fill("Period 3")
    page.get_by_role("button", name="Create the class").click()
    page.wait_for_url(re.compile(r"code=[A-Z0-9]{8}"))  # the page reruns with the class's code
    wait_idle(page)
    code = re.search(r"code=([A-Z0-9]{8})", page.url).group(1)
    page.get_by_text("Your teacher link (private").click()  # folded: a projector shows none
    link = page.locator("[data-testid=stCode]").filter(has_text="key=").inner_text()
    assert "key=" not in page.url  # the key is shown once, not kept in the address bar

    qs = questions("scaling", weights="random")
    q = next(q for q in qs if q.wrong)
    name, value = q.wrong[0]
    phone = tab(390, 844, touch=True)  # the learners' browser: another tab than the teacher's
    learner(phone, app_url, code, "Ada", {}, inventory_wrong=(5, 1))  # 10/15, then 14/15
    learner(phone, app_url, code, "Bo", {q.key: value})

    joined = page.locator("[data-testid=stMetric]").filter(has_text="Learners joined")
    expect(joined).to_contain_text("2", timeout=25_000)  # the dashboard refreshed on its own
    page.reload()  # the teacher's browser kept the key (a cookie): the dashboard opens
    wait_idle(page)
    assert page.url.endswith(f"/Teach?code={code}")
    expect(joined).to_contain_text("2")
    gain = page.locator("[data-testid=stMetric]").filter(has_text="Gain g")
    expect(gain).to_contain_text("0.80")  # (14/15 - 10/15) / (1 - 10/15)
    row = (
        page.locator("table")
        .filter(has_text="Misconception")
        .locator("tr")
        .filter(has_text=misconception_words(name))
    )
    expect(row).to_contain_text("1")  # one learner holds it
    per_page = page.locator("table").filter(has_text="Right first time").first
    scaling = per_page.locator("tr").filter(has_text=STEPS["scaling"].title)  # "4. ..." as text
    share = round(100 * (2 * len(qs) - 1) / (2 * len(qs)))
    expect(scaling).to_contain_text(f"{share}%")
    shot(page, "teach_dashboard")
    assert axe_findings(page) == []  # the dashboard, its tables filled

    with page.expect_download() as got:
        page.get_by_role("button", name="Answers.csv").click()
    rows = list(csv.DictReader(io.StringIO(got.value.path().read_text("utf-8"))))
    checks = [r for r in rows if r["page"] == "scaling"]
    assert len(checks) == 2 * len(qs) and len(rows) == len(checks) + 2 * 15
    assert [r["misconception"] for r in checks if r["right"] == "False"] == [name]
    assert sum(r["right"] == "True" for r in rows if r["page"] == "inventory:post") == 14

    other = as_new_person(phone)  # the teacher link in a new browser opens the same class
    other.set_viewport_size({"width": 1920, "height": 1080})
    other.goto(link)
    wait_idle(other)
    answers = other.locator("[data-testid=stMetric]").filter(has_text="Answers")
    expect(answers).to_contain_text(str(2 * len(qs) + 2 * 15))
