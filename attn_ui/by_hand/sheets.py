"""The worksheets page: downloads of one sheet (PDF, XLSX, CSV) and of a class set (ZIP).

Builders are cached by their settings and language (a class set of 30 takes seconds), so a
rerun never rebuilds a file; the class set is built only when asked for. They run in the
page's own thread (st.cache_data calls them there), where `attn_lessons.i18n` knows the
page's language; `lang` only keeps each language's files apart in the caches.
"""

from __future__ import annotations

import shlex

import streamlit as st

import attn_sheets
from attn_core.by_hand.exercises import Exercise
from attn_lessons import i18n
from attn_lessons.i18n import N_, _, ngettext
from attn_ui import formats
from attn_ui.by_hand.grids import exercise, plain

PDF, XLSX, CSV, ZIP = (
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "text/csv",
    "application/zip",
)
MAX_CLASS = 60
PAPER_NAMES = {"Letter": N_("Letter")}  # as shown; the value (attn_sheets.PAPERS) names files
# In the URL while a class set is being built, removed when it ends: a session that opens with
# it lost its builder (the server died mid-way, docs/class.md).
BUILDING = "building"


@st.cache_data(max_entries=32, show_spinner=False)
def sheet_file(kind: str, paper: str, lang: str, **settings) -> bytes:
    """One file of one sheet: 'template', 'key', 'workbook', 'key_workbook' or 'givens', in
    `lang` (the page's: `i18n.current()`)."""
    with i18n.using(lang):
        return _sheet_file(kind, paper, **settings)


def _sheet_file(kind: str, paper: str, **settings) -> bytes:
    ex = exercise(**settings)
    if kind in ("template", "key"):
        build = attn_sheets.template_pdf if kind == "template" else attn_sheets.key_pdf
        return build(ex, paper=paper)
    if kind == "givens":
        return attn_sheets.givens_csv(ex)
    return attn_sheets.workbook_xlsx(ex, key=kind == "key_workbook")


@st.cache_data(max_entries=4, show_spinner=False)
def class_zip(first: int, count: int, paper: str, lang: str, **settings) -> bytes:
    """Sheets for seeds first .. first + count - 1 and their keys, in one ZIP, in `lang`."""
    with i18n.using(lang):
        return attn_sheets.class_set_zip(range(first, first + count), paper=paper, **settings)


def paper() -> str:
    return st.radio(
        _("Paper"),
        attn_sheets.PAPERS,
        format_func=paper_name,
        key="sheets_paper",
        horizontal=True,
    )


def paper_name(paper: str) -> str:
    return _(PAPER_NAMES.get(paper, paper))


def header(ex: Exercise) -> None:
    """The sheet's header line, as printed."""
    st.markdown("**" + _("Attention by hand") + "** · " + plain(attn_sheets.describe(ex)))


def rules(ex: Exercise) -> None:
    """The rules exactly as the sheet prints them."""
    st.markdown("\n".join(f"- {plain(line)}" for line in attn_sheets.rules(ex)))


def file_stem(settings: dict, *, seed: str | None = None) -> str:
    """'attention_by_hand_easy_plain_seed_0007': a teacher's downloads of several sheets
    never share a name. The scale rule is named when it is not the default (floor)."""
    rule = "" if settings.get("scale_rule", "floor") == "floor" else f"_{settings['scale_rule']}"
    seed = f"seed_{settings['seed']:04d}" if seed is None else seed
    return f"attention_by_hand_{settings['difficulty']}_{settings['variant']}{rule}_{seed}"


def downloads(paper: str, settings: dict) -> None:
    """Five buttons: template and key PDFs, student and key workbooks, givens CSV."""
    stem, lang = file_stem(settings), i18n.current()
    files = (
        ("template", _("Template PDF ({paper})"), f"{stem}_template_{paper}.pdf", PDF),
        ("key", _("Answer key PDF ({paper})"), f"{stem}_key_{paper}.pdf", PDF),
        ("workbook", _("Workbook XLSX"), f"{stem}_worksheet.xlsx", XLSX),
        ("key_workbook", _("Key workbook XLSX"), f"{stem}_key.xlsx", XLSX),
        ("givens", _("Givens CSV"), f"{stem}_givens.csv", CSV),
    )
    cols = st.columns(len(files))
    for col, (kind, label, name, mime) in zip(cols, files, strict=True):
        data = sheet_file(kind, paper, lang, **settings)
        label = label.format(paper=paper_name(paper))
        col.download_button(
            label,
            data,
            file_name=name,
            mime=mime,
            key=f"sheets_dl_{kind}",
            on_click="ignore",
            icon=":material/download:",
            width="stretch",
        )


def _want(key: tuple) -> None:
    st.session_state["sheets_class_for"] = key
    st.session_state["sheets_lost"] = False


def _cut_off() -> bool:
    """Whether this session opened with the BUILDING mark: its server died while building
    (decided on the session's first run, kept until the learner builds again)."""
    if "sheets_lost" not in st.session_state:
        st.session_state["sheets_lost"] = BUILDING in st.query_params
        if BUILDING in st.query_params:
            del st.query_params[BUILDING]
    return st.session_state["sheets_lost"]


def class_set(paper: str, settings: dict) -> None:
    """N different sheets (seeds seed .. seed + N - 1) and their keys, built on request."""
    left, _rest = st.columns([1, 3])
    count = int(
        left.number_input(
            _("Sheets in the class set"), 1, MAX_CLASS, value=30, step=1, key="sheets_count"
        )
    )
    first, rest = settings["seed"], {k: v for k, v in settings.items() if k != "seed"}
    lang = i18n.current()
    want = (first, count, paper, tuple(sorted(rest.items())))
    label = ngettext(
        "Build the class set ({count} sheets, seeds {first} to {last})",
        "Build the class set ({count} sheets, seeds {first} to {last})",
        count,
    ).format(count=count, first=first, last=first + count - 1)
    if _cut_off():
        st.warning(
            _(
                "Building your class set was cut off: the server building it stopped, and "
                "your page moved to another one. Your settings are kept: press the button to "
                "build it."
            ),
            icon=":material/replay:",
        )
    st.button(
        label, key="sheets_build", on_click=_want, args=(want,), icon=":material/inventory_2:"
    )
    if st.session_state.get("sheets_class_for") == want:
        st.query_params[BUILDING] = "1"
        try:
            writing = ngettext(
                "Writing {count} sheets and their keys...",
                "Writing {count} sheets and their keys...",
                count,
            )
            with st.spinner(writing.format(count=count)):
                data = class_zip(first, count, paper, lang, **rest)
        finally:
            if BUILDING in st.query_params:
                del st.query_params[BUILDING]
        st.download_button(
            _("Class set ZIP ({size})").format(size=formats.size(len(data))),
            data,
            file_name=f"{file_stem(settings, seed=f'class_{first:04d}_{count}')}.zip",
            mime=ZIP,
            key="sheets_dl_zip",
            on_click="ignore",
            icon=":material/download:",
            type="primary",
        )
    st.caption(_("The same files without the app:"))
    st.code(cli_command(first, count, paper, rest, lang), language="bash")


def cli_command(first: int, count: int, paper: str, rest: dict, lang: str = i18n.DEFAULT) -> str:
    """The command line that writes the same class set, on two lines (in `lang`: --lang
    when it is not English)."""
    head = [
        "python",
        "-m",
        "attn_ui.worksheets",  # the name teachers have in their notes; an alias of attn_sheets
        "--seed",
        first,
        "--count",
        count,
        "--out",
        "sheets",
    ]
    tail = [
        "--paper",
        paper,
        "--difficulty",
        rest["difficulty"],
        "--variant",
        rest["variant"],
        "--rule",
        rest["scale_rule"],
    ]
    for name in ("tokens", "features", "d_k"):
        if rest.get(name) is not None:
            tail += [f"--{name.replace('_', '-')}", rest[name]]
    if lang != i18n.DEFAULT:
        tail += ["--lang", lang]
    line = [" ".join(shlex.quote(str(a)) for a in part) for part in (head, [*tail, "--zip"])]
    return " \\\n    ".join(line)
