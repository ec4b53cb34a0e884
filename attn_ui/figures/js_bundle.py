"""The canvas component's script: our JavaScript modules joined into the one ES module string
that `st.components.v2.component(js=...)` takes.

Why join them: Streamlit 1.67 runs an inline `js` string from a Blob URL, where a relative
`import ... from "./x.js"` has nothing to resolve against; it serves a component's files only
when the component is declared, with an `asset_dir`, in the pyproject.toml of an installed
package, and the app is not one. So the modules are joined here, once, when the app starts.

How: every module the entry imports, directly or not, once, each after the modules it
imports, and each in a function scope of its own that returns what it exports:

    // ---- js/colour.js ----
    const $js_colour = (() => {
    ... the module, its `export ` keywords dropped ...
    return { INK, hex, ... };
    })();

An `import { a, b } from "./colour.js";` becomes `const { a, b } = $js_colour;`. The entry is
not wrapped: its `export default` is the script's one export. A module thus sees what it
imports and nothing else (a name it forgets to import fails as it would in the browser), and
the private names of two modules never meet.

The modules keep to what this reads, and anything else raises ValueError: imports written
`import { a, b } from "./x.js";` (named, relative, not renamed), one name per `export`
(`export function f`, `export const A = 1;`), an `export default` in the entry only, and no
module importing itself through others.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

_IMPORT = re.compile(r'^import \{([^}]*)\} from "(\.\.?/[^"]+)";[^\S\n]*$', re.M)
_ANY_IMPORT = re.compile(r"^\s*import\b", re.M)
_EXPORTED = re.compile(r"^export (?:async )?(?:function\*?|const|let|class) +([\w$]+)", re.M)
_EXPORT = re.compile(r"^export (?=(?:async )?function\b|const\b|let\b|class\b)", re.M)
_OTHER_EXPORT = re.compile(r"^\s*export\b(?! default function\b)", re.M)
_NAME = re.compile(r"[A-Za-z_$][\w$]*")


def imports(path: Path) -> list[tuple[list[str], Path]]:
    """The module's imports: (the names, the imported module's path), in their order."""
    text = path.read_text(encoding="utf-8")
    found = [
        ([n.strip() for n in names.split(",") if n.strip()], (path.parent / spec).resolve())
        for names, spec in _IMPORT.findall(text)
    ]
    if len(found) != len(_ANY_IMPORT.findall(text)):
        raise ValueError(f'{path.name}: write each import as `import {{ a, b }} from "./x.js";`')
    for names, _ in found:
        if not all(_NAME.fullmatch(n) for n in names):
            raise ValueError(f"{path.name}: import names as they are exported (no `as`)")
    return found


def modules(entry: Path) -> list[Path]:
    """`entry` and every module it imports, directly or not: each once, after its imports."""
    order: list[Path] = []

    def visit(path: Path, chain: tuple[Path, ...]) -> None:
        if path in chain:
            raise ValueError(f"{path.name} imports itself through {chain[-1].name}")
        if path not in order:
            for _, dep in imports(path):
                visit(dep, (*chain, path))
            order.append(path)

    visit(entry.resolve(), ())
    return order


def exported(text: str) -> list[str]:
    """The names a module's text exports (`export default` aside)."""
    return _EXPORTED.findall(text)


def scope_name(path: Path, root: Path) -> str:
    """The constant that holds a module's exports in the script: js/colour.js -> $js_colour."""
    return "$" + re.sub(r"\W", "_", path.relative_to(root).with_suffix("").as_posix())


def bundle(entry: Path) -> str:
    """The one ES module made of `entry` and the modules it imports (see the module's doc)."""
    entry = entry.resolve()
    root = entry.parent
    exports: dict[Path, list[str]] = {}
    parts = []
    for path in modules(entry):
        text = path.read_text(encoding="utf-8")
        for names, dep in imports(path):
            if missing := set(names) - set(exports[dep]):
                raise ValueError(
                    f"{path.name} imports {sorted(missing)}: {dep.name} exports no such name"
                )
        body = _IMPORT.sub(
            lambda m, path=path: (
                f"const {{{m[1]}}} = {scope_name((path.parent / m[2]).resolve(), root)};"
            ),
            text,
        )
        defaults = len(re.findall(r"^export default\b", body, re.M))
        if defaults != (path == entry):
            raise ValueError(f"{path.name}: only the entry, {entry.name}, has an `export default`")
        exports[path] = exported(body)
        body = _EXPORT.sub("", body)
        if _OTHER_EXPORT.search(body):
            raise ValueError(
                f"{path.name}: export one name per `export function` or `export const`"
            )
        header = f"// ---- {path.relative_to(root).as_posix()} ----\n"
        if path == entry:
            parts.append(header + body)
        else:
            names = ", ".join(exports[path])
            parts.append(
                f"{header}const {scope_name(path, root)} = (() => {{\n"
                f"{body}\nreturn {{ {names} }};\n}})();\n"
            )
    return "\n".join(parts)


def file_name(script: str, stem: str) -> str:
    """The name `publish` gives `script`: `stem`-<the first 16 hex digits of its SHA-256>.js."""
    return f"{stem}-{hashlib.sha256(script.encode()).hexdigest()[:16]}.js"


def publish(script: str, folder: Path, stem: str) -> str | None:
    """`script` written once to `folder`/`stem`-<its hash>.js, older `stem`-*.js removed; the
    file's name, or None where the folder cannot be written (a read-only install).

    Why: Streamlit 1.67 sends an inline script with every rerun of every figure element
    (``BidiComponent.js_content``: 75 kB each, 250 kB to 1 MB a page) and hashes it on the
    server each time. A file in the app's ``static/`` folder (``server.enableStaticServing``)
    is fetched once per page load instead. Its name carries its content's hash, so a browser
    that cached an older script never runs it against a newer app."""
    name = file_name(script, stem)
    path = folder / name
    try:
        if not path.is_file() or path.read_text(encoding="utf-8") != script:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(
                "w", encoding="utf-8", dir=folder, prefix=f".{stem}-", delete=False
            ) as f:
                f.write(script)
            os.chmod(f.name, 0o644)
            os.replace(f.name, path)  # whole or not at all, also with replicas starting at once
        for old in folder.glob(f"{stem}-*.js"):
            if old.name != name:
                old.unlink(missing_ok=True)
    except OSError:
        return None
    return name
