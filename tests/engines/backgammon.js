// A backgammon engine for gammonspec in JavaScript: the protocol loop and legal plays (node engine.js).
const readline = require("readline");
const OTHER = { white: "black", black: "white" };

// The mover's view: me[p] and opp[p] for the mover's point p (1-24), me[25] the mover's bar, oppBar the other's.
function view(pos, side) {
  const me = [0, ...pos[side], pos.bar[side]];
  const opp = [0];
  for (let p = 1; p <= 24; p++) opp.push(pos[OTHER[side]][24 - p]); // the mover's p is the opponent's 25 - p
  return { me, opp, oppBar: pos.bar[OTHER[side]] };
}

function position(v, side) {
  const mine = v.me.slice(1, 25);
  const theirs = [];
  for (let q = 1; q <= 24; q++) theirs.push(v.opp[25 - q]);
  const count = (pts, bar) => 15 - pts.reduce((a, b) => a + b, 0) - bar;
  const pos = { bar: {}, off: {} };
  pos[side] = mine;
  pos[OTHER[side]] = theirs;
  pos.bar[side] = v.me[25];
  pos.bar[OTHER[side]] = v.oppBar;
  pos.off[side] = count(mine, v.me[25]);
  pos.off[OTHER[side]] = count(theirs, v.oppBar);
  return pos;
}

// Every single move of one number: from the bar first, bearing off once all are home.
function moves(v, die) {
  const open = (t) => v.opp[t] <= 1;
  if (v.me[25] > 0) return open(25 - die) ? [[25, 25 - die]] : [];
  const home = v.me.slice(7, 26).every((n) => n === 0);
  const highest = Math.max(...v.me.slice(1, 25).map((n, i) => (n ? i + 1 : 0)));
  const out = [];
  for (let p = 1; p <= 24; p++) {
    if (!v.me[p]) continue;
    const t = p - die;
    if (t >= 1) { if (open(t)) out.push([p, t]); }
    else if (home && (t === 0 || p === highest)) out.push([p, 0]);
  }
  return out;
}

function apply(v, [from, to]) {
  const n = { me: v.me.slice(), opp: v.opp.slice(), oppBar: v.oppBar };
  n.me[from]--;
  if (to > 0) {
    n.me[to]++;
    if (n.opp[to] === 1) { n.opp[to] = 0; n.oppBar++; } // a blot is hit
  }
  return n;
}

// Every order of the numbers, as deep as it goes; keep the plays that use the most numbers.
function legalPlays(state) {
  const [a, b] = state.dice;
  const orders = a === b ? [[a, a, a, a]] : [[a, b], [b, a]];
  const ends = [];
  const walk = (v, rest, used) => {
    const next = rest.length ? moves(v, rest[0]) : [];
    if (!next.length) { ends.push({ v, used }); return; }
    for (const m of next) walk(apply(v, m), rest.slice(1), [...used, rest[0]]);
  };
  const start = view(state.position, state.turn);
  for (const order of orders) walk(start, order, []);
  const most = Math.max(...ends.map((e) => e.used.length));
  let best = ends.filter((e) => e.used.length === most);
  if (most === 1 && a !== b) { // only one number can be played: the higher one, if it can
    const high = best.filter((e) => e.used[0] === Math.max(a, b));
    if (high.length) best = high;
  }
  const seen = new Map();
  for (const e of best) {
    const pos = position(e.v, state.turn);
    seen.set(JSON.stringify(pos), pos);
  }
  return [...seen.values()];
}

function answer(msg) {
  if (msg.type === "hello") {
    return { type: "hello", protocol: "1.1", name: "js-backgammon", version: "1",
             rulesets: ["backgammon"], capabilities: ["legal-plays"] };
  }
  if (msg.type === "legal-plays") return { type: "plays", id: msg.id, positions: legalPlays(msg.state) };
  return { type: "skip", id: msg.id, reason: `no ${msg.type} in this engine` };
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  if (msg.type === "bye") { lines.close(); return; }
  let reply;
  try { reply = answer(msg); } catch (err) { reply = { type: "error", id: msg.id, message: String(err) }; }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
