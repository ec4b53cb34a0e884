"""The core's learner-facing errors carry a translatable template and the values that fill it."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

import attn_core
from attn_core.errors import (
    AttentionInputError,
    FullyMaskedRowError,
    ShapeError,
    whole_number,
)

CORE = Path(attn_core.__file__).parent


def _error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """AttentionInputError and every class in attn_core that derives from it."""
    family = {"AttentionInputError"}
    grew = True
    while grew:
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in family:
                    bases = {
                        b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                        for b in node.bases
                    }
                    if bases & family:
                        family.add(node.name)
                        grew = True
    return family


def _built(arg: ast.expr) -> bool:
    """True for a message put together in code: an f-string, a sum, a .format() or % call."""
    if isinstance(arg, ast.JoinedStr | ast.BinOp):
        return True
    return isinstance(arg, ast.Call) and getattr(arg.func, "attr", "") == "format"


def _sites() -> list[tuple[str, int, ast.Call]]:
    trees = {p: ast.parse(p.read_text(), str(p)) for p in sorted(CORE.rglob("*.py"))}
    family = _error_classes(trees)
    sites = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            named = isinstance(f, ast.Name) and f.id in family
            said = isinstance(f, ast.Attribute) and f.attr == "said"
            if named or said:
                sites.append((f"{path.relative_to(CORE.parent)}:{node.lineno}", said, node))
    return sites


def test_no_error_message_is_put_together_in_code():
    sites = _sites()
    assert len(sites) > 100  # the walk found the core's errors
    built = [
        where for where, said, call in sites if not said and call.args and _built(call.args[0])
    ]
    assert built == [], f"use XError.said('... {{field}} ...', field=value): {built}"


def test_every_template_is_one_literal_filled_by_its_keywords():
    for where, said, call in _sites():
        if not said:
            continue
        assert call.args and isinstance(call.args[0], ast.Constant), where
        template = call.args[0].value
        assert isinstance(template, str) and len(call.args) == 1, where
        if any(k.arg is None for k in call.keywords):  # **fills: checked when it runs
            continue
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
        assert fields == {k.arg for k in call.keywords}, where


def test_said_keeps_the_template_and_the_fills_as_text():
    e = ShapeError.said("a {x} b", x=1)
    assert isinstance(e, ShapeError) and isinstance(e, AttentionInputError)
    assert str(e) == "a 1 b"
    assert e.template == "a {x} b"
    assert e.fills == {"x": "1"}


def test_an_error_built_from_its_message_is_its_own_template():
    e = AttentionInputError("The sentence is empty: type at least one word.")
    assert e.template == str(e) == "The sentence is empty: type at least one word."
    assert e.fills == {}


def test_one_fully_masked_row_and_several_are_two_sentences():
    one, two = FullyMaskedRowError([3]), FullyMaskedRowError([0, 2])
    assert str(one).startswith("Query row 3 may not") and str(two).startswith("Query rows 0, 2 may")
    assert one.template != two.template and one.fills == {"rows": "3"}
    for e in (one, two):
        assert e.template.format(**e.fills) == str(e)


@pytest.mark.parametrize("low, high", [(None, None), (None, 3), (1, None), (1, 3)])
def test_whole_number_fills_only_values(low, high):
    with pytest.raises(AttentionInputError) as err:
        whole_number(2.5, "n_heads", low, high)
    e = err.value
    assert e.template.format(**e.fills) == str(e)
    assert set(e.fills) <= {"name", "low", "high", "value"}  # no English words to fill in
