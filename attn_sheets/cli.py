"""The command line: ``python -m attn_sheets --seed 7 --count 30 --out DIR``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from attn_core.by_hand.exercises import DIFFICULTIES, VARIANTS
from attn_core.errors import AttentionInputError
from attn_lessons.i18n import DEFAULT, LANGS, using
from attn_sheets.bundle import class_files, zip_files
from attn_sheets.pdf import PAPERS


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m attn_sheets",
        description="Write by-hand attention worksheets (PDF, XLSX, CSV) and their keys.",
    )
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--count", type=int, default=1, help="number of sheets: seed .. seed+count-1")
    p.add_argument("--out", type=Path, required=True, help="output directory (created)")
    p.add_argument("--paper", choices=PAPERS, default="A4")
    p.add_argument("--difficulty", choices=DIFFICULTIES, default="easy")
    p.add_argument("--variant", choices=VARIANTS, default="plain")
    p.add_argument("--rule", choices=("floor", "trunc"), default="floor", help="scale rule")
    for size in ("tokens", "features", "d-k"):
        p.add_argument(f"--{size}", type=int, default=None)
    p.add_argument("--zip", action="store_true", help="also write class_set.zip")
    p.add_argument(
        "--lang", choices=LANGS, default=DEFAULT, help="the sheets' language (default en)"
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.count < 1:
        print("--count must be at least 1.", file=sys.stderr)
        return 2
    settings = {
        "difficulty": args.difficulty,
        "variant": args.variant,
        "scale_rule": args.rule,
        "tokens": args.tokens,
        "features": args.features,
        "d_k": args.d_k,
    }
    seeds = range(args.seed, args.seed + args.count)
    try:
        with using(args.lang):
            files = class_files(seeds, paper=args.paper, **settings)
        if args.zip:
            files["class_set.zip"] = zip_files(files)
    except AttentionInputError as exc:
        print(exc, file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (args.out / name).write_bytes(data)
        print(args.out / name)
    print(f"wrote {len(files)} files for {args.count} sheet(s) to {args.out}")
    return 0
