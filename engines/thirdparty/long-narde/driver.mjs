// MetinGames/Long-Narde's rules (engine/game.js, engine/board.js), asked for legal plays:
// `node driver.mjs CHECKOUT COMMIT`.  Its JavaScript runs as it is; nothing is built.
//
// `Board.slots` (engine/board.js:4-11) numbers the points 1-24 once for both sides: white (player 1) starts
// on slot 1 and moves up, black (player 2) starts on slot 13 and runs 13..24, 1..12 (board.js:33-41), so white's
// point p is slot 25 - p and black's point q the slot whose progress is 24 - q.  A turn is played one checker and
// one number at a time through `executeMove` (game.js:319-373), offered by `getRuleCompliantDiceSequences`
// (game.js:635-720): the single numbers of a sequence that keeps the most numbers playable and, when only one
// can be played, the higher one (game.js:599-633).  The head limit is two checkers on a side's first turn with
// 3-3, 4-4 or 6-6, else one (game.js:229-247).  The plays are every end of those steps.
//
// What its source does differently (file:line at f2f2c9a), each found again by the suite:
// - Six-block checked at every single move (nd.block.six): `executeMove` refuses a step whose landing makes a
//   row of six with no opposing checker ahead (`isValidMove` -> `getInvalidMoveReason`, board.js:223-259, and
//   `wouldCreateIllegalPrime`, board.js:153-193): identify reads six-block=banned-within-turn (9 cases).
// - Rows round the corner missed (nd.block.six): `wouldCreateIllegalPrime` looks for rows from progress 0 to 18
//   only (board.js:165), so a row running round the mover's 1/24 corner is never seen: 5 cases, a bug.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { args, position, serve } from "../bridge.mjs";

const { checkout, commit } = args();
const { NardeGame } = await import(pathToFileURL(path.resolve(checkout, "engine/game.js")).href);

const PLAYER = { white: 1, black: 2 };
// A side's point p on the shared slots: progress 24 - p along the side's way from its head (board.js:38-41).
const slotOf = (game, side, p) => game.board.getSlotFromProgress(PLAYER[side], 24 - p);

function load(game, state) {
  game.board.setupInitialPieces();
  for (let s = 1; s <= 24; s++) game.board.slots[s] = { count: 0, player: null };
  for (const side of ["white", "black"]) {
    for (let p = 1; p <= 24; p++) {
      const n = state.position[side][p - 1];
      if (n) game.board.slots[slotOf(game, side, p)] = { count: n, player: PLAYER[side] };
    }
    game.board.borneOff[PLAYER[side]] = state.position.off[side];
  }
  const [d1, d2] = state.dice;
  game.dice.values = [d1, d2];
  game.availableMoves = d1 === d2 ? [d1, d1, d1, d1] : [d1, d2];
  game.currentPlayer = PLAYER[state.turn];
  game.status = "PLAYING";
  game.headMovesThisTurn = state.context.head_moves;
  game.turnsCompleted = { 1: 1, 2: 1 };
  if (state.context.first_turn) game.turnsCompleted[PLAYER[state.turn]] = 0;
}

function read(game) {
  const counts = (side) => {
    const out = [];
    for (let p = 1; p <= 24; p++) {
      const slot = game.board.slots[slotOf(game, side, p)];
      out.push(slot.player === PLAYER[side] ? slot.count : 0);
    }
    return out;
  };
  return position(counts("white"), counts("black"));
}

function plays(state) {
  const game = new NardeGame();
  load(game, state);
  const ends = [];
  const seen = new Set();
  const walk = () => {
    const key = game.getSearchStateKey();
    if (seen.has(key)) return;
    seen.add(key);
    let moved = false;
    for (let from = 1; from <= 24; from++) {
      if (game.getLegalTargets(from).length === 0) continue;
      for (const sequence of game.getRuleCompliantDiceSequences(from)) {
        if (sequence.length !== 1) continue;
        const before = game.createMoveStateSnapshot();
        if (game.executeMove(from, sequence[0], false)) {
          moved = true;
          walk();
        }
        game.restoreMoveState(before);
      }
    }
    if (!moved) ends.push(read(game));
  };
  walk();
  return ends;
}

serve({ name: "long-narde", version: `commit ${commit.slice(0, 7)}`, rulesets: ["narde-guide"], plays });
