#!/usr/bin/env python3
"""Generate Texel-tuning data for Corvid's evaluation: quiet positions labelled with the final game result.

Stockfish plays itself at a low node budget from the shared opening book (plus a few random plies so games
diverge). Every quiet position of a game (side to move not in check, the engine's chosen move is neither a
capture nor a promotion, no mate score) is written as one `FEN;result` line, result from White's view:
1.0 / 0.5 / 0.0. Games are written contiguously, so a tuner can hold out the tail of the file as a validation
set without leaking positions from the same game.

Regenerate the data set used for the committed parameters (three runs on one core appended to one file:
7595 games, 606k positions, 34 MB; data/ is git-ignored):

    pip install chess
    python3 scripts/gen_tune_data.py --out data/tune.txt --minutes 0 --games 2802 --seed 1
    python3 scripts/gen_tune_data.py --out data/tune.txt --minutes 0 --games 2484 --seed 2
    python3 scripts/gen_tune_data.py --out data/tune.txt --minutes 0 --games 2309 --seed 3

then tune with `cargo run --release --bin tune -- data/tune.txt` (see src/bin/tune.rs for the options; the
header of src/eval/tuned.rs records the ones used). Node budgets (not time) make the games independent of machine
speed, so --games reproduces the set given the same Stockfish (Debian's 15.1 package here); --minutes instead
stops on the clock.
"""

import argparse
import random
import sys
import time

import chess
import chess.engine

RESIGN_CP = 1000  # adjudicate a win when both sides agree on a score this large...
RESIGN_PLIES = 6  # ...for this many consecutive plies
DRAW_CP = 10  # adjudicate a draw when the score stays this close to zero...
DRAW_PLIES = 12  # ...for this many plies...
DRAW_AFTER_PLY = 80  # ...once the game is this long
MAX_PLIES = 400
MAX_START_IMBALANCE = 250  # reject starts that the random plies made lopsided


def read_openings(path):
    fens = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            # EPD: the first four fields are the position; opcodes follow.
            fields = line.split()
            fens.append(" ".join(fields[:4]) + " 0 1")
    return fens


def score_cp(info, board):
    """Engine score in centipawns from White's view, or None for a mate score."""
    score = info.get("score")
    if score is None:
        return None
    white = score.white()
    if white.is_mate():
        return None
    return white.score()


def play_game(engine, start_fen, rng, nodes_lo, nodes_hi, random_plies):
    board = chess.Board(start_fen)
    for _ in range(rng.randint(0, random_plies)):
        moves = list(board.legal_moves)
        if not moves:
            return None
        board.push(rng.choice(moves))
        if board.is_game_over():
            return None
    # Balanced starts only: a random blunder would make the whole game one-sided noise.
    info = engine.analyse(board, chess.engine.Limit(nodes=nodes_hi))
    cp = score_cp(info, board)
    if cp is None or abs(cp) > MAX_START_IMBALANCE:
        return None

    quiet = []
    big_streak = 0
    big_sign = 0
    draw_streak = 0
    result = None
    plies = 0
    while result is None:
        if board.is_game_over(claim_draw=True):
            outcome = board.outcome(claim_draw=True)
            if outcome.winner is None:
                result = "0.5"
            else:
                result = "1.0" if outcome.winner == chess.WHITE else "0.0"
            break
        if plies >= MAX_PLIES:
            result = "0.5"
            break
        limit = chess.engine.Limit(nodes=rng.randint(nodes_lo, nodes_hi))
        play = engine.play(board, limit, info=chess.engine.INFO_SCORE)
        move = play.move
        cp = score_cp(play.info, board)
        if (
            cp is not None
            and not board.is_check()
            and not board.is_capture(move)
            and move.promotion is None
        ):
            quiet.append(board.fen())
        # Adjudication keeps the games short; both rules need a streak so a single odd search cannot decide.
        if cp is not None and abs(cp) >= RESIGN_CP:
            sign = 1 if cp > 0 else -1
            big_streak = big_streak + 1 if sign == big_sign else 1
            big_sign = sign
        elif cp is None and play.info.get("score") is not None:
            sign = 1 if play.info["score"].white().mate() > 0 else -1
            big_streak = big_streak + 1 if sign == big_sign else 1
            big_sign = sign
        else:
            big_streak = 0
        if big_streak >= RESIGN_PLIES:
            result = "1.0" if big_sign > 0 else "0.0"
            break
        if cp is not None and abs(cp) <= DRAW_CP and plies >= DRAW_AFTER_PLY:
            draw_streak += 1
        else:
            draw_streak = 0
        if draw_streak >= DRAW_PLIES:
            result = "0.5"
            break
        board.push(move)
        plies += 1
    return [(fen, result) for fen in quiet]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output file (appended to)")
    ap.add_argument("--openings", default="/work/shared/tools/openings.epd")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--minutes", type=float, default=25.0, help="stop after this much wall time (0: no limit)")
    ap.add_argument("--games", type=int, default=0, help="stop after this many games (0: no limit)")
    ap.add_argument("--nodes-min", type=int, default=1000)
    ap.add_argument("--nodes-max", type=int, default=3000)
    ap.add_argument("--random-plies", type=int, default=6, help="up to this many random plies after the opening")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    openings = read_openings(args.openings)
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Threads": 1, "Hash": 16})
    deadline = time.time() + args.minutes * 60 if args.minutes > 0 else float("inf")
    games = positions = 0
    tally = {"1.0": 0, "0.5": 0, "0.0": 0}
    try:
        with open(args.out, "a") as out:
            while time.time() < deadline and (args.games == 0 or games < args.games):
                engine.protocol.send_line("ucinewgame")
                rows = play_game(engine, rng.choice(openings), rng, args.nodes_min, args.nodes_max, args.random_plies)
                if rows is None:
                    continue
                for fen, result in rows:
                    out.write(f"{fen};{result}\n")
                out.flush()
                games += 1
                positions += len(rows)
                if rows:
                    tally[rows[0][1]] += 1
                if games % 50 == 0:
                    print(f"{games} games, {positions} positions, results {tally}", file=sys.stderr, flush=True)
    finally:
        engine.quit()
    print(f"done: {games} games, {positions} positions, results {tally}", file=sys.stderr)


if __name__ == "__main__":
    main()
