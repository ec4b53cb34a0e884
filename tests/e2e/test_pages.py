"""The home page lists every page, and the menu keeps the learner's sentence when it moves to
another page (each page opened by its own URL: tests/e2e/test_accessibility.py)."""

import pytest
from playwright.sync_api import expect

from attn_ui.registry import GROUPS, PAGES
from tests.support.browser import open_page, until, wait_idle

pytestmark = pytest.mark.e2e


def test_home_lists_every_group(page, app_url):
    """The home page has a heading for each group and a link to every page."""
    open_page(page, app_url)
    main = page.locator("[data-testid=stMain]")
    for group in GROUPS:
        expect(main.get_by_role("heading", name=group, exact=True)).to_be_visible()
    for p in PAGES:
        expect(main.get_by_role("link", name=p.title, exact=True)).to_be_visible()


def test_menu_opens_a_group_and_keeps_the_sentence(page, app_url):
    """The current group's links show; a closed group's links appear once it is opened;
    following one keeps the learner's sentence (an in-app move, not a reload)."""
    open_page(page, app_url, "Overview?weights=random")  # rows: the words alone
    box = page.get_by_role("textbox", name="Your sentence")
    box.fill("the cat saw the dog")
    box.press("Enter")
    until(
        page,
        """() => [...document.querySelectorAll('.cg-root canvas')].some(
            c => c.dataset.rows === JSON.stringify(['the', 'cat', 'saw', 'the', 'dog']))""",
    )
    menu = page.locator("[data-testid=stSidebar]")
    expect(menu.get_by_role("link", name="2. Projection: Q, K and V")).to_be_visible()
    local = menu.get_by_role("link", name="Local attention: a window")
    expect(local).to_have_count(0)
    menu.get_by_text("Labs", exact=True).click()
    expect(local).to_be_visible()
    wait_idle(page)  # the link shows before the rerun that drew it ends; a click then was lost
    local.click()
    expect(page.locator("h1").first).to_contain_text("Local attention")
    expect(page.get_by_role("textbox", name="Your sentence")).to_have_value("the cat saw the dog")
