"""Every page opens by URL in a fresh browser, draws its heatmaps, and keeps the learner's
sentence when the menu moves to another page."""

import pytest
from playwright.sync_api import expect

from attn_ui.registry import GROUPS, PAGES
from tests.support.browser import FIRST_VISITS, names_its_address, open_page, url_path

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("p", PAGES, ids=lambda p: url_path(p.path))
def test_deep_link_opens_the_page_itself(page, app_url, p):
    """A first visit straight to a page's URL shows that page, our menu, no error, and every
    heatmap drawn (coloured cells, a label per row); its title names the address typed.

    open_page checks this on every visit and records each page's first one (with its
    screenshot); the pages no other test of this session has opened are opened here.
    These cases run after the other browser tests (conftest.py)."""
    name = url_path(p.path)
    if (app_url, name) not in FIRST_VISITS:
        open_page(page, app_url, name)
    shown = FIRST_VISITS[app_url, name]
    assert shown.startswith(p.title.split(":")[0])
    assert names_its_address(shown, name), (shown, name)


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
    page.wait_for_function(
        """() => [...document.querySelectorAll('.cg-root canvas')].some(
            c => c.dataset.rows === JSON.stringify(['the', 'cat', 'saw', 'the', 'dog']))"""
    )
    menu = page.locator("[data-testid=stSidebar]")
    expect(menu.get_by_role("link", name="2. Projection: Q, K and V")).to_be_visible()
    local = menu.get_by_role("link", name="Local attention: a window")
    expect(local).to_have_count(0)
    menu.get_by_text("Labs", exact=True).click()
    expect(local).to_be_visible()
    local.click()
    expect(page.locator("h1").first).to_contain_text("Local attention")
    expect(page.get_by_role("textbox", name="Your sentence")).to_have_value("the cat saw the dog")
