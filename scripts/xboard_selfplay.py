#!/usr/bin/env python3
"""Corvid in CECP mode (driven by python-chess's XBoardProtocol) against Corvid in UCI mode.

The acceptance test of the xboard front end: every game must run without a protocol error, and draw offers
must be made and handled both ways. The script is the arbiter and applies Dineri's rules
(../shared/rules/dineri.md): checkmate, stalemate, and the automatic draws (threefold repetition, fifty moves,
the dead positions of Dineri's list) end a game at once; an offer stands until the opponent moves, and the
same player may offer again only after the opponent has played two moves. Whenever a move of the CECP side
ends the game, that side must claim the same result (`1/2-1/2 {...}` etc.) — this is checked too.

The UCI side offers a draw when its evaluation lies within --offer-cp after move --offer-after, and accepts
Corvid's offers when its evaluation is at most --accept-cp; the CECP side follows its own policy (its
`option` settings are passed with --xb-option NAME=VALUE).

    pip install chess
    scripts/xboard_selfplay.py --games 20 --time 0.05

Exit status 0 when all games ran cleanly, 1 otherwise. A summary (results, terminations, offers) is printed.
"""

import argparse
import collections
import logging
import os
import random
import sys

try:
    import chess
    import chess.engine
except ImportError:  # pragma: no cover
    print("python-chess is needed: pip install chess", file=sys.stderr)
    sys.exit(2)


def dineri_outcome(board):
    """(result, reason) when the game has ended by itself under Dineri's rules, else None."""
    if not any(board.generate_legal_moves()):
        if board.is_check():
            return ("0-1" if board.turn == chess.WHITE else "1-0", "checkmate")
        return ("1/2-1/2", "stalemate")
    if dead_position(board):
        return ("1/2-1/2", "no mate possible")
    if board.is_repetition(3):
        return ("1/2-1/2", "threefold repetition")
    if board.halfmove_clock >= 100:
        return ("1/2-1/2", "fifty-move rule")
    return None


def dead_position(board):
    """Exactly Dineri's list: K v K, K+B v K, K+N v K, and kings with bishops all on one square colour."""
    others = board.occupied & ~board.kings
    if others == 0:
        return True
    if board.pawns or board.rooks or board.queens:
        return False
    if chess.popcount(others) == 1:
        return True  # one minor piece
    if board.knights:
        return False
    bishops = board.bishops
    return (bishops & chess.BB_DARK_SQUARES) == 0 or (bishops & chess.BB_LIGHT_SQUARES) == 0


CLAIM_TEXT = {
    "checkmate": ("mates",),
    "stalemate": ("Stalemate",),
    "threefold repetition": ("repetition",),
    "fifty-move rule": ("fifty-move",),
    "no mate possible": ("no mate possible",),
}


class Lines(logging.Handler):
    """Collects what one engine writes (python-chess logs every received line at DEBUG level)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.protocol = None
        self.lines = []
        self.warnings = []

    def emit(self, record):
        if record.levelno >= logging.WARNING:
            self.warnings.append(record.getMessage())
        elif record.msg == "%s: >> %s" and record.args and record.args[0] is self.protocol:
            self.lines.append(record.args[1])


class OfferState:
    """The re-offer rule for one player: moves the opponent has made since this player's last offer."""

    def __init__(self):
        self.since = None

    def may_offer(self):
        return self.since is None or self.since >= 2

    def offered(self):
        self.since = 0

    def opponent_moved(self):
        if self.since is not None:
            self.since += 1


def relative_cp(info, mate_value=100000):
    score = info.get("score")
    if score is None:
        return None
    return score.relative.score(mate_score=mate_value)


def opening(rng, plies, chess960):
    """A random but legal start: `plies` random moves from the standard position (or a random Chess960 array),
    the same for both colours of a game pair, so that games differ."""
    board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or dineri_outcome(board):
            break
        board.push(rng.choice(moves))
    return board


def play_game(gid, xb, uci, lines, args, xb_white, start):
    board = start.copy()
    limit = chess.engine.Limit(time=args.time)
    uci_offers = OfferState()
    xb_offer_pending = False  # Corvid-CECP's offer stands
    uci_offer_pending = False  # the UCI side's offer stands (sent with Corvid-CECP's next `go`)
    stats = collections.Counter()
    problems = []
    for _ in range(args.max_plies):
        ended = dineri_outcome(board)
        if ended:
            return ended[0], ended[1], stats, problems
        xb_turn = (board.turn == chess.WHITE) == xb_white
        if xb_turn:
            lines.lines.clear()
            offered = uci_offer_pending
            res = xb.play(board, limit, game=gid, draw_offered=offered, info=chess.engine.INFO_SCORE)
            uci_offer_pending = False
            if offered and res.draw_offered and res.move is None:
                stats["uci offers accepted"] += 1
                return "1/2-1/2", "agreement (CECP accepts)", stats, problems
            if offered:
                stats["uci offers declined"] += 1
            if res.resigned:
                stats["cecp resigns"] += 1
                return ("0-1" if xb_white else "1-0"), "CECP side resigns", stats, problems
            if res.move is None:
                problems.append(f"game {gid}: CECP side gave no move at {board.fen()}: {lines.lines}")
                return "*", "error", stats, problems
            if res.draw_offered:
                stats["cecp offers"] += 1
                xb_offer_pending = True
            board.push(res.move)
            uci_offers.opponent_moved()
            ended = dineri_outcome(board)
            if ended:
                result, reason = ended
                claims = [l for l in lines.lines if l.split(" ")[0] in ("1-0", "0-1", "1/2-1/2")]
                want = CLAIM_TEXT[reason]
                if not claims or not claims[-1].startswith(result) or not any(w in claims[-1] for w in want):
                    problems.append(f"game {gid}: {reason} ({result}) after {res.move} but claims {claims}")
                else:
                    stats["cecp claims"] += 1
        else:
            res = uci.play(board, limit, info=chess.engine.INFO_SCORE)
            cp = relative_cp(res.info)
            if xb_offer_pending:
                if cp is not None and cp <= args.accept_cp:
                    stats["cecp offers accepted"] += 1
                    return "1/2-1/2", "agreement (UCI accepts)", stats, problems
                stats["cecp offers declined"] += 1
                xb_offer_pending = False  # it lapses with the move
            if res.move is None:
                problems.append(f"game {gid}: UCI side gave no move at {board.fen()}")
                return "*", "error", stats, problems
            board.push(res.move)
            if (
                cp is not None
                and abs(cp) <= args.offer_cp
                and board.fullmove_number > args.offer_after
                and uci_offers.may_offer()
                and dineri_outcome(board) is None
            ):
                uci_offers.offered()
                uci_offer_pending = True
                stats["uci offers"] += 1
    return "*", "move limit", stats, problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_engine = os.path.join(here, "..", "target", "release", "corvid")
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", default=default_engine, help="the corvid binary (default target/release/corvid)")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--time", type=float, default=0.05, help="seconds per move (default 0.05)")
    p.add_argument("--max-plies", type=int, default=600)
    p.add_argument("--random-plies", type=int, default=6, help="random opening moves per game pair (default 6)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random openings")
    p.add_argument("--chess960", action="store_true", help="random Chess960 start arrays (CECP: variant fischerandom)")
    p.add_argument("--offer-cp", type=int, default=100, help="UCI side offers within ±CP (default 100)")
    p.add_argument("--offer-after", type=int, default=12, help="... from this move on (default 12)")
    p.add_argument("--accept-cp", type=int, default=0, help="UCI side accepts at or below CP (default 0)")
    p.add_argument("--xb-option", action="append", default=None, metavar="NAME=VALUE",
                   help="an option for the CECP side (default: 'OfferDrawAfter=10')")
    args = p.parse_args()

    lines = Lines()
    log = logging.getLogger("chess.engine")
    log.setLevel(logging.DEBUG)
    log.addHandler(lines)
    log.propagate = False

    xb = chess.engine.SimpleEngine.popen_xboard([args.engine])
    uci = chess.engine.SimpleEngine.popen_uci([args.engine])
    lines.protocol = xb.protocol
    options = {}
    for o in args.xb_option if args.xb_option is not None else ["OfferDrawAfter=10"]:
        name, _, value = o.partition("=")
        options[name.strip()] = value.strip()
    if options:
        xb.configure(options)

    results = collections.Counter()
    reasons = collections.Counter()
    stats = collections.Counter()
    problems = []
    cecp_points = 0.0
    rng = random.Random(args.seed)
    start = chess.Board()
    try:
        for g in range(args.games):
            xb_white = g % 2 == 0
            if xb_white:
                start = opening(rng, args.random_plies, args.chess960)
            try:
                result, reason, s, probs = play_game(g, xb, uci, lines, args, xb_white, start)
            except chess.engine.EngineError as e:
                result, reason, s, probs = "*", "error", collections.Counter(), [f"game {g}: EngineError: {e}"]
            results[result] += 1
            reasons[reason] += 1
            stats.update(s)
            problems.extend(probs)
            if result == "1/2-1/2":
                cecp_points += 0.5
            elif (result == "1-0") == xb_white and result != "*":
                cecp_points += 1
            print(f"game {g + 1:2}: CECP {'White' if xb_white else 'Black'}  {result:7}  {reason}", flush=True)
    finally:
        xb.quit()
        uci.quit()

    print()
    print("results:", dict(results))
    print("terminations:", dict(reasons))
    print("offers:", dict(stats))
    print(f"CECP side scored {cecp_points}/{args.games}")
    if lines.warnings:
        problems.extend(f"python-chess warning: {w}" for w in lines.warnings)
    if problems:
        print("\nPROBLEMS:")
        for pr in problems:
            print(" ", pr)
        return 1
    print("no errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
