// quasoft/backgammonjs's `RuleBgGulbara` (lib/rules/RuleBgGulbara.js), the Gul Bara of its rule set, asked for
// the legal plays of a segment: `node driver.mjs CHECKOUT COMMIT`.  Its JavaScript runs as it is.
//
// Its `State` (lib/model.js) holds 24 points of piece stacks, 0-23: white's point p is position p - 1 (white starts
// on 23 and moves down), black's point p is position p + 11 above 12, else p - 13 (black starts on 11,
// RuleBgGulbara.js:140-142 and its `normPos`, 183).  A move is one piece and one number: `getMoveActions`
// (RuleBgGulbara.js:247-394) moves the top piece of a point or bears it off, and `isMoveActionRestricted`
// (lib/rules/rule.js:612-652) refuses a move that leaves fewer numbers playable than another.  The plays are
// every end of those steps, for the numbers of the segment (the roll, or its double four times).
//
// What its source does differently (file:line at 2b73365), each found again by the suite:
// - Either number when only one can be played (cn.move.higher-die): `isMoveActionRestricted` (rule.js:612-629)
//   keeps any move in a branch of the greatest total weight (`calculateMoveWeights`, rule.js:410-596), which
//   does not prefer the higher number when only one number can be played: 1 case of gul-bara, a bug.
// - No head rule, no six-block ban, no frozen home: `getMoveActions` (RuleBgGulbara.js:247-394) checks only that
//   the landing point is free or the mover's own; gul-bara says the same of the first two (head-rule=none,
//   six-block=allowed), so only the Crazy Narde cases that pin them fail.
// - Doubles are four moves of the number rolled (`rollDice`, RuleBgGulbara.js:78-112): the chain its comment
//   describes is in `nextTurn` (RuleBgGulbara.js:431-516); each segment is asked on its own here.
import { createRequire } from "node:module";
import path from "node:path";
import { args, position, serve } from "../bridge.mjs";

const { checkout, commit } = args();
console.log = () => {}; // the rule logs every move it looks at to stdout, where only answers may go
const require = createRequire(import.meta.url);
const model = require(path.resolve(checkout, "lib/model.js"));
const rule = require(path.resolve(checkout, "lib/rules/RuleBgGulbara.js"));

const TYPE = { white: model.PieceType.WHITE, black: model.PieceType.BLACK };
const at = { white: (p) => p - 1, black: (p) => (p > 12 ? p - 13 : p + 11) };

function build(white, black) {
  const state = new model.State();
  rule.initialize(state);
  for (let p = 1; p <= 24; p++) {
    if (white[p - 1]) rule.place(state, white[p - 1], TYPE.white, at.white(p));
    if (black[p - 1]) rule.place(state, black[p - 1], TYPE.black, at.black(p));
  }
  return state;
}

function counts(state, side) {
  const out = [];
  for (let p = 1; p <= 24; p++) out.push(model.State.countAtPos(state, at[side](p), TYPE[side]));
  return out;
}

function plays(state) {
  const side = state.turn;
  const [d1, d2] = state.dice;
  const numbers = state.segment ? state.segment.numbers.slice() : d1 === d2 ? [d1, d1, d1, d1] : [d1, d2];
  const ends = [];
  const seen = new Set();
  const walk = (white, black, left) => {
    const key = JSON.stringify([white, black, left]);
    if (seen.has(key)) return;
    seen.add(key);
    const now = build(white, black);
    let moved = false;
    for (let p = 1; p <= 24; p++) {
      const piece = model.State.getTopPiece(now, at[side](p));
      if (!piece || piece.type !== TYPE[side]) continue;
      for (const steps of new Set(left)) {
        if (rule.isMoveActionRestricted(now, left, piece, steps)) continue;
        const after = build(white, black);
        const actions = rule.getMoveActions(after, model.State.getTopPiece(after, at[side](p)), steps);
        if (actions.length === 0) continue;
        rule.applyMoveActions(after, actions);
        const rest = left.slice();
        rest.splice(rest.indexOf(steps), 1);
        moved = true;
        walk(counts(after, "white"), counts(after, "black"), rest);
      }
    }
    if (!moved) ends.push(position(white, black));
  };
  walk(state.position.white.slice(), state.position.black.slice(), numbers.sort((a, b) => b - a));
  return ends;
}

serve({ name: "backgammonjs-gulbara", version: `commit ${commit.slice(0, 7)}`, rulesets: ["gul-bara"], plays });
