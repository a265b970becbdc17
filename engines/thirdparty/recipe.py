"""Make a third-party engine's report again from a checkout of its pinned commit.

    python engines/thirdparty/recipe.py NAME [CHECKOUT] [--out site/results]

NAME is a folder beside this script: its `source.json` records the engine's repository, link, pinned commit and
licence, the driver that speaks the protocol for it (`driver.mjs`, run by node, or `driver.py`, run by Python)
and the files of the checkout the driver loads (`needs`).  The recipe checks the checkout (at the pinned commit
when it is a git work tree), then runs `gammonspec report --source` through the driver, which writes
`OUT/NAME.json` with the engine's results, what `identify` names, its history and its origin.  It builds nothing:
where the driver loads what the project's own build makes (`needs` says so), build the checkout that way first.
An engine that cannot be had or built here has a `not_driven` reason in its source.json and no CHECKOUT: its
report says why.

Exit status: that of `gammonspec report` (0 all passed, 1 failures or not driven), 2 for bad input (an unknown
NAME, a missing checkout or file, a checkout at another commit).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNNERS = {".mjs": ["node"], ".py": [sys.executable]}
REPORT = [sys.executable, "-c", "import sys; from gammonspec.conformance.cli import main; sys.exit(main())", "report"]


def fail(message: str) -> int:
    print(f"recipe: {message}", file=sys.stderr)
    return 2


def head(checkout: Path) -> str | None:
    """The commit a git work tree is at; None for a folder that is not one (an exported archive)."""
    if not (checkout / ".git").exists():
        return None
    done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", help="the engine's folder under engines/thirdparty/")
    parser.add_argument("checkout", nargs="?", type=Path, help="a checkout of its repository at the pinned commit")
    parser.add_argument("--out", type=Path, default=Path("site/results"), help="the reports' folder")
    parser.add_argument("--engines", type=Path, default=HERE, help="the folder of engine folders (default: here)")
    args = parser.parse_args(argv)
    source = args.engines / args.name / "source.json"
    if not source.is_file():
        known = sorted(p.parent.name for p in args.engines.glob("*/source.json"))
        return fail(f"{args.name}: no {source} (known: {', '.join(known)})")
    data = json.loads(source.read_text(encoding="utf-8"))
    command = [*REPORT, "--out", str(args.out), "--source", str(source)]
    if "not_driven" in data:
        if args.checkout:
            return fail(f"{args.name} is not driven ({data['not_driven']}): give no checkout")
        return subprocess.run(command).returncode
    if args.checkout is None:
        return fail(f"{args.name}: give the path of a checkout of {data['repository']} at {data['commit']}")
    checkout = args.checkout.resolve()
    missing = [need for need in data.get("needs", []) if not (checkout / need).exists()]
    if missing:
        return fail(f"{checkout}: no {missing[0]} ({data.get('build', 'the driver loads it')})")
    at = head(checkout)
    if at is not None and at != data["commit"]:
        return fail(f"{checkout} is at {at}, not the pinned {data['commit']} (git checkout {data['commit']})")
    if at is None:
        print(f"recipe: {checkout} is not a git work tree: taken to be {data['commit']}", file=sys.stderr)
    driver = args.engines / args.name / data["driver"]
    engine = shlex.join([*RUNNERS[driver.suffix], str(driver), str(checkout), data["commit"]])
    return subprocess.run([*command, "--engine-cmd", engine]).returncode


if __name__ == "__main__":
    sys.exit(main())
