"""The page registry: every page file is registered, every registered page exists, and a
page that is not registered gets a message that says what to do."""

from pathlib import Path

import pytest

from attn_ui import registry
from attn_ui.frame import WORDS, lesson
from tests.support.browser import names_its_address

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))


def test_every_page_file_is_registered_and_every_registered_page_exists():
    registered = [p.path for p in registry.PAGES]
    assert sorted(registered) == FILES
    assert len(set(registered)) == len(registered)


def test_names_titles_and_urls_are_unique_and_groups_known():
    for field in ("name", "title", "url"):
        values = [getattr(p, field) for p in registry.PAGES]
        assert len(set(values)) == len(values), field
    assert {p.group for p in registry.PAGES} == set(registry.GROUPS)


def test_urls_are_the_file_names_teachers_link_to():
    urls = {p.url for p in registry.PAGES}
    assert {"/Overview", "/Scores", "/Multi-head", "/Model_explorer", "/Worksheets"} <= urls


@pytest.mark.parametrize("page", registry.PAGES, ids=lambda p: p.name)
def test_each_page_has_its_lesson_text(page):
    text = lesson(page.name)
    assert text[""].startswith("# ")
    assert all(text.get(heading) for heading in WORDS[:2])  # what you'll learn, the idea


def test_each_title_names_its_address():
    """A learner who types a title's name as the address finds the page (issue 27: "Attention
    in tiles" lived at /Tiled_attention). Streamlit serves a page at its file name only."""
    wrong = [(p.title, p.url) for p in registry.PAGES if not names_its_address(p.title, p.url[1:])]
    assert wrong == []
    assert not names_its_address("Attention in tiles: the online softmax", "Tiled_attention")
    assert not names_its_address("Costly things", "Cost")
    assert names_its_address("8. Multi-head attention", "Multi-head")


def test_a_page_found_by_its_file_or_its_name():
    assert registry.info("/any/where/pages/03_Scores.py").title == "3. Scores: S = Q Kᵀ"
    assert registry.page("overview").path == "pages/00_Overview.py"


def test_an_unregistered_page_says_what_to_do():
    with pytest.raises(registry.UnregisteredPage) as found:
        registry.info("pages/99_New_lab.py")
    message = str(found.value)
    assert "pages/99_New_lab.py" in message and "attn_ui/registry.py" in message
    with pytest.raises(LookupError, match="No page is called 'nope'"):
        registry.page("nope")
