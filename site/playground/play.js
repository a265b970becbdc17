// The playground's page: fields, the board editor, the URL. Every answer, every board and every check of a position
// comes from Python (play.py, the ask core and the reference engine) running in Pyodide, served from this site.
// Nothing here knows a rule of any game.

const $ = (id) => document.getElementById(id);
const root = $("play-app");
const FIELDS = ["id", "board", "game", "turn", "dice", "context", "segment", "cube", "rulesets"];
const state = { id: "", rulesets: null, shown: 12 };
let api = null;
let picked = null; // the place (data-at) of the checker picked up on the board
let form = null; // what the fields show, from the last answer

function status(step, text) {
  $("progress").value = step;
  $("status-text").textContent = text;
}

function fromURL() {
  const q = new URLSearchParams(location.search);
  state.id = q.get("id") || root.dataset.start;
  state.rulesets = q.get("rs") ? q.get("rs").split(",").filter(Boolean) : null;
  state.shown = 12;
}

function toURL() {
  const q = new URLSearchParams();
  q.set("id", state.id);
  if (state.rulesets) q.set("rs", state.rulesets.join(","));
  history.replaceState(null, "", "?" + q.toString().replaceAll("%3D", "=").replaceAll("%3A", ":"));
}

function say(errors) {
  for (const f of FIELDS) $("msg-" + f).textContent = (errors && errors[f]) || "";
}

function call(name, request) {
  return JSON.parse(api[name](JSON.stringify(request)));
}

// Ask Python for the whole view of the current state and show it.
function update() {
  const t0 = performance.now();
  toURL();
  const out = call("view", { id: state.id, rulesets: state.rulesets, shown: state.shown });
  say(out.errors);
  const answer = $("answer");
  $("pid").value = state.id;
  if (out.board === undefined) { // the ID cannot be read: the field says why; no board, no answer
    $("board").innerHTML = "";
    $("results").innerHTML = "";
    answer.textContent = "";
  } else {
    form = out.form;
    fill(out);
    $("board").innerHTML = out.board;
    $("results").innerHTML = out.results;
    answer.textContent = out.answer ? JSON.stringify(out.answer, null, 2) : "";
    refocus();
  }
  const ms = performance.now() - t0;
  answer.dataset.id = state.id;
  answer.dataset.ms = ms.toFixed(1);
  answer.dataset.count = String(Number(answer.dataset.count || 0) + 1);
  status(5, `Ready. Answered in ${Math.round(ms)} ms.`);
}

function fill(out) {
  $("game").value = out.game;
  $("turn").value = form.turn;
  $("die1").value = form.dice.length ? String(form.dice[0]) : "";
  $("die2").value = form.dice.length ? String(form.dice[1]) : "";
  $("context-field").hidden = !form.context;
  if (form.context) {
    $("first-turn").checked = form.context.first_turn;
    $("rolls").value = form.context.rolls_in_game;
    $("head").value = form.context.head_moves;
  }
  $("segment-field").hidden = !form.segments;
  $("segment-kind").value = form.segment ? form.segment.kind : "";
  $("segment-numbers").value = form.segment ? form.segment.numbers : "";
  $("cube-field").hidden = !form.cube;
  if (form.cube) {
    $("cube-value").value = String(form.cube.value);
    $("cube-owner").value = form.cube.owner || "";
  }
  for (const box of document.querySelectorAll("input[name=ruleset]")) {
    const label = box.closest("label");
    label.hidden = !form.rulesets.includes(box.value);
    box.checked = !state.rulesets || state.rulesets.includes(box.value);
  }
}

// One change of the position: Python returns the new ID, or a message for the field changed.
function edit(change) {
  const out = call("edit", { id: state.id, change });
  if (out.errors) return say(out.errors);
  state.id = out.id;
  if (change.game) state.rulesets = null;
  update();
}

// ---- the board editor: pick a checker, then the place to carry it to ----

function hits() {
  return [...$("board").querySelectorAll(".hit")];
}

function refocus() {
  const focused = sessionStorage.getItem("play-focus");
  for (const h of hits()) {
    if (h.dataset.at === picked) h.classList.add("picked");
    if (focused && h.dataset.at === focused) h.focus({ preventScroll: true });
  }
  sessionStorage.removeItem("play-focus");
}

function choose(hit) {
  const at = hit.dataset.at;
  if (picked === null) {
    picked = at;
    hit.classList.add("picked");
    $("msg-board").textContent = "";
    return;
  }
  const from = picked;
  picked = null;
  if (from === at) return hits().forEach((h) => h.classList.remove("picked"));
  if (document.activeElement === hit) sessionStorage.setItem("play-focus", at);
  edit({ move: [from, at] });
  hits().forEach((h) => h.classList.toggle("picked", h.dataset.at === picked));
}

$("board").addEventListener("click", (e) => {
  const hit = e.target.closest(".hit");
  if (hit && api) choose(hit);
});

$("board").addEventListener("keydown", (e) => {
  const hit = e.target.closest(".hit");
  if (!hit || !api) return;
  const all = hits();
  const i = all.indexOf(hit);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  if (step) all[(i + step + all.length) % all.length].focus();
  else if (e.key === "Enter" || e.key === " ") choose(hit);
  else if (e.key === "Escape") { picked = null; all.forEach((h) => h.classList.remove("picked")); }
  else return;
  e.preventDefault();
});

// ---- the fields ----

function dice() {
  const a = $("die1").value, b = $("die2").value;
  if (!a && !b) return edit({ dice: [] });
  if (!a || !b) return say({ dice: "choose both dice (or neither: no roll yet)" });
  edit({ dice: [Number(a), Number(b)] });
}

function context() {
  const rolls = Number($("rolls").value), head = Number($("head").value);
  if (!Number.isInteger(rolls) || !Number.isInteger(head) || rolls < 0 || head < 0) {
    return say({ context: "rolls and checkers off the head are whole numbers, 0 or more" });
  }
  edit({ context: { first_turn: $("first-turn").checked, rolls_in_game: rolls, head_moves: head } });
}

function segment() {
  const kind = $("segment-kind").value, numbers = $("segment-numbers").value.trim();
  if (kind && !numbers) return say({ segment: "give the segment's numbers, e.g. 55" });
  edit({ segment: { kind, numbers } });
}

function rulesetsChanged() {
  const boxes = [...document.querySelectorAll("input[name=ruleset]")].filter((b) => !b.closest("label").hidden);
  const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
  if (!chosen.length) return say({ rulesets: "pick at least one ruleset" });
  state.rulesets = chosen.length === boxes.length ? null : chosen;
  update();
}

function wire() {
  $("play-form").addEventListener("submit", (e) => {
    e.preventDefault();
    state.id = $("pid").value.trim();
    state.shown = 12;
    update();
  });
  $("game").addEventListener("change", () => edit({ game: $("game").value }));
  $("start").addEventListener("click", () => edit({ game: $("game").value }));
  $("turn").addEventListener("change", () => edit({ turn: $("turn").value }));
  $("die1").addEventListener("change", dice);
  $("die2").addEventListener("change", dice);
  for (const id of ["first-turn", "rolls", "head"]) $(id).addEventListener("change", context);
  $("segment-kind").addEventListener("change", segment);
  $("segment-numbers").addEventListener("change", segment);
  const cube = () => edit({ cube: { value: Number($("cube-value").value), owner: $("cube-owner").value || null } });
  $("cube-value").addEventListener("change", cube);
  $("cube-owner").addEventListener("change", cube);
  for (const box of document.querySelectorAll("input[name=ruleset]")) box.addEventListener("change", rulesetsChanged);
  $("results").addEventListener("click", (e) => {
    if (!e.target.closest("button.more")) return;
    state.shown = 1000;
    update();
  });
}

// ---- start: Pyodide from this site, then the rulebook's zip ----

async function start() {
  fromURL();
  $("pid").value = state.id;
  const t0 = performance.now();
  const seconds = () => ((performance.now() - t0) / 1000).toFixed(1);
  try {
    status(1, "Loading Python (Pyodide, about 6.5 MB compressed)…");
    const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", import.meta.url).href);
    const zip = fetch(new URL("gammonspec.zip", import.meta.url)).then((r) => {
      if (!r.ok) throw new Error(`gammonspec.zip: HTTP ${r.status}`);
      return r.arrayBuffer();
    });
    const py = await loadPyodide({ indexURL: new URL("pyodide/", import.meta.url).href });
    status(3, `Python started (${seconds()} s). Unpacking the rulebook…`);
    py.unpackArchive(await zip, "zip", { extractDir: "/home/pyodide/gammonspec-play" });
    status(4, "Reading the rules…");
    py.runPython("import sys; sys.path.insert(0, '/home/pyodide/gammonspec-play')");
    api = py.pyimport("play");
    wire();
    update();
    addEventListener("popstate", () => { fromURL(); update(); }); // back, forward, or an address set by a script
    $("status").classList.add("ready");
    status(5, `Ready in ${seconds()} s. ${$("status-text").textContent.replace("Ready. ", "")}`);
  } catch (err) {
    $("status-text").textContent = `The engine could not start: ${err.message || err}`;
    root.dataset.failed = "true";
  }
}

if ($("missing")) status(0, "The engine is not part of this build of the site.");
else start();
