#!/usr/bin/env python3
"""Corvid against Corvid at Makromachy in XBoard 4.9 (under Xvfb), every result checked by Corvid's referee.

XBoard knows Makromachy only from the `setup` and `piece` commands Corvid sends; it tests the legality of
both engines' moves and checks the engines' claims against that reading of the rules (legality testing and
claim testing stay on, as by default). XBoard's own adjudications (fifty moves, repetitions, material) are
switched off so that only the rules end a game, and the engines neither resign nor offer draws, so that
every game is played out to an ending by the rules. For each game the moves the engines sent (from
XBoard's debug log) are replayed by `corvid referee`, whose result must equal the PGN's.

    apt-get install -y xboard xvfb
    scripts/xboard_makro.py --games 20

Exit status 0 when every game was played to the end, every result agrees, and XBoard reported no false
claim, no forfeit and no illegal move; 1 otherwise. Files (PGN, debug log, one coordinate PGN per game) go
to --out.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start_xvfb():
    """An Xvfb server on a free display; returns (process, display)."""
    for n in range(91, 120):
        if os.path.exists(f"/tmp/.X11-unix/X{n}") or os.path.exists(f"/tmp/.X{n}-lock"):
            continue
        proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1600x1200x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        if proc.poll() is None:
            return proc, f":{n}"
    sys.exit("no free X display for Xvfb")


# A scripted engine for the Terror check: it answers the handshake, sends Corvid's `setup` and `piece` lines
# (the first engine, with the check's position) and plays its moves in turn.
FAKE_ENGINE = r"""
import sys
role, table, fen, moves = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(",")
force = False
def out(s):
    sys.stdout.write(s + "\n"); sys.stdout.flush()
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "protover":
        out('feature usermove=1 setboard=1 sigint=0 sigterm=0 variants="makromachy" myname="script" done=1')
    elif w[0] == "variant" and role == "first":
        for l in open(table).read().splitlines():
            out(l.rsplit(" ", 6)[0] + " " + fen if l.startswith("setup ") else l)
    elif w[0] == "force":
        force = True
    elif w[0] in ("go", "usermove"):
        force = force and w[0] != "go"
        if not force and moves:
            out("move " + moves.pop(0))
    elif w[0] == "quit":
        break
"""

# White's Archer takes Black's Terror right after Black's Rook took White's Terror: legal by the rules, and
# refused by XBoard 4.9 when the Terror is its Lion type (the Chu Shogi rule; the forfeit `g5i7`).
TERROR_FEN = "2r10k/14/14/14/2T11/14/14/8t5/14/6O7/14/14/14/K13 w - - 0 1"


def terror_check(corvid, xboard, out, display):
    """True when XBoard takes the Archer's capture of the Terror with Corvid's piece descriptions."""
    lines = subprocess.run([corvid], input="xboard\nprotover 2\nvariant makromachy\nquit\n",
                           capture_output=True, text=True).stdout.splitlines()
    table = os.path.join(out, "pieces.txt")
    with open(table, "w") as f:
        f.write("\n".join(l for l in lines if l.startswith(("setup ", "piece "))) + "\n")
    fake = os.path.join(out, "scripted_engine.py")
    with open(fake, "w") as f:
        f.write(FAKE_ENGINE)
    debug = os.path.join(out, "terror.debug")
    engine = lambda role, moves: f"{sys.executable} {fake} {role} {table} '{TERROR_FEN}' {moves}"
    try:
        subprocess.run([xboard, "-variant", "makromachy", "-mg", "1", "-tc", "5",
                        "-fcp", engine("first", "a1a2,g5i7"), "-scp", engine("second", "c14c10"),
                        "-fd", out, "-sd", out, "-debug", "-nameOfDebugFile", debug,
                        "-popupExitMessage", "false", "-saveSettingsOnExit", "false"],
                       env={**os.environ, "DISPLAY": display}, timeout=15,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pass  # the scripted engines have no more moves: XBoard waits, and is stopped
    log = open(debug, errors="replace").read() if os.path.exists(debug) else ""
    return re.search(r">second: .*g5i7", log) is not None and "Forfeit" not in log


def pgn_games(text):
    """(result, reason, plies, start FEN or None) per game of XBoard's PGN file."""
    games = []
    for chunk in re.split(r"\n(?=\[Event )", text):
        if "[Event " not in chunk:
            continue
        result = re.search(r'\[Result "([^"]*)"\]', chunk).group(1)
        body = "\n".join(line for line in chunk.splitlines() if not line.startswith("["))
        comments = re.findall(r"\{([^}]*)\}", body)
        reason = comments[-1].strip() if comments else ""
        plain = re.sub(r"\{[^}]*\}", " ", body)
        tokens = [t for t in plain.split() if not re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*", t)]
        tokens = [re.sub(r"^\d+\.+", "", t) for t in tokens]
        fen = re.search(r'\[FEN "([^"]*)"\]', chunk)
        games.append((result, reason, len([t for t in tokens if t]), fen.group(1) if fen else None))
    return games


def debug_games(text):
    """The engines' moves per game, from XBoard's debug log (a game starts at `new` to the first engine)."""
    games, moves = [], []
    for line in text.splitlines():
        if re.search(r">first : new$", line):
            if moves:
                games.append(moves)
            moves = []
            continue
        m = re.search(r"<(?:first|second)\s*: move (\S+)", line)
        if m:
            moves.append(m.group(1))
    if moves:
        games.append(moves)
    return games


def referee(corvid, path):
    out = subprocess.run([corvid, "referee", "--variant", "makromachy", path],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip()
    line = out.stdout.strip()
    return line.split(" ", 1)[0], line


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--corvid", default=os.path.join(ROOT, "target", "release", "corvid"))
    ap.add_argument("--xboard", default=shutil.which("xboard") or "/usr/games/xboard")
    # A clock, not a fixed depth: the same engine at a fixed depth plays the same game every time, while the
    # timing of clock-limited searches varies the games.
    ap.add_argument("--depth", type=int, help="also a depth limit per move (XBoard's -depth)")
    ap.add_argument("--tc", default="0:15", help="XBoard's -tc (sudden death base time)")
    ap.add_argument("--inc", default="0.1", help="XBoard's -inc (seconds)")
    ap.add_argument("--out", default="/tmp/xboard_makro")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds for the whole match")
    ap.add_argument("--no-terror-check", action="store_true",
                    help="skip the check that XBoard takes an Archer's capture of the Terror (g5i7)")
    args = ap.parse_args()

    corvid = os.path.abspath(args.corvid)
    os.makedirs(args.out, exist_ok=True)
    pgn = os.path.join(args.out, "games.pgn")
    debug = os.path.join(args.out, "xboard.debug")
    for f in (pgn, debug):
        if os.path.exists(f):
            os.remove(f)

    xvfb, display = start_xvfb()
    terror_ok = None
    if not args.no_terror_check:
        try:
            terror_ok = terror_check(corvid, args.xboard, args.out, display)
        except Exception:
            xvfb.terminate()
            raise
        print(f"Terror check (g5i7 after the Terror was taken): {'taken' if terror_ok else 'REFUSED'}")
    no_adjudication = ["-ruleMoves", "0", "-repeatsToDraw", "0", "-materialDraws", "false",
                       "-trivialDraws", "false", "-adjudicateLossThreshold", "0"]
    engine_options = "Resign=0,OfferDraws=0"
    cmd = [args.xboard, "-variant", "makromachy", "-mg", str(args.games),
           "-fcp", corvid, "-fd", args.out, "-scp", corvid, "-sd", args.out,
           "-firstOptions", engine_options, "-secondOptions", engine_options,
           *(["-depth", str(args.depth)] if args.depth else []), "-tc", args.tc, "-inc", args.inc,
           "-testLegality", "true", "-testClaims", "true", *no_adjudication,
           "-saveGameFile", pgn, "-debug", "-nameOfDebugFile", debug,
           "-popupExitMessage", "false", "-popupMoveErrors", "false", "-saveSettingsOnExit", "false"]
    start = time.time()
    try:
        subprocess.run(cmd, env={**os.environ, "DISPLAY": display}, timeout=args.timeout,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        print(f"XBoard did not finish in {args.timeout} s")
    finally:
        xvfb.terminate()
    minutes = (time.time() - start) / 60

    log = open(debug, errors="replace").read() if os.path.exists(debug) else ""
    played = pgn_games(open(pgn).read()) if os.path.exists(pgn) else []
    moves = debug_games(log)
    distinct = len({tuple(m) for m in moves[:len(played)]})
    false_claims = re.findall(r"False (?:win|draw) claim[^\n]*", log)
    forfeits = re.findall(r"Forfeit due to invalid move[^\n]*", log)
    illegal = re.findall(r"<(?:first|second)\s*: Illegal move[^\n]*", log)

    agree = 0
    print(f"{'game':>4}  {'plies':>5}  {'XBoard PGN':<40}  referee")
    for i, (result, reason, plies, fen) in enumerate(played):
        game_moves = moves[i] if i < len(moves) else []
        path = os.path.join(args.out, f"game_{i + 1:02}.pgn")
        with open(path, "w") as f:
            f.write('[Variant "makromachy"]\n' + (f'[FEN "{fen}"]\n' if fen else "") + "\n")
            f.write(" ".join(game_moves) + "\n")
        verdict, line = referee(corvid, path)
        ok = verdict == result and plies == len(game_moves)
        agree += ok
        mark = "" if ok else "   <-- differs"
        if plies != len(game_moves):
            mark += f" (PGN {plies} plies, log {len(game_moves)})"
        print(f"{i + 1:>4}  {len(game_moves):>5}  {result + ' {' + reason + '}':<40}  {line}{mark}")

    print(f"\n{len(played)} games in {minutes:.1f} min (tc {args.tc} + {args.inc}{f', depth {args.depth}' if args.depth else ''}): "
          f"{distinct} distinct, {agree} results agree with the referee, {len(false_claims)} false claims, "
          f"{len(forfeits)} forfeits, {len(illegal)} illegal-move replies")
    for line in false_claims + forfeits + illegal:
        print("  " + line)
    good = len(played) == args.games and agree == args.games and not (false_claims or forfeits or illegal)
    good = good and terror_ok is not False
    sys.exit(0 if good else 1)


if __name__ == "__main__":
    main()
