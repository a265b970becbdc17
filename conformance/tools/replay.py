"""`gammonspec replay`: check recorded backgammon matches against an engine, move by move.

Each game starts from the starting position with the cube centred; every recorded play must leave a
position among the engine's legal plays for that roll, every double must be allowed by the engine
(may-double) and every answer legal (cube-action), and the game's recorded winner and points must be
what the engine scores (game-result, or the drop). The score at each game's start and its Crawford
flag are the engine's match-after-game from the games before, each counted as the engine scored
it (an early ending as recorded), so a wrong score line or wrong points are each reported once.
A game whose record ends before it is over is an early ending, a resignation: reported, not
judged. After an illegal play the replay goes on from the recorded position (the transcript's
own), so each planted error is reported once; after a play that cannot even be made, or an
illegal double, the rest of that game is not checked. Anything the engine raises stops the
replay with one line naming the transcript's line (exit 2), as an engine given up does in `run`.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gammonspec.conformance.harness.board import draw
from gammonspec.conformance.harness.launch import EngineSpec
from gammonspec.conformance.tools.match_files import read_all
from gammonspec.conformance.tools.replay_report import Finding, Replayed, text, write_json
from gammonspec.conformance.tools.transcripts import Action, Ending, Game, Transcript, TranscriptError, files_in
from gammonspec.model.games import GAME_DATA
from gammonspec.model.interface import (
    Engine,
    EngineFailure,
    EngineInfo,
    EngineLoadError,
    GameResult,
    describe_exception,
)
from gammonspec.model.notation import NotationError, apply, describe
from gammonspec.model.position_ids import encode_xgid
from gammonspec.model.profiles import Profile
from gammonspec.model.rulesets import Rules, Ruleset
from gammonspec.model.state import SIDES, Cube, Layout, Match, Side, State, TurnContext, other, start_layout
from gammonspec.model.terminal import printable, say
from tqdm import tqdm

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
NEAREST = 3  # legal plays shown for an illegal one
NEEDED = ("legal-plays", "game-result", "cube")


class _GameOff(Exception):
    """The rest of this game cannot be checked (the finding says why)."""


@dataclass
class _Game:
    """The replay of one game: where it stands and what the engine said."""

    engine: Engine
    rules: Rules
    transcript: Transcript
    game: Game
    match: Match
    out: Replayed
    layout: Layout
    cube: Cube = Cube()
    turn: Side | None = None  # the side to act next; None before the first roll
    rolls: int = 0
    played: set[Side] = field(default_factory=set)
    offer: State | None = None  # the state a pending double was offered in
    result: GameResult | None = None  # the end of the game as the engine judges it
    ended_at: Action | None = None
    capabilities: tuple[str, ...] = ()
    action: Action | None = None  # the action being replayed

    def finding(
        self, level: str, message: str, line: int | None = None, move: int | None = None, **extra: object
    ) -> None:
        path, number = str(self.transcript.path), self.game.number
        self.out.findings.append(Finding(level, path, line or self.game.line, number, move, message, **extra))  # type: ignore[arg-type]

    def error(self, action: Action | None, message: str, **extra: object) -> None:
        """An error at `action` (None: at the game's start)."""
        self.finding("error", message, action.line if action else None, action.move if action else None, **extra)

    def ask(self, method: str, *args: object) -> Any:
        """The engine's answer; whatever it raises becomes one EngineFailure naming the transcript's line."""
        try:
            return getattr(self.engine, method)(*args)
        except Exception as exc:  # noqa: BLE001 - EngineFailure, Skip, StateError or a bug of the engine's
            a = self.action
            where = (
                f"{self.transcript.path}:{a.line}: game {self.game.number}, move {a.move} ({a.describe()})"
                if a
                else (f"{self.transcript.path}:{self.game.line}: game {self.game.number}")
            )
            raise failure(where, exc) from None

    def state(self, side: Side, dice: tuple[int, ...] = ()) -> State:
        context = TurnContext(first_turn=side not in self.played, rolls_in_game=self.rolls)
        return State(self.layout, side, dice, context, self.cube, match=self.match)

    def run(self) -> None:
        for i, action in enumerate(self.game.actions):
            if self.result is not None:
                self.after_end(list(self.game.actions[i:]))
                return
            self.action = action
            if self.turn is not None and action.side != self.turn:
                self.error(action, f"{action.describe()}, but it is {self.turn}'s turn")
                raise _GameOff
            {"play": self.play, "double": self.double}.get(action.kind, self.answer)(action)
        self.action = None

    def after_end(self, actions: list[Action]) -> None:
        """Actions recorded after the game was over: one error naming them all."""
        assert self.result is not None and self.ended_at is not None
        listed = ", ".join(f"{a.describe()} (line {a.line})" for a in actions)
        self.error(
            actions[0],
            f"recorded after the game ended with {self.ended_at.describe()} (line {self.ended_at.line}; {self.result.winner}"
            f" wins {self.result.points}): {listed}",
        )

    def play(self, action: Action) -> None:
        if self.offer is not None:
            self.error(action, f"{action.describe()} while {other(action.side)}'s double is unanswered")
            raise _GameOff
        side, dice = action.side, action.dice or ()
        if action.play is None:
            self.finding("note", f"{action.describe()}: the program did not record it", action.line, action.move)
            raise _GameOff
        state = self.state(side, dice)
        if self.rolls == 0:
            self.opening(action)
        try:
            after = apply(self.layout, side, action.play)
        except NotationError as exc:
            self.illegal(action, state, None, f"{action.describe()} cannot be made: {exc}")
            raise _GameOff from None
        legal = set(self.ask("legal_plays", state, self.rules))
        if after not in legal and self.rolled_then_resigned(action):
            self.finding("note", f"{action.describe()}: the dice of the roll before the resignation", action.line)
            return
        if after not in legal:
            self.illegal(action, state, after, f"illegal play {action.describe()}", legal)
        self.out.plays += 1
        self.layout, self.rolls, self.turn = after, self.rolls + 1, other(side)
        self.played.add(side)
        result = self.ask("game_result", replace(state, layout=after, dice=()), self.rules)
        if result is not None:
            self.result, self.ended_at = result, action

    def rolled_then_resigned(self, action: Action) -> bool:
        """A roll written without its play just before the result: the dice the winner rolled before the other
        side resigned (a dance there would be legal, so this is asked only of a play the engine does not allow)."""
        ending = self.game.ending
        last = self.game.actions[-1] is action
        return last and not action.play and ending is not None and 0 <= ending.line - action.line <= 1

    def illegal(
        self, action: Action, state: State, after: Layout | None, message: str, legal: set[Layout] | None = None
    ) -> None:
        legal = legal if legal is not None else set(self.ask("legal_plays", state, self.rules))
        self.error(
            action,
            message,
            board=draw(self.layout, action.side),
            xgid=encode_xgid(self.layout, action.side, action.dice, self.cube, self.match),
            nearest=nearest(self.layout, after, action.side, legal),
        )

    def opening(self, action: Action) -> None:
        """The first roll: the starter's die is the higher (a tie is rolled again), and it plays both."""
        if "opening" not in self.capabilities:
            return
        high, low = max(action.dice or (0,)), min(action.dice or (0,))
        dice = {action.side: high, other(action.side): low}
        opened = self.ask("opening", self.rules, dice, self.game.number, None, self.cube, self.match)
        if opened.starts != action.side or (opened.dice and sorted(opened.dice) != sorted(action.dice or ())):
            says = "a tie, rolled again" if opened.starts is None else f"{opened.starts} starts"
            self.error(action, f"{action.describe()} opens the game, but for that opening roll the engine says {says}")

    def double(self, action: Action) -> None:
        if self.offer is not None:
            self.error(action, f"{action.describe()} while a double is unanswered")
            raise _GameOff
        state = self.state(action.side)
        if not self.ask("may_double", state, self.rules):
            owner = f"owned by {self.cube.owner}" if self.cube.owner else "centred"
            crawford = ", the Crawford game" if self.match.crawford else ""
            score = (
                f", score {self.match.score[0]}-{self.match.score[1]} of {self.match.length}"
                if self.match.length
                else ""
            )
            self.error(
                action,
                f"{action.describe()}, but may not double here (cube {self.cube.value} {owner}{crawford}{score})",
            )
            raise _GameOff
        if action.value is not None and action.value != self.cube.value * 2:
            self.error(
                action,
                f"{action.describe()}, but the cube is at {self.cube.value}: a double makes it {self.cube.value * 2}",
            )
        self.offer, self.turn = state, other(action.side)

    def answer(self, action: Action) -> None:
        offer = self.offer
        if offer is None or action.side != other(offer.turn):
            self.error(action, f"{action.describe()} without a double to answer")
            raise _GameOff
        self.out.cube_actions += 1
        outcome = self.ask("cube_action", offer, self.rules, action.kind)
        if not outcome.legal:
            self.error(action, f"{action.describe()}: not a legal answer to the double under these rules")
            raise _GameOff
        if action.kind == "beaver" and action.value is not None and outcome.cube and action.value != outcome.cube.value:
            self.error(
                action, f"{action.describe()}, but a beaver of a {offer.cube.value}-cube makes it {outcome.cube.value}"
            )
        self.offer, self.turn = None, offer.turn
        if outcome.result is not None:
            self.result, self.ended_at = outcome.result, action
        elif outcome.cube is not None:
            self.cube = outcome.cube

    def judge_ending(self) -> None:
        ending = self.game.ending
        if ending is None:
            self.finding("note", "the record ends before the game does: no result is recorded")
            return
        won = f"{ending.winner} wins {ending.points}"
        if self.result is None:
            if ending.resigned is False:
                self.finding("error", f"recorded: {won}, not by resignation, but the game is not over", ending.line)
            else:
                self.finding("note", f"ended early: {other(ending.winner)} resigns, {won} (not judged)", ending.line)
            return
        self.out.judged += 1
        if self.capped(ending):
            capped = (
                "the most a money game is recorded with"
                if not self.match.length
                else (f"the points {ending.winner} needed to win the match")
            )
            self.finding(
                "note",
                f"recorded: {won}, {capped}; the game scores"
                f" {self.result.points} ({self.result.kind}, cube {self.cube.value})",
                ending.line,
            )
        elif (self.result.winner, self.result.points) != (ending.winner, ending.points):
            self.finding(
                "error",
                f"recorded: {won}; the engine scores {self.result.winner} winning {self.result.points}"
                f" ({self.result.kind}, cube {self.cube.value})",
                ending.line,
            )
        elif ending.resigned:
            self.finding("note", f"recorded as a resignation, but the game was over ({self.result.kind})", ending.line)

    def capped(self, ending: Ending) -> bool:
        """A match-winning game recorded with its points capped at what the winner needed (or at the length)."""
        result, length, cap = self.result, self.match.length, self.transcript.cap
        if result is None or result.winner != ending.winner:
            return False
        if not length:  # money play: capped only where the program caps a game's points (Galaxy's 16)
            return cap is not None and ending.points == cap < result.points
        needed = length - self.match.score[SIDES.index(ending.winner)]
        return needed <= ending.points < result.points and ending.points <= length


def resigned(winner: Side, points: int, cube: Cube) -> GameResult:
    """A resigned game as the protocol names results: the kind its points amount to at this cube (bg.score.*)."""
    ratio = points // cube.value if points % cube.value == 0 else 1
    return GameResult(winner, {2: "gammon", 3: "backgammon"}.get(ratio, "single"), points)


def failure(where: str, exc: Exception) -> EngineFailure:
    """An engine's failure, or anything it raised, as one line saying where in the transcript it happened."""
    message = str(exc) if isinstance(exc, EngineFailure) else describe_exception(exc)
    return EngineFailure(f"{where}: {message}", getattr(exc, "stderr", ""))


def nearest(before: Layout, after: Layout | None, side: Side, legal: set[Layout]) -> tuple[str, ...]:
    """The legal plays closest to the recorded result (fewest checkers placed differently), in notation."""

    def distance(layout: Layout) -> int:
        if after is None:
            return 0
        pairs = [(a, b) for s in SIDES for a, b in zip(layout.points(s), after.points(s))]
        return sum(abs(a - b) for a, b in pairs) + sum(
            abs(x - y) for x, y in zip((*layout.bar, *layout.off), (*after.bar, *after.off))
        )

    plays = sorted((distance(layout), describe(before, layout, side)) for layout in legal)
    return tuple(text for _, text in plays[:NEAREST])


def replay_transcript(engine: Engine, info: EngineInfo, target: Ruleset | Profile, transcript: Transcript) -> Replayed:
    out = Replayed(transcript.name, transcript.format, target.name)
    rules = _rules(target, transcript)
    match = Match(transcript.length)
    winner: Side | None = None
    resync = True  # the next game's recorded score is where the match stands (the first, or after a skipped game)
    if transcript.cap:
        out.findings.append(
            Finding(
                "note",
                str(transcript.path),
                transcript.games[0].line,
                1,
                None,
                f"Backgammon Galaxy's one-game {transcript.cap} point match: replayed as a money game"
                + (" with the Jacoby rule" if transcript.options.get("jacoby") else ""),
            )
        )
    for game in transcript.games:
        out.games += 1
        if game.unread:
            out.skipped += 1
            line, why = game.unread
            out.findings.append(Finding("note", str(transcript.path), line, game.number, None, f"game not replayed: {why}"))
            resync = True
            continue
        if resync and game.score is not None and game.score != match.score and winner is None:
            match = Match(match.length, game.score, _crawford(match.length, game.score, game.crawford))
            started = f"starts at {_score(game.score)}" + (", the Crawford game" if match.crawford else "")
            if not match.crawford and length_minus_one(match):
                started += " (not recorded whether it is the Crawford game: taken as after it)"
            out.findings.append(
                Finding("note", str(transcript.path), game.line, game.number, None, f"{started}: judged from its recorded score")
            )
        resync = False
        replay = _Game(
            engine, rules, transcript, game, match, out, start_layout(rules.game), capabilities=info.capabilities
        )
        if winner is not None:
            replay.error(None, f"recorded after {winner} won the match")
            break
        if game.score is not None and game.score != match.score:
            replay.error(
                None, f"the game starts at {_score(game.score)}; the games before make it {_score(match.score)}"
            )
        if game.crawford is not None and game.crawford != match.crawford:
            says = "is" if match.crawford else "is not"
            recorded = "recorded as" if game.crawford else "not recorded as"
            replay.error(None, f"{recorded} the Crawford game, but at {_score(match.score)} it {says}")
        try:
            replay.run()
        except _GameOff:
            stopped = replay.action  # where checking stopped, not the game's header
            replay.finding(
                "note", "the rest of this game is not checked", *((stopped.line, stopped.move) if stopped else ())
            )
            replay.result = None
        else:
            replay.judge_ending()
        if game.ending is None:
            out.cut_short += 1
            resync = True
            continue
        result = replay.result or resigned(game.ending.winner, game.ending.points, replay.cube)
        after = replay.ask("match_after_game", State(replay.layout, game.ending.winner, match=match), rules, result)
        match, winner = Match(match.length, after.score, after.crawford), after.winner
    return out


def _crawford(length: int, score: tuple[int, int], recorded: bool | None) -> bool:
    """Whether a game that starts a record mid-match is the Crawford game: as recorded (SGF); a .mat does not say,
    and a side one point away is taken as after the Crawford game (so a double there is never a false error)."""
    return bool(recorded) and length > 1


def length_minus_one(match: Match) -> bool:
    return match.length > 1 and match.length - 1 in match.score


def _score(score: tuple[int, int]) -> str:
    return f"{score[0]}-{score[1]}"


def _rules(target: Ruleset | Profile, transcript: Transcript) -> Rules:
    """The target's rules with the options the transcript records; a recorded option the target fixes otherwise,
    or a match without the Crawford rule, is bad input."""
    for option, value in transcript.options.items():
        allowed = target.options.get(option, {}).get("allowed", [])
        if value not in allowed:
            raise TranscriptError(
                transcript.path,
                None,
                f"played with {option} {'on' if value else 'off'}, which {target.name} does not allow",
            )
    if transcript.crawford_rule is False and transcript.length > 1:
        raise TranscriptError(
            transcript.path, None, f"played without the Crawford rule, which {target.name} has (bg.match.crawford)"
        )
    return target.rules(transcript.options)


@dataclass(frozen=True)
class ReplayOptions:
    """What `gammonspec replay` replays (files or folders of match transcripts), against which engine, and its report."""

    files: tuple[Path, ...]
    engine: EngineSpec
    quiet: bool
    json: Path | None


def main(options: ReplayOptions, targets: dict[str, Ruleset | Profile]) -> int:
    """`gammonspec replay FILE...` under each backgammon ruleset or profile selected: the exit status
    (0 all good, 1 errors found, 2 bad input or usage)."""
    from gammonspec.conformance.harness.launch import handshake, start

    chosen = [t for t in targets.values() if GAME_DATA[t.game].transcripts]
    if not chosen:
        recorded = " or ".join(g.name for g in GAME_DATA.values() if g.transcripts)
        unrecorded = " and ".join(g.title for g in GAME_DATA.values() if not g.transcripts)
        say(
            f"no {recorded} ruleset or profile selected ({', '.join(targets)}): transcripts are {recorded} matches;"
            f" {unrecorded} have no transcript format to replay"
        )
        return EXIT_USAGE
    transcripts: list[Transcript] = []
    refused: list[TranscriptError] = []  # every input that could not be replayed, in the JSON too
    try:
        paths = files_in(options.files)
    except TranscriptError as exc:
        say(exc)
        write_json(options.json, [], [exc], None, 0.0)
        return EXIT_USAGE
    reading = tqdm(
        paths, desc="reading", unit="file", file=sys.stderr, disable=True if options.quiet else None, leave=False
    )
    for path in reading:
        try:
            transcripts += read_all(path)
        except TranscriptError as exc:
            reading.clear()
            say(exc)
            refused.append(exc)
    if not transcripts:
        write_json(options.json, [], refused, None, 0.0)
        return EXIT_USAGE  # each file's error is said above
    began = time.perf_counter()
    try:
        engine = start(options.engine)
    except EngineLoadError as exc:
        say(exc)
        return EXIT_USAGE
    results: list[Replayed] = []
    try:
        info = handshake(engine)
        missing = [c for c in NEEDED if c not in info.capabilities]
        if missing:
            say(f"engine {info.name} does not answer {', '.join(missing)}, which replay needs")
            return EXIT_USAGE
        undeclared = [t.name for t in chosen if not info.declares(t)]
        if undeclared:
            say(
                f"engine {info.name} does not declare {', '.join(undeclared)} (it declares {', '.join(info.rulesets) or 'none'})"
            )
            return EXIT_USAGE
        bar = tqdm(  # files and plays, on a terminal only (as run's and fuzz's), none with -q
            total=len(chosen) * len(transcripts), unit="file", file=sys.stderr, disable=True if options.quiet else None
        )
        with bar:
            for target in chosen:
                for transcript in transcripts:
                    try:
                        results.append(replay_transcript(engine, info, target, transcript))
                    except TranscriptError as exc:
                        bar.clear()
                        say(exc)
                        refused.append(exc)
                    bar.update(1)
                    bar.set_postfix(plays=sum(r.plays for r in results), refresh=False)
    except EngineLoadError as exc:
        say(exc)
        return EXIT_USAGE
    except EngineFailure as exc:
        say(f"engine {info.name} failed, replay stopped at {exc}")
        return EXIT_USAGE
    finally:
        if hasattr(engine, "close"):
            engine.close()
    seconds = time.perf_counter() - began
    if not results:
        write_json(options.json, results, refused, info, seconds)
        return EXIT_USAGE  # each transcript's error is said above
    print(printable(text(results, info, seconds, options.quiet)))
    write_json(options.json, results, refused, info, seconds)
    if refused:
        return EXIT_USAGE
    return EXIT_FAILED if any(r.errors for r in results) else EXIT_OK
