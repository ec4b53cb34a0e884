"""The language a learner reads: English, Spanish or Simplified Chinese. Pure Python, no
Streamlit: the app tells it where to find the page's language (`set_resolver`), a script or
the worksheet CLI picks one for a block of code (`using`).

Interface strings go through gettext. A string is marked where it is written::

    st.button(_("Check"))                                   # translated where it is drawn
    TITLE = N_("Scores")                                    # marked only; `_(TITLE)` draws it
    st.caption(_("Row {i} of {n}").format(i=i, n=n))       # never an f-string inside _()

Babel extracts the marked strings (`make catalogs`) into lessons/locale/messages.pot and
merges them into lessons/locale/<lang>/LC_MESSAGES/messages.po, the files translators edit;
the app compiles a catalogue with Babel when it first needs it (and again when the .po file
changes), so nothing derived is kept in the repository. An English string is its own
message id: in English, `_` returns its argument unchanged.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

LANGS = ("en", "es", "zh")
DEFAULT = "en"
# Each language named in itself: how the menu offers it.
NAMES = {"en": "English", "es": "Español", "zh": "中文"}
LOCALE = Path(__file__).resolve().parents[1] / "lessons" / "locale"
DOMAIN = "messages"

_chosen: ContextVar[str | None] = ContextVar("attn_lang", default=None)
_resolver: Callable[[], str] | None = None


def normal(tag: str | None) -> str | None:
    """One of LANGS for a language tag ("es-MX" -> "es", "zh-Hans-CN" -> "zh"), else None."""
    if not isinstance(tag, str):
        return None
    base = tag.strip().replace("_", "-").split("-", 1)[0].lower()
    return base if base in LANGS else None


def set_resolver(find: Callable[[], str] | None) -> None:
    """Where `current` finds the language when no `using` block chose one (the app: the
    page's ?lang= or the browser's)."""
    global _resolver
    _resolver = find


def current() -> str:
    """The language of the code running now: a `using` block's, else the resolver's, else
    English."""
    chosen = _chosen.get()
    if chosen:
        return chosen
    if _resolver is not None:
        return _resolver()
    return DEFAULT


@contextmanager
def using(lang: str) -> Iterator[str]:
    """Run a block in `lang` (a tag `normal` knows; anything else is English)."""
    token = _chosen.set(normal(lang) or DEFAULT)
    try:
        yield _chosen.get()
    finally:
        _chosen.reset(token)


def catalog_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of `lang` (English: none, strings are their own ids)."""
    path = catalog_path(lang)
    if lang == DEFAULT or not path.exists():
        return gettext.NullTranslations()
    return _compiled(path, path.stat().st_mtime_ns)


@lru_cache(maxsize=8)
def _compiled(path: Path, mtime_ns: int) -> gettext.GNUTranslations:
    # Babel compiles the .po file in memory (as `pybabel compile` would to a .mo file); an
    # entry marked fuzzy is left out, so its English shows until a translator confirms it.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        catalog = read_po(f)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def _(message: str) -> str:
    """`message` in the current language (itself in English, or where it is not translated)."""
    lang = current()
    if lang == DEFAULT:
        return message
    return translations(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for `n` (Spanish has two; Chinese one)."""
    lang = current()
    if lang == DEFAULT:
        return singular if n == 1 else plural
    return translations(lang).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark `message` for the catalogue without translating it now (module constants: the
    language is known only when a page draws them, through `_`)."""
    return message


def words_of(exc: BaseException) -> str:
    """An error's message in the current language. The core's and the class store's errors
    carry their words as a template and the values that fill it (`AttentionInputError.said`,
    `attn_class.Refused.said`): the template's translation is filled with the same values;
    an error made of several (`parts`: a grid's bad cells) is each part's words in turn. A
    template no catalogue has yet shows in English."""
    template, fills = getattr(exc, "template", None), getattr(exc, "fills", None)
    if not isinstance(template, str) or not template or not isinstance(fills, dict):
        return str(exc)
    parts = getattr(exc, "parts", None)
    if parts:
        names = ("first", "second", "third")
        fills = {**fills, **{n: words_of(p) for n, p in zip(names, parts, strict=False)}}
    if not fills:  # a plain sentence (its braces, if any, are not fields)
        return _(template)
    return _(template).format(**fills)
