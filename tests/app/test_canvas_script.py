"""The canvas component's script: our JavaScript modules, joined into the one ES module the
component takes (attn_ui/figures/js_bundle.py), are what the browser needs.

The modules' own behaviour is tested with Node's test runner (tests/js, `make test`); the
drawing in a browser (tests/e2e/test_heatmaps_browser.py and the pages' chart tests).
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from attn_ui.figures import canvas_grid, js_bundle

FIGURES = Path(canvas_grid.__file__).parent
ENTRY = FIGURES / "canvas_grid.js"
SCRIPTS = sorted([*FIGURES.glob("*.js"), *(FIGURES / "js").glob("*.js")])

# In Node: the script as the browser gets it, then each file as a module of its own (with its
# real imports). Prints the script's exports and each file's.
NODE_CHECK = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [script, ...files] = JSON.parse(readFileSync(0, "utf8"));
const joined = await import("data:text/javascript," + encodeURIComponent(script));
const out = { script: Object.keys(joined), defaultType: typeof joined.default, files: {} };
for (const f of files) out.files[f] = Object.keys(await import(pathToFileURL(f))).sort();
console.log(JSON.stringify(out));
"""


def _node(program: str, payload: list) -> dict:
    """Run `program` (an ES module) in Node with `payload` as JSON on its stdin; what it
    printed, as JSON."""
    node = shutil.which("node")
    assert node, "the JavaScript tests need Node.js: apt-get install nodejs"
    done = subprocess.run(
        [node, "--input-type=module", "-e", program],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_script_holds_every_module_once_and_one_export():
    js = canvas_grid._JS
    assert js == js_bundle.bundle(ENTRY)
    assert sorted(js_bundle.modules(ENTRY)) == [p.resolve() for p in SCRIPTS]  # none left out
    for path in SCRIPTS:
        assert js.count(f"// ---- {path.relative_to(FIGURES).as_posix()} ----\n") == 1, path
    assert len(re.findall(r"^export default function\b", js, re.M)) == 1
    assert not re.search(r"^\s*import\b", js, re.M)
    assert not re.search(r"^\s*export\b(?! default)", js, re.M)


def test_the_script_runs_as_one_module_and_every_file_exports_what_the_script_uses():
    """Node parses and runs the script (a name declared twice in one scope, or an import left
    in, would fail), and reads each file as the module it is: the exports it finds are the
    ones the bundler gave the file's scope."""
    seen = _node(NODE_CHECK, [canvas_grid._JS, *(str(p) for p in SCRIPTS)])
    assert seen["script"] == ["default"] and seen["defaultType"] == "function"
    for path in SCRIPTS:
        want = sorted(js_bundle.exported(path.read_text(encoding="utf-8")))
        if path == ENTRY:
            want = ["default"]
        assert seen["files"][str(path)] == want, path.name


def test_the_bundler_puts_imports_first_and_refuses_what_it_cannot_join(tmp_path):
    def write(name, text):
        (tmp_path / name).write_text(text, encoding="utf-8")

    write("b.js", "export const B = 2;\nfunction hidden() {}\n")
    write("a.js", 'import { B } from "./b.js";\nexport function a() { return B; }\n')
    write(
        "main.js",
        'import { a } from "./a.js";\nimport { B } from "./b.js";\n'
        "export default function () { return a() + B; }\n",
    )
    js = js_bundle.bundle(tmp_path / "main.js")
    assert [p.name for p in js_bundle.modules(tmp_path / "main.js")] == ["b.js", "a.js", "main.js"]
    assert "const $b = (() => {\nconst B = 2;\nfunction hidden() {}\n" in js
    assert "return { B };" in js and "return { a };" in js  # `hidden` stays in b's scope
    assert "const { a } = $a;" in js
    for text, error in [
        ('import { a as c } from "./a.js";\n', "no `as`"),
        ('import { nothing } from "./b.js";\n', "exports no such name"),
        ('import a from "./a.js";\n', "write each import as"),
        ('import { loop } from "./main.js";\n', "imports itself"),
    ]:
        write("main.js", text + "export default function () {}\n")
        with pytest.raises(ValueError, match=error):
            js_bundle.bundle(tmp_path / "main.js")


def test_the_script_is_published_once_under_its_hash_and_replaces_the_last_one(tmp_path):
    folder = tmp_path / "static"
    name = js_bundle.publish("export default function () {}\n", folder, "figures")
    assert re.fullmatch(r"figures-[0-9a-f]{16}\.js", name)
    assert (folder / name).read_text(encoding="utf-8") == "export default function () {}\n"
    (folder / "other.js").write_text("// not ours", encoding="utf-8")
    again = js_bundle.publish("export default function () {}\n", folder, "figures")
    assert again == name  # the same script: the same file, kept
    newer = js_bundle.publish("export default function () { return 1; }\n", folder, "figures")
    assert newer != name and sorted(p.name for p in folder.iterdir()) == sorted(["other.js", newer])
    (folder / newer).write_text("cut short", encoding="utf-8")  # a file someone changed
    assert js_bundle.publish("export default function () { return 1; }\n", folder, "figures")
    assert "return 1" in (folder / newer).read_text(encoding="utf-8")  # written again, whole
    blocked = tmp_path / "a file" / "static"  # cannot be made: the elements carry the script
    (tmp_path / "a file").write_text("", encoding="utf-8")
    assert js_bundle.publish("x", blocked, "figures") is None


def test_the_script_url_is_under_the_servers_base_path(monkeypatch):
    monkeypatch.setattr(canvas_grid, "_FILE", "figures-0123456789abcdef.js")
    for base, want in [
        ("", "/app/static/"),
        ("class/", "/class/app/static/"),
        ("/a/b", "/a/b/app/static/"),
    ]:
        monkeypatch.setattr(canvas_grid.st, "get_option", lambda name, b=base: b)
        assert canvas_grid.script_url() == want + "figures-0123456789abcdef.js"


# In Node: LOADER as the page runs it, once with a script that draws and once with one that
# cannot be had; prints what each element ended up showing.
NODE_LOADER = """
import { readFileSync } from "node:fs";
const [loader, good] = JSON.parse(readFileSync(0, "utf8"));
globalThis.window = { location: { origin: "file://" } };
globalThis.document = { createElement: (tag) => ({ tag, attrs: {},
    setAttribute(k, v) { this.attrs[k] = v; } }) };
console.error = () => {};
const run = (await import("data:text/javascript," + encodeURIComponent(loader))).default;
const element = (src) => ({ data: { src, words: { noScript: "no script" } },
    parentElement: { shown: [], replaceChildren(...c) { this.shown = c; } } });
const a = element(good), b = element("/nowhere/figures-missing.js");
const stop = run(a); run(b);
await new Promise((r) => setTimeout(r, 200));
stop();
console.log(JSON.stringify({ drawn: a.parentElement.shown, cleaned: globalThis.cleaned === 1,
    missing: b.parentElement.shown }));
"""


def test_the_loader_hands_the_element_to_the_script_or_says_the_figure_could_not_load(tmp_path):
    good = tmp_path / "figures-good.js"
    good.write_text(
        "export default function (el) { el.parentElement.replaceChildren('drawn ' + el.data.src);"
        " return () => { globalThis.cleaned = (globalThis.cleaned || 0) + 1; }; }\n",
        encoding="utf-8",
    )
    seen = _node(NODE_LOADER, [canvas_grid.LOADER, str(good)])
    assert seen["drawn"] == [f"drawn {good}"] and seen["cleaned"]  # its cleanup runs too
    (note,) = seen["missing"]
    assert note["tag"] == "p" and note["attrs"] == {"role": "alert"}
    assert note["textContent"] == "no script"
