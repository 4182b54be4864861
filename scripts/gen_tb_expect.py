#!/usr/bin/env python3
"""Writes tests/data/syzygy_expected.txt: random legal 3-4-man positions with their WDL and DTZ from
python-chess's own Syzygy prober (an implementation independent of the library Corvid uses), for the
comparison in tests/tablebases.rs.

Usage: pip install chess==1.11.2; python3 scripts/gen_tb_expect.py [count]

Every material set of tests/data/syzygy is used, with either colour as the stronger side and either side to
move; positions are legal (the side not to move is not in check, no pawn on a back rank), some with an
en-passant capture available. A fixed seed keeps the file reproducible.
"""

import os
import random
import sys

import chess
import chess.syzygy

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TABLES = os.path.join(ROOT, "tests", "data", "syzygy")
OUT = os.path.join(ROOT, "tests", "data", "syzygy_expected.txt")
PIECES = {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}


def materials():
    names = sorted(f[:-5] for f in os.listdir(TABLES) if f.endswith(".rtbw"))
    return [tuple(n.split("v")) for n in names]


def random_board(rng, strong, weak, strong_color):
    """A random legal board with `strong` (e.g. "KRP") for `strong_color` and `weak` for the other side."""
    while True:
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        ok = True
        for color, side in ((strong_color, strong), (not strong_color, weak)):
            for letter in side:
                sq = squares.pop()
                kind = chess.KING if letter == "K" else PIECES[letter]
                if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    ok = False
                board.set_piece_at(sq, chess.Piece(kind, color))
        if not ok:
            continue
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            return board


def en_passant_board(rng, strong, weak, strong_color):
    """A position right after a double pawn push that can be taken en passant, when the material allows."""
    for _ in range(2000):
        board = random_board(rng, strong, weak, strong_color)
        mover = board.turn
        # The side to move captures; the other side's pawn just moved two squares.
        pawns = list(board.pieces(chess.PAWN, not mover))
        rng.shuffle(pawns)
        pusher_is_white = mover == chess.BLACK
        for sq in pawns:
            if chess.square_rank(sq) != (3 if pusher_is_white else 4):
                continue
            back = -8 if pusher_is_white else 8
            ep, start = sq + back, sq + 2 * back
            if board.piece_at(ep) or board.piece_at(start):
                continue
            board.ep_square = ep
            if board.is_valid() and board.has_legal_en_passant():
                return board
            board.ep_square = None
    return None


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 700
    rng = random.Random(20261201)
    mats = materials()
    lines = []
    with chess.syzygy.open_tablebase(TABLES) as tb:
        i = 0
        while len(lines) < count:
            strong, weak = mats[i % len(mats)]
            color = rng.choice([chess.WHITE, chess.BLACK])
            board = None
            if "P" in strong and "P" in weak and rng.random() < 0.8:
                board = en_passant_board(rng, strong, weak, color)
            if board is None:
                board = random_board(rng, strong, weak, color)
            i += 1
            wdl = tb.probe_wdl(board)
            dtz = tb.probe_dtz(board)
            lines.append(f"{board.fen(en_passant='legal')};{wdl};{dtz}")
    with open(OUT, "w") as f:
        f.write("# FEN;WDL;DTZ from python-chess %s chess.syzygy (scripts/gen_tb_expect.py)\n" % chess.__version__)
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines)} positions over {len(mats)} material sets -> {OUT}")


if __name__ == "__main__":
    main()
