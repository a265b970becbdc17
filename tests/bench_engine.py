"""The engine side of the benchmark (tests/bench.py), run by it as a child process.

    python tests/bench_engine.py [--root DIR] drive ENGINE        a JSON-lines driver of a legal-plays engine
    python tests/bench_engine.py [--root DIR] plays REPEAT       legal plays of every state read, timed in process
    python tests/bench_engine.py [--root DIR] turns REPEAT       whole turns of each state read, timed in process

`drive` answers each line {"ruleset": name, "state": wire state} with one line, the JSON list of the wire
positions the engine (`reference`, or a shipped adapter: `gnubg-nn`, `bgsage`) gives, and stops at an empty
line; the conversions to and from the wire are the same for every engine.  `plays` and `turns` read one {"ruleset": name, "state": wire state} per line from stdin, then answer one JSON
line: `plays` the best time of REPEAT passes over all states (after a warm-up) and the number of results,
`turns` the distinct end positions of each turn, the best time of REPEAT turns and the time to read the ends as
layouts.  `--root DIR` runs the gammonspec tree at DIR (a
git worktree of an earlier commit) in place of the installed one, so that today's engine and an earlier one
are measured on the same inputs in one run.  Such a tree may have an older package layout (before the `model`
package, `conformance/state.py` and `conformance/rules.py`): the modules are found by `layout_module`.
"""

from __future__ import annotations

import atexit
import importlib
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

# the package-dir of pyproject.toml, today's and earlier ones (a tree has the folders of its layout)
PACKAGES = ("model", "conformance", "reference", "engines", "cases", "spec")

LAYOUTS = {  # where each module the children use lives, today's layout first, then earlier ones
    "rulesets": ("gammonspec.model.rulesets", "gammonspec.conformance.rulesets", "gammonspec.conformance.rules"),
    "state": ("gammonspec.model.state", "gammonspec.conformance.state"),
    "loading": ("gammonspec.conformance.harness.loading", "gammonspec.conformance.engine"),
}


def use_tree(root: Path) -> None:
    """Import `gammonspec` from the source tree at `root` only: a package of links to its folders, ahead of the
    install, and no editable install's finder behind it (which would fill in a module the tree lacks from
    today's tree, mixing the two)."""
    package = Path(tempfile.mkdtemp(prefix="gammonspec-bench-")) / "gammonspec"
    atexit.register(shutil.rmtree, package.parent, True)  # only links: the tree itself stays
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in PACKAGES:
        if (root / name).is_dir():
            (package / name).symlink_to(root / name)
    sys.path.insert(0, str(package.parent))
    sys.meta_path[:] = [f for f in sys.meta_path if "__editable___gammonspec" not in getattr(f, "__module__", "")]


def layout_module(role: str) -> ModuleType:
    """The module for `role` in the layout of the tree being run (LAYOUTS)."""
    for name in LAYOUTS[role]:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if not exc.name or not (
                name == exc.name or name.startswith(exc.name + ".")
            ):  # a module missing inside it, not this layout
                raise
    raise ModuleNotFoundError(f"none of {LAYOUTS[role]} in this tree")


def read_states() -> list[tuple[Any, Any]]:
    known, State = layout_module("rulesets").rulesets(), layout_module("state").State
    return [(State.from_wire(d["state"]), known[d["ruleset"]].rules()) for d in map(json.loads, sys.stdin)]


def drive(name: str) -> None:
    engine, known = layout_module("loading").load_engine(name), layout_module("rulesets").rulesets()
    State = layout_module("state").State
    for line in sys.stdin:
        if not line.strip():
            return
        data = json.loads(line)
        plays = engine.legal_plays(State.from_wire(data["state"]), known[data["ruleset"]].rules())
        sys.stdout.write(json.dumps([layout.to_wire() for layout in plays]) + "\n")
        sys.stdout.flush()


def time_plays(repeat: int) -> dict[str, float]:
    from gammonspec.reference import ReferenceEngine

    inputs = read_states()
    for state, rules in inputs[: max(len(inputs) // 10, 1)]:
        ReferenceEngine().legal_plays(state, rules)
    best, results = float("inf"), 0
    for _ in range(repeat):
        engine = ReferenceEngine()
        start = time.process_time()
        results = sum(len(engine.legal_plays(state, rules)) for state, rules in inputs)
        best = min(best, time.process_time() - start)
    return {"secs": best, "results": results}


def time_turns(repeat: int) -> dict[str, list[float]]:
    """Per state, the best time of REPEAT whole turns, and of reading every end as a layout after one."""
    from gammonspec.reference.turn import turn_results

    finals, secs, read = [], [], []
    for state, rules in read_states():
        best = best_read = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            ends = turn_results(state, rules)[0]
            done = time.process_time()
            layouts = list(ends)  # built when read since the ends are kept packed
            best, best_read = min(best, done - start), min(best_read, time.process_time() - done)
        secs.append(best)
        read.append(best_read)
        finals.append(len(layouts))
    return {"finals": finals, "secs": secs, "read": read}


def main(argv: list[str]) -> int:
    if argv[:1] == ["--root"]:
        use_tree(Path(argv[1]).resolve())
        argv = argv[2:]
    mode, args = argv[0], argv[1:]
    if mode == "drive":
        drive(args[0])
        return 0
    answer = (time_plays if mode == "plays" else time_turns)(int(args[0]))
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
