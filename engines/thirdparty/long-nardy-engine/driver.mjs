// DmitriiNov/long-nardy-engine's Long Nardy rules (engines/thirdparty/long-nardy-engine/SOURCE.md says what
// it plays differently), asked for legal plays: `node driver.mjs CHECKOUT COMMIT`, CHECKOUT holding the
// JavaScript its own build writes to dist/.
//
// Its `Board` (src/board.ts) keeps each side's 24 counts from that side's head: index 0 is the side's 24-point,
// index i its point 24 - i; the other side's index is (i + 12) % 24 (src/engine/long-nardy/moveValidators.ts:35).
// `LongNardyEngine.SetPossibleMoves` (src/engine/long-nardy/engine.ts:119-122) builds the tree of every
// sequence of single moves and keeps the branches of the largest total (src/movesTree.ts:99-122); its leaves are
// the plays. `moveNumber` is the game's turn counter, 1 for the first turn (engine.ts:95-113).
//
// What its source does differently (file:line at 1c6a55e), each found again by the suite:
// - Six-block checked at every single move (nd.block.six): the validators run on each step of the tree
//   (`isMoveValid`, engine.ts:160-170), `IsNoSixBlocked` (moveValidators.ts:90-115) among them, so a row may not stand even for a
//   moment inside a play: identify reads six-block=banned-within-turn (9 cases).
// - Head exception with 4-4 (nd.head.first-turn): a second checker may not leave the head with 4-4 whenever the
//   opponent has a checker on its index 20, the mover's 16-point (moveValidators.ts:79-82), even where the play
//   from the head goes another way: 1 case, a bug.
// - The plays kept are those of the largest total of numbers (movesTree.ts:105-122), not the most numbers then
//   the higher one; no case tells these apart here.
import { createRequire } from "node:module";
import path from "node:path";
import { args, position, serve } from "../bridge.mjs";

const { checkout, commit } = args();
const require = createRequire(import.meta.url);
const dist = (p) => require(path.resolve(checkout, "dist", p));
const Engine = dist("engine/long-nardy/engine.js").default;
const Board = dist("board.js").default;
const MoveState = dist("moveState.js").default;

// Engine index i holds the side's point 24 - i.
const toIndices = (points) => points.slice().reverse();
const toPoints = (indices) => indices.slice(0, 24).reverse();

function plays(state) {
  const mover = state.turn;
  const other = mover === "white" ? "black" : "white";
  const engine = new Engine(() => {});
  const [d1, d2] = state.dice;
  const numbers = d1 === d2 ? [d1, d1, d1, d1] : [d1, d2];
  const done = [];
  for (let i = 0; i < state.context.head_moves; i++) done.push([0, 0]); // checkers that already left the head
  const moveState = new MoveState(state.context.rolls_in_game + 1, true, [d1, d2], numbers, done);
  const board = new Board(toIndices(state.position[mover]), toIndices(state.position[other]));
  engine.SetPossibleMoves(moveState, board);
  const tree = moveState.getMovesTree();
  if (!tree || !tree.nextMoves) return [];
  return tree.allMovesToArray().map((line) => {
    const after = board.getBoardCopy();
    for (const [from, to] of line) {
      after.removePiece(true, from);
      after.addPiece(true, to);
    }
    const mine = toPoints(after.getCurrentBoard(true));
    const theirs = toPoints(after.getOpponentBoard(true));
    return mover === "white" ? position(mine, theirs) : position(theirs, mine);
  });
}

const { version } = require(path.resolve(checkout, "package.json"));
serve({ name: "long-nardy-engine", version: `${version}+${commit.slice(0, 7)}`, rulesets: ["narde-guide"], plays });
