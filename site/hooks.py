"""MkDocs hooks: the generated pages added to the site, each clause's cases put under it, boards written as SVG files.

Clause headings get their rule ID as anchor, rule IDs in the text become links to their clause.  The pages are
made in case_pages.py (cases, case files, a clause's examples), rule_tables.py (switches, rulesets, the same
position, the disagreement matrix) and results_page.py (engines' reports and badges)."""

from __future__ import annotations

import json
import re
from importlib.metadata import version
from pathlib import Path
from typing import Any

import legend
import playground_page
from case_pages import (
    BOARDS,
    GAME_TITLES,
    INLINE_EXAMPLES,
    board,
    by_file,
    case_body,
    case_link,
    case_page,
    escaped,
    examples,
    examples_page,
    examples_page_text,
    file_page,
    file_page_text,
    has_cube,
    index_page,
    more_examples,
    outcome,
)
from gammonspec.conformance.harness.cases import Case, suite
from gammonspec.conformance.harness.coverage import cases_by_rule
from gammonspec.conformance.tools.links import link_line
from gammonspec.conformance.tools.matrix import MARKER
from gammonspec.model.clauses import HEADING, clauses
from gammonspec.model.rulesets import rulesets
from gammonspec.model.state import GAMES, State, start_layout
from mkdocs.structure.files import File, Files
from results_page import BY_RULE_PAGE, badge, badge_svg, failures_by_rule_page, reports, results_page
from rule_tables import matrix, ruleset_link, rulesets_page, same_position_page, switches_page

CSS = """
.after { display: flex; flex-wrap: wrap; gap: .5rem; }
.after figure { margin: 0; max-width: 100%; }
.md-typeset table:not([class]) td code { white-space: nowrap; word-break: keep-all; }  /* names never break */
.md-typeset table:not([class]) td:first-child, .md-typeset table:not([class]) th:first-child {
  position: sticky; left: 0; background: var(--md-default-bg-color); }
.md-typeset img[src*="boards/"] { max-width: 100%; height: auto; }
.rulesets { display: grid; grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); gap: 1rem; }
.rulesets > div { border-left: .2rem solid var(--md-accent-fg-color); padding-left: .8rem; min-width: 0; }
.md-typeset a.rule-ref { color: var(--md-default-fg-color--light); font-size: .8em; text-decoration: none; }
.md-typeset a.rule-ref:hover, .md-typeset a.rule-ref:focus { color: var(--md-accent-fg-color); text-decoration: underline; }
.lesson { border-left: .2rem solid var(--md-default-fg-color--lightest); padding-left: .8rem; margin: 1em 0; }
"""


OPEN_LINKED = r"""
// A permalink whose target lives on another page now (an example past the first of its clause, a case in its
// case file's page) is forwarded there; an example's permalink (#<rule>--N) opens its collapsed block.
function forward(id) {
  const n = id.match(/^(.+)--[0-9]+$/);
  const all = n && document.getElementById(n[1] + "--all");  // the clause's link to all its examples
  const to = all || [...document.querySelectorAll(".moved a")].find(a => a.hash === "#" + id);
  if (to) location.replace(to.href.split("#")[0] + "#" + encodeURIComponent(id));
}
function openLinked() {
  const id = location.hash && decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (id && !target) return forward(id);
  const details = target && target.closest("details");
  if (!details) return;
  details.open = true;
  const header = document.querySelector(".md-header");  // fixed: the example's title goes just below it
  window.scrollTo(0, details.getBoundingClientRect().top + window.scrollY - (header ? header.offsetHeight + 8 : 0));
}
// What the runner prints finds its page first: a failure key (ruleset::case-id), a case ID or a rule ID is sent to the
// search as its search key, the ID with its hyphens and dots taken out, which only that case's or clause's section
// holds (on_post_build adds it to the index as a tag, the field the search weighs most). The box keeps what was
// typed; the query to the search worker (a message of type 2) is what changes.
function searchKey(query) {
  const q = query.trim().replace(/^[a-z0-9-]+::(?=[a-z0-9])/, "");
  if (!/^(?:(?:bg|nd|cn)\.[a-z0-9.-]+|[a-z0-9]+(?:-[a-z0-9]+){2,})$/.test(q)) return query;
  const key = SEARCH_PREFIX + q.replace(/[-.]/g, "");
  return key;  // the search takes it as a prefix too, so an ID half typed finds the IDs it begins
}
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (message, ...rest) {
  if (message && message.type === 2 && typeof message.data === "string") message = {...message, data: searchKey(message.data)};
  return post.call(this, message, ...rest);
};
window.addEventListener("hashchange", openLinked);
window.addEventListener("load", () => setTimeout(openLinked, 50));  // after the browser's own jump to the anchor
"""


SITE = Path(__file__).resolve().parent


ROOT = Path(__file__).resolve().parent.parent


LESSON = re.compile(r"^<!-- case: (?P<id>[a-z0-9-]+) -->$", re.M)  # a play page's drawn case


def lesson(case: Case) -> str:
    """A case drawn for a newcomer: its position, what it asks, and its answer drawn (the case's own boards, so
    the picture is the hand-derived expectation), linked to the case."""
    roll = "-".join(map(str, case.state.dice))
    ask = f"{case.state.turn.capitalize()} to play {roll}. " if roll and roll not in case.title else ""
    return "\n".join(
        [
            '<div class="lesson" markdown>',
            "",
            board(case.state, case.title, cube=has_cube(case)),
            "",
            f"*{ask}{escaped(case.title)}* ([case `{case.id}`]({case_link(case)}))",
            "",
            *outcome(case),
            "</div>",
        ]
    )


def play_page(game: str) -> str:
    """A game's "how to play" page (site/play/<game>.md) with its starting position drawn, and each
    `<!-- case: ID -->` drawn as a lesson."""
    text = (SITE / "play" / f"{game}.md").read_text(encoding="utf-8")
    cube = all(rs.switches.get("cube") != "none" for rs in rulesets().values() if rs.game == game)
    start = board(State(start_layout(game), "white"), f"The {GAME_TITLES[game]} starting position", cube=cube)
    by_id = {case.id: case for case in suite()}
    return LESSON.sub(lambda m: lesson(by_id[m["id"]]), text.replace("<!-- start board -->", start))


def changelog_page() -> str:
    """CHANGELOG.md as a page, with the version this site was built from."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    title, rest = text.split("\n", 1)
    return f"{title}\n\nThis site shows suite version **{version('gammonspec')}**.\n{rest}"


def on_files(files: Files, config: Any) -> Files:
    """The generated pages: per game a case index and a page per case file, per clause its examples, and the rest."""
    by_game: dict[str, list[Case]] = {}
    for case in suite():
        by_game.setdefault(case.game, []).append(case)
    for game, cases in by_game.items():
        files.append(File.generated(config, case_page(game), content=index_page(game, cases)))
        for stem, members in by_file(cases).items():
            files.append(File.generated(config, file_page(game, stem), content=file_page_text(game, members)))
    for rule, cases in cases_by_rule(suite()).items():
        if len(cases) > INLINE_EXAMPLES and rule in clauses():
            files.append(File.generated(config, examples_page(rule), content=examples_page_text(rule, cases)))
    for game in GAMES:
        files.append(File.generated(config, f"play-{game}.md", content=play_page(game)))
    files.append(File.generated(config, "switches.md", content=switches_page()))
    files.append(File.generated(config, "rulesets.md", content=rulesets_page()))
    files.append(File.generated(config, "changelog.md", content=changelog_page()))
    files.append(File.generated(config, "same-position.md", content=same_position_page()))
    files.append(File.generated(config, "extra.css", content=CSS))
    files.append(File.generated(config, "tables.css", content=(SITE / "tables.css").read_text(encoding="utf-8")))
    script = f'const SEARCH_PREFIX = "{SEARCH_PREFIX}";\n{OPEN_LINKED}'
    files.append(File.generated(config, "open-linked.js", content=script))
    found = reports()
    files.append(File.generated(config, "results.md", content=results_page(found)))
    files.append(File.generated(config, BY_RULE_PAGE, content=failures_by_rule_page(found)))
    for r in found:
        files.append(File.generated(config, f"badges/{r['engine']['name']}.json", content=badge(r)))
        files.append(File.generated(config, f"badges/{r['engine']['name']}.svg", content=badge_svg(r)))
    for case in suite():  # draw now what the clause pages will show, so every board is a file of the site
        case_body(case)
    home()
    files.append(File.generated(config, legend.PAGE, content=legend.page()))
    for generated in playground_page.files(config):
        files.append(generated)
    for name, content in {**BOARDS, **legend.boards()}.items():
        files.append(File.generated(config, name, content=content))
    return files


def home() -> list[str]:
    """What the home page adds: a board, the rulesets, the matrix, how to check an engine, the suite version."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    checking = readme.split("## Checking your engine", 1)[1].split("```", 2)[1]
    start = State(start_layout("backgammon"), "white", (3, 1))
    sets = [
        f"| {ruleset_link(rs.name)} | {GAME_TITLES[rs.game]} | `{rs.source}` | {rs.summary} |"
        for rs in rulesets().values()
    ]
    return [
        "",
        board(start, "The backgammon starting position, white to play 3-1"),
        "",
        "**Your own position?** The [playground](play.md) sets up any board of the three games and shows what every "
        "ruleset allows, side by side, computed by the reference engine in your browser; on the command line, "
        "`gammonspec ask` answers the same for an XGID, a GNU Position ID, a Narde position ID or a position file "
        "(`gammonspec ask NID1_N_11o11O_w65_f1r0h0`).",
        "",
        f"Suite version **{version('gammonspec')}**: {len(suite())} cases over {len(clauses())} clauses "
        "([changelog](changelog.md)).",
        "",
        "## The five rulesets",
        "",
        "| ruleset | game | source | what it is |",
        "|---|---|---|---|",
        *sets,
        "",
        "The sources are cited by ID and paraphrased, never quoted. We looked for a public original of each of "
        "the five texts and found none that matches the stored text at an address we could confirm, so none is "
        "linked; each rulebook page says which parts of its text each clause comes from.",
        "",
        "## Where they disagree",
        "",
        matrix("all", up=""),
        "## Checking an engine",
        "",
        f"```{checking}```",
        "",
    ]


BOARD_PAGES = {"index.md", "backgammon.md", "narde.md", "crazy-narde.md", "same-position.md", "results.md", BY_RULE_PAGE}


BOARD_PAGES |= {f"play-{game}.md" for game in GAMES}


CASE_INDEXES = {case_page(game) for game in GAMES}  # lists of cases, no board drawn


TITLES = {  # the pages whose navigation name ("Rulebook", "How to play", "Cases") each game shares
    **{f"{game}.md": f"{GAME_TITLES[game]} rulebook" for game in GAMES},
    **{f"play-{game}.md": f"How to play {GAME_TITLES[game]}" for game in GAMES},
    **{case_page(game): f"{GAME_TITLES[game]} cases" for game in GAMES},
}


PLAY_PAGES = {f"play-{game}.md" for game in GAMES}  # lessons: their rule-ID links stay, set quieter (CSS .rule-ref)


QUIET_RULE = re.compile(r"\[(?:bg|nd|cn)\.[a-z0-9.-]+\]\([a-z-]+\.md#[a-z0-9.-]+\)(?!\{)")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Fill the disagreement tables; anchor each clause by its rule ID; put its cases under it; link rule IDs;
    the board key atop every page that draws boards."""
    title = TITLES.get(page.file.src_uri)
    if title:  # the navigation keeps its short name under the game; tabs and bookmarks get the game's
        page.meta["title"] = title
    split_off = page.file.src_uri.startswith(("cases-", "examples-")) and page.file.src_uri not in CASE_INDEXES
    if page.file.src_uri in BOARD_PAGES or split_off:
        markdown = re.sub(r"^(# .*)$", lambda m: f"{m[1]}\n\n{legend.KEY}\n", markdown, count=1, flags=re.M)
    if page.file.src_uri == playground_page.PAGE:
        return markdown  # its form is HTML, left as written
    if page.file.src_uri.startswith(("cases-", "examples-", "switches", "results", "rulesets", "same-position")):
        return markdown
    by_rule = cases_by_rule(suite())
    if page.file.src_uri == "disagreements.md":
        page.meta["hide"] = ["toc"]  # the matrix gets the width of the table of contents
    markdown = MARKER.sub(lambda m: matrix(m["game"]), markdown)
    if page.file.src_uri == "index.md":
        markdown += "\n".join(home())
    out: list[str] = []
    current: str | None = None
    fenced = False
    seen: set[str] = set()  # the conventions terms linked on this page

    def flush() -> None:
        if current and by_rule.get(current):
            cases = by_rule[current]
            out.extend(["", f"**Examples ({len(cases)}):**", "", *examples(current, cases, INLINE_EXAMPLES)])
            out.extend(more_examples(current, cases))

    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            out.append(line)
            continue
        heading = HEADING.match(line)
        if line.startswith("#"):
            flush()
            current = heading["id"] if heading else None
        if heading:
            line = f"### {heading['id']} — {heading['title']} {{#{heading['id']}}}"
        elif line.startswith("**Source:**"):
            line += "  "  # Source and Status each on a line of its own
        line = link_line(line, current, page.file.src_uri, seen)
        out.append(QUIET_RULE.sub(r"\g<0>{ .rule-ref }", line) if page.file.src_uri in PLAY_PAGES else line)
    flush()
    return "\n".join(out) + "\n"


SEARCH_PREFIX = "gsid"  # a search key: this, then the ID without its hyphens and dots (open-linked.js asks for it)


def search_keys(site_dir: Path) -> None:
    """Give each clause's and each case's section in the search index its search key, a word no other section holds,
    so that a rule ID, a case ID or the runner's failure key pasted into the search finds its own section first."""
    path = site_dir / "search" / "search_index.json"
    index = json.loads(path.read_text(encoding="utf-8"))
    ids = set(clauses()) | {case.id for case in suite()}
    for doc in index["docs"]:
        anchor = doc["location"].rpartition("#")[2]
        if anchor in ids:
            doc.setdefault("tags", []).append(SEARCH_PREFIX + re.sub(r"[-.]", "", anchor))  # weighed most, not shown
    path.write_text(json.dumps(index, separators=(",", ":")), encoding="utf-8")


SPLITTERS = {"ja": "tinyseg.js", "th": "wordcut.js"}  # the search's word splitters, by language


def on_post_build(config: Any) -> None:
    """Give the search index its search keys; drop what the theme ships that this site never loads: source maps,
    and the search's stemmers and word splitters for languages other than the site's (the search worker loads only
    those)."""
    search_keys(Path(config["site_dir"]))
    assets = Path(config["site_dir"]) / "assets"
    langs = set(config["plugins"]["material/search"].config["lang"] or ["en"])
    keep = {f"lunr.{lang}.min.js" for lang in langs} | {SPLITTERS.get(lang) for lang in langs}
    keep |= {"lunr.stemmer.support.min.js", "lunr.multi.min.js"}
    for path in [*assets.rglob("*.map"), *(assets / "javascripts" / "lunr").rglob("*.js")]:
        if path.name not in keep:
            path.unlink()
