"""The accessibility tests' reader of axe-core (tests/support/browser.py `axe_findings`), on a
small page of known faults: it reports the serious and critical ones and the rules asked for
by id, leaves out the rules the options turn off, and skips only rules whose every finding
would be moderate or minor. Run twice in one document (axe is put in once)."""

import pytest

from tests.support.browser import axe_findings

pytestmark = pytest.mark.e2e

FAULTS = """<!doctype html><html lang="en"><head><title>Faults</title></head><body>
<main><h1>Faults</h1>
<h4>A heading three levels down</h4>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<p style="color:#bbb;background:#fff">Grey on white</p>
</main>
<p>Outside every landmark</p>
</body></html>"""


def rules(found: list[str]) -> set[str]:
    return {line.split(" ", 1)[0] for line in found}


def test_serious_faults_are_found_and_moderate_ones_only_when_asked(page):
    page.set_content(FAULTS)
    found = axe_findings(page)
    # image-alt is critical, color-contrast serious; heading-order and region are moderate
    assert rules(found) == {"image-alt", "color-contrast"}, found
    assert all("(critical)" in f or "(serious)" in f for f in found)
    asked = axe_findings(page, also=("heading-order", "region"))
    assert rules(asked) == {"image-alt", "color-contrast", "heading-order", "region"}, asked
    no_contrast = {"rules": {"color-contrast": {"enabled": False}}}
    assert rules(axe_findings(page, no_contrast)) == {"image-alt"}
    only = {"runOnly": {"type": "rule", "values": ["color-contrast"]}}
    assert rules(axe_findings(page, only)) == {"color-contrast"}
