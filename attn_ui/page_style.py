"""What every page adds to Streamlit's own look and behaviour, for phones and keyboards.

- CSS (the script below adds it to the page): less room above the title (Streamlit's 6rem
  pushed every page's first figure down; the anatomy in docs/architecture.md); formulas in a
  column (beside a figure) a size smaller than KaTeX's 1.21em; a formula wider than its
  column (the lessons' formulas fit 390 px; a narrower phone) scrolls
  sideways instead of being cut off, with a shadow on the side that has more; captions in a
  grey that reads at WCAG AA on white (6.2:1; Streamlit's, faded, 3.9:1); the lesson's
  "The formula" heading is an h2 (headings go down one level at a time, axe-core's
  heading-order) at the size of the h4 it was, and so is "The idea" where a page draws it
  under its live output (Generate); the figure column's "Live figure" h2 (`frame.beside`)
  is read by screen readers and not shown; a menu title longer than the menu's width wraps onto a
  second line instead of being cut (the menu showed "Cost: time and memory against T"
  without its end); a check question written above its input (its words quote a token
  with Markdown's characters: `attn_ui/path/checks.py`) at a widget label's size.
- A formula or code block that does scroll takes the keyboard focus, so that the arrow keys
  scroll it too (axe-core's "scrollable-region-focusable"); the script marks them as they
  appear, as the width changes and as fonts arrive. It runs as one small, hidden browser
  component per page, which also sets the page's ``<html lang>`` (a screen reader picks its
  voice from it).
"""

from __future__ import annotations

import json

import streamlit as st

from attn_lessons import i18n
from attn_lessons.i18n import _

KEY = "attn_page"  # the component's key; its box is hidden (.st-key-attn_page)
CSS = f"""
.katex-display {{ overflow-x: auto; overflow-y: hidden; padding: 2px 0; }}
[data-testid="stColumn"] .katex-display > .katex {{ font-size: 1.05em; }}
.katex-display[data-attn-scroller] {{
  background:
    linear-gradient(to right, #fff 40%, #fff0) left / 24px 100% no-repeat local,
    linear-gradient(to left, #fff 40%, #fff0) right / 24px 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, #0006, #0000) left / 14px 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, #0006, #0000) right / 14px 100% no-repeat scroll;
}}
.st-key-{KEY} {{ display: none; }}
[data-testid="stMainBlockContainer"] {{ padding-top: 3rem; }}
[data-testid="stLayoutWrapper"]:has(> .st-key-attn_live_figure) {{ position: absolute; }}
.st-key-attn_live_figure {{
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}}
[data-testid="stCaptionContainer"] {{ color: #5c5f6b; opacity: 1; }}
[class*="st-key-check_label_"] p {{ font-size: 0.875rem; margin-bottom: 0.4rem; }}
h2:is(#the-formula, #the-idea) {{ font-size: 1.25rem; padding-top: 0.5rem; }}
[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"] :is(span, p) {{
  white-space: normal; overflow: visible; text-overflow: clip; line-height: 1.35;
}}
"""

_JS = """
function style(css) {
  // once per browser tab: a <style> in the page's head (no raw HTML goes through Streamlit)
  if (document.getElementById("attn-page-style")) return;
  const s = document.createElement("style");
  s.id = "attn-page-style";
  s.textContent = css;
  document.head.appendChild(s);
}
const SCROLLERS = { ".katex-display": "formula", "[data-testid=stCode] pre": "code" };

function mark() {
  for (const [selector, what] of Object.entries(SCROLLERS)) {
    for (const el of document.querySelectorAll(selector)) {
      const scrolls = el.scrollWidth > el.clientWidth; // as axe-core counts it
      if (scrolls && !el.hasAttribute("tabindex")) {
        el.tabIndex = 0;
        el.setAttribute("role", "group");
        el.setAttribute("aria-label", WORDS[what]);
        el.dataset.attnScroller = "1";
      } else if (!scrolls && el.dataset.attnScroller) {
        for (const a of ["tabindex", "role", "aria-label", "data-attn-scroller"]) {
          el.removeAttribute(a);
        }
      }
    }
  }
}

let WORDS = { formula: "formula, scrolls sideways", code: "code, scrolls sideways" };

export default function ({ parentElement, data }) {
  style(CSS);
  // the page's language, for screen readers' voices (attn_ui/lang.py), and its words
  if (data && data.lang) document.documentElement.lang = data.lang;
  if (data && data.words) WORDS = data.words;
  let pending = false;
  const soon = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; mark(); });
  };
  // new elements, a new width, and fonts that arrive late (KaTeX's widen a formula)
  const seen = new MutationObserver(soon);
  seen.observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", soon);
  document.fonts.addEventListener("loadingdone", soon);
  document.fonts.ready.then(soon);
  mark();
  parentElement.dataset.drawn = "1";
  return () => {
    seen.disconnect();
    window.removeEventListener("resize", soon);
    document.fonts.removeEventListener("loadingdone", soon);
  };
}
"""

_component = st.components.v2.component(
    "attention_lab_page", js=f"const CSS = {json.dumps(CSS)};\n{_JS}", isolate_styles=False
)


def apply() -> None:
    """The app's CSS and formula script, once per page run (before anything is drawn); it
    also sets the page's ``<html lang>`` to the language shown (`attn_ui.lang`)."""
    words = {"formula": _("formula, scrolls sideways"), "code": _("code, scrolls sideways")}
    _component(data={"lang": i18n.current(), "words": words}, key=KEY)
