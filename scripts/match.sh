#!/usr/bin/env bash
# Every match Corvid plays from the shell, in one driver; the first word is the mode:
#   match      the engine under test against an opponent, or against each of several in turn
#   sprt       a new build against an old one until an SPRT verdict
#   gauntlet   issue 21's strength gauntlet: named engines, games per opponent, two opening sets
#   calibrate  UCI_Elo against Stockfish 15.1's own UCI_Elo (anchored to CCRL 40/4)
#   soak       a long self-play with every engine's UCI traffic logged and checked afterwards
#   makro      the Makromachy self-play runs of issue 5
#
# match, sprt and gauntlet run with the first runner found: fastchess, then cutechess-cli, then
# ../shared/tools/match.py (python-chess; same clock rules, colour-swapped opening pairs, Elo +-95 %, SPRT).
# calibrate runs match.py (it needs its per-side options and summary), soak match.py or fastchess, makro
# `corvid match` (python-chess, cutechess and fastchess cannot play Makromachy). Each opening is played twice
# with the colours swapped. `--dry-run` prints the commands of any mode instead of running them.
#
#   scripts/match.sh match -b /usr/games/glaurung -b /usr/games/toga2 --tc 10+0.1 --games 200
#   cp target/release/corvid /tmp/corvid-old   # before the change
#   cargo build --release && scripts/match.sh sprt target/release/corvid /tmp/corvid-old
#   scripts/match.sh sprt NEW OLD --elo0 -5 --elo1 0 --tc 4+0.04   # a non-regression test for a simplification
#   scripts/match.sh gauntlet --engine ./corvid-new --old ./corvid-171070b old      # 100 games a set
#   scripts/match.sh soak --games 2 --keep      # a quick check of the soak itself
#   scripts/match.sh makro a --games-a 10       # only run (a), 10 games
set -u

root="$(cd "$(dirname "$0")/.." && pwd)"
usage() {
    cat <<'USAGE'
usage: scripts/match.sh MODE [WORDS] [options]

Modes, with their defaults (the engine under test, where a mode has one: target/release/corvid, built if missing):
  match -b OPP [-b OPP...]   the engine against each opponent in turn: --tc 10+0.1, --games 200 per opponent,
                             Hash 16, Threads 1, concurrency 2; --sprt E0 E1 stops each at an SPRT verdict
  sprt NEW OLD               SPRT of NEW against OLD: H0 --elo0 0, H1 --elo1 5 (alpha = beta = 0.05),
                             --tc 8+0.08, at most --games 20000, Hash 16, Threads 1, concurrency 2
  gauntlet WHO...            issue 21's strength gauntlet at --tc 10+0.1, Hash 16, Threads 1, each opponent on two
                             opening sets (--openings and --book); WHO: fsf (/usr/games/fairy-stockfish, 50 games
                             a set), eth (/usr/games/ethereal-chess, 50), sf (/usr/games/stockfish, 20),
                             old (--old ENGINE, 100). Logs and PGNs in --out; prints each set's summary
  calibrate                  Corvid at UCI_Elo X against Stockfish at UCI_Elo X (Threads 1, Hash 16), for each
                             X of --levels "1500 2000 2500": --games 40 at --tc 5+0.05, through match.py;
                             PGNs /tmp/corvid-elo-X.pgn. A calibrated level scores 40-60 %
  soak                       self-play, --games 1000 at --tc 1+0.01, --threads 2, --hash 64, --concurrency 1,
                             --tool matchpy; fails on any forfeit, unfinished game, runner warning (fastchess),
                             or protocol fault in the UCI logs (scripts/uci_log_check.py). About an hour
  makro [a|b|both]           Makromachy through `corvid match` (default both): (a) self-play, --games-a 50 at
                             --tc 10+0.1, every game must end by the rules; (b) --deep depth=7 against
                             --shallow depth=2, --games-b 20; --concurrency 2, --nice 19

Options (the modes they apply to in brackets; all: -h/--help, --dry-run):
  -a, --engine ENGINE   engine under test [match gauntlet calibrate soak makro]
  -b ENGINE             an opponent, repeatable; a command with arguments goes in one quoted word [match]
  --tc BASE+INC         time control in seconds [all]
  --games N             games per opponent, or per set in gauntlet (overrides the per-opponent counts),
                        or per level in calibrate; the SPRT's cap in sprt [match sprt gauntlet calibrate soak]
  --concurrency N       games in parallel [all]
  --openings FILE       EPD openings (default ../shared/tools/openings.epd) [match sprt gauntlet calibrate soak]
  --hash MB             Hash for every engine [match sprt gauntlet soak]
  --threads N           Threads for every engine [match sprt gauntlet soak]
  --option NAME=VAL     another option for every engine, repeatable [match sprt gauntlet soak makro]
  --sprt ELO0 ELO1      stop at an SPRT verdict, alpha = beta = 0.05 [match sprt]
  --elo0 E0, --elo1 E1  the SPRT's hypotheses [sprt]
  --pgn FILE            PGN output (default /tmp/corvid-match-<opponent>-<time>.pgn; a match with several
                        -b writes FILE-<opponent>.pgn for each) [match sprt]
  --tool NAME           fastchess | cutechess | matchpy (default: the first one installed; soak takes matchpy,
                        its default, or fastchess) [match sprt gauntlet soak]
  --old ENGINE          the older build that WHO old plays [gauntlet]
  --book FILE           the second opening set (default /tmp/books/8moves_v3.epd) [gauntlet]
  --out DIR             logs and PGNs (default /tmp/corvid-acceptance) [gauntlet]
  --levels "X Y..."     UCI_Elo levels [calibrate]
  --stockfish PATH      Stockfish (default: stockfish on PATH, else /usr/games/stockfish) [calibrate]
  --logdir DIR          where the UCI logs go (default: a new directory under /tmp) [soak]
  --keep                keep the logs even when everything passed [soak]
  --games-a N, --games-b N   games of run (a), of run (b) [makro]
  --deep LIMIT, --shallow LIMIT   the sides of run (b): tc=10+0.1, depth=N, nodes=N or movetime=MS [makro]
  --plies N             random opening plies (default 8) [makro]
  --seed S              opening seed (default 1) [makro]
  --pgn-dir DIR         write makro_a.pgn / makro_b.pgn there (default /tmp) [makro]
  --margin MS           how far past its clock an engine may go (corvid match's default: 50) [makro]
  --nice N              niceness of the runner and engines (default 19). A niced engine on a busy machine is
                        starved of CPU and can lose on time through no fault of its own: run the real 10+0.1
                        check on an otherwise idle machine with --nice 0 [makro]
USAGE
}
how_to_get_runner() {
    cat >&2 <<'HOW'
No match runner found. Any one of these will do:
  - python-chess for ../shared/tools/match.py:  pip install chess
  - fastchess: build from its source release (C++17): make -j && cp fastchess /usr/local/bin/
  - cutechess-cli: apt-get install cutechess  (Debian/Ubuntu), or build it from source with Qt/CMake
HOW
}
die() { echo "scripts/match.sh: $*" >&2; exit 2; }

mode="${1:-}"
case "$mode" in
    match|sprt|gauntlet|calibrate|soak|makro) shift ;;
    -h|--help) usage; exit 0 ;;
    "") usage >&2; exit 2 ;;
    *) die "the first word is the mode (match, sprt, gauntlet, calibrate, soak, makro), not '$mode'" ;;
esac

# One parser for every mode; an empty value means the mode's default, filled in below.
default_engine="$root/target/release/corvid"
matchpy_script="$root/../shared/tools/match.py"
engine="" tc="" games="" concurrency="" openings="" hash="" threads="" elo0="" elo1="" pgn="" tool=""
old="" book="" out="" levels="" stockfish="" logdir="" keep=0
games_a="" games_b="" deep="" shallow="" plies="" seed="" pgn_dir="" margin="" nice_level=""
opponents=() options=() args=() given=()
dry=0
while [ $# -gt 0 ]; do
    opt="$1"
    case "$opt" in
        -h|--help) usage; exit 0 ;;
        --dry-run) dry=1; shift; continue ;;
        --keep) keep=1; given+=("$opt"); shift; continue ;;
        -*) { [ $# -ge 2 ] && [ -n "$2" ] && [ "${2#--}" = "$2" ]; } || die "$opt needs a value"; given+=("$opt") ;;
        *) args+=("$opt"); shift; continue ;;
    esac
    case "$opt" in
        -a|--engine) engine="$2" ;;
        -b) opponents+=("$2") ;;
        --tc) tc="$2" ;;
        --games) games="$2" ;;
        --concurrency) concurrency="$2" ;;
        --openings) openings="$2" ;;
        --hash) hash="$2" ;;
        --threads) threads="$2" ;;
        --option) options+=("$2") ;;
        --sprt) { [ $# -ge 3 ] && [ "${3#--}" = "$3" ]; } || die "--sprt needs ELO0 ELO1"
                elo0="$2" elo1="$3"; shift ;;
        --elo0) elo0="$2" ;;
        --elo1) elo1="$2" ;;
        --pgn) pgn="$2" ;;
        --tool) tool="$2" ;;
        --old) old="$2" ;;
        --book) book="$2" ;;
        --out) out="$2" ;;
        --levels) levels="$2" ;;
        --stockfish) stockfish="$2" ;;
        --logdir) logdir="$2" ;;
        --games-a) games_a="$2" ;;
        --games-b) games_b="$2" ;;
        --deep) deep="$2" ;;
        --shallow) shallow="$2" ;;
        --plies) plies="$2" ;;
        --seed) seed="$2" ;;
        --pgn-dir) pgn_dir="$2" ;;
        --margin) margin="$2" ;;
        --nice) nice_level="$2" ;;
        *) echo "unknown option $opt" >&2; usage >&2; exit 2 ;;
    esac
    shift 2
done

# Which options each mode takes, and its words.
common="-a --engine --tc --concurrency"
case "$mode" in
    match) allowed="$common -b --games --openings --hash --threads --option --sprt --pgn --tool" ;;
    sprt) allowed="--tc --concurrency --games --openings --hash --threads --option --sprt --elo0 --elo1 --pgn
                   --tool" ;;
    gauntlet) allowed="$common --old --book --openings --out --games --hash --threads --option --tool" ;;
    calibrate) allowed="$common --stockfish --levels --games --openings" ;;
    soak) allowed="$common --games --threads --hash --openings --option --tool --logdir --keep" ;;
    makro) allowed="$common --games-a --games-b --deep --shallow --plies --seed --pgn-dir --option --margin --nice" ;;
esac
for o in ${given[@]+"${given[@]}"}; do
    case " $allowed " in *" $o "*) ;; *) die "$o does not apply to mode $mode (scripts/match.sh --help)" ;; esac
done
case "$mode" in
    match)
        [ ${#args[@]} -eq 0 ] || die "match takes its opponents as -b ENGINE, not '${args[0]}'"
        [ ${#opponents[@]} -gt 0 ] || die "match needs -b OPPONENT (scripts/match.sh --help)" ;;
    sprt)
        [ ${#args[@]} -eq 2 ] || die "usage: scripts/match.sh sprt NEW OLD [--elo0 0 --elo1 5] [--tc 8+0.08] [options]"
        engine="${args[0]}" opponents=("${args[1]}") ;;
    gauntlet)
        [ ${#args[@]} -gt 0 ] || die "usage: scripts/match.sh gauntlet [options] fsf|eth|sf|old..."
        for w in "${args[@]}"; do
            case "$w" in fsf|eth|sf|old) ;; *) die "gauntlet: unknown opponent $w (fsf, eth, sf, old)" ;; esac
        done ;;
    calibrate|soak)
        [ ${#args[@]} -eq 0 ] || die "$mode takes no word '${args[0]}'" ;;
    makro)
        [ ${#args[@]} -le 1 ] || die "makro takes one of a, b, both"
        case "${args[0]:-both}" in a|b|both) ;; *) die "makro: run a, b or both, not '${args[0]}'" ;; esac ;;
esac

# The defaults of each mode, then those they share.
case "$mode" in
    match) : "${tc:=10+0.1}" "${games:=200}" ;;
    sprt) : "${tc:=8+0.08}" "${games:=20000}" "${elo0:=0}" "${elo1:=5}" ;;
    gauntlet) : "${tc:=10+0.1}" "${book:=/tmp/books/8moves_v3.epd}" "${out:=/tmp/corvid-acceptance}" ;;
    calibrate) : "${tc:=5+0.05}" "${games:=40}" "${levels:=1500 2000 2500}"
               : "${stockfish:=$(command -v stockfish || echo /usr/games/stockfish)}" ;;
    soak) : "${tc:=1+0.01}" "${games:=1000}" "${tool:=matchpy}" "${threads:=2}" "${hash:=64}" "${concurrency:=1}" ;;
    makro) : "${tc:=10+0.1}" "${games_a:=50}" "${games_b:=20}" "${deep:=depth=7}" "${shallow:=depth=2}"
           : "${plies:=8}" "${seed:=1}" "${pgn_dir:=/tmp}" "${nice_level:=19}" ;;
esac
: "${engine:=$default_engine}" "${concurrency:=2}" "${openings:=$root/../shared/tools/openings.epd}"
: "${hash:=16}" "${threads:=1}"

[[ "$tc" =~ ^[0-9.]+(\+[0-9.]+)?$ ]] || die "--tc must look like 10+0.1"
for e in "$elo0" "$elo1"; do [[ "$e" =~ ^(-?[0-9.]+)?$ ]] || die "not an Elo: $e"; done
for n in "$concurrency" "$hash" "$threads" "$games_a" "$games_b" "$plies"; do
    [[ "$n" =~ ^[0-9]*$ ]] || die "not a number: $n"
done
if [ -n "$games" ]; then
    { [[ "$games" =~ ^[0-9]+$ ]] && [ "$games" -ge 2 ]; } || die "--games needs an even number >= 2"
    [ "$mode" != soak ] || [ $((games % 2)) -eq 0 ] || die "--games must be even and at least 2"
fi
case "$mode" in makro) ;; *) [ -r "$openings" ] || die "cannot read openings $openings" ;; esac

# The engine under test: the default one is built when missing; any other must exist.
if [ $dry -eq 0 ] && [ ! -x "$engine" ]; then
    if [ "$engine" = "$default_engine" ]; then
        if [ "$mode" = makro ]; then
            (cd "$root" && nice -n 19 cargo build --release -j1 --quiet) || exit 2
        else
            (cd "$root" && cargo build --release --quiet) || exit 2
        fi
    else
        die "no engine at $engine"
    fi
fi

run_cmd() {
    if [ $dry -eq 1 ]; then printf '%q ' "$@"; echo; else "$@"; fi
}

# The runner of match, sprt and gauntlet.
pick_tool() {
    [ -n "$tool" ] && return
    if command -v fastchess >/dev/null; then tool=fastchess
    elif command -v cutechess-cli >/dev/null; then tool=cutechess
    elif python3 -c 'import chess' 2>/dev/null; then tool=matchpy
    else how_to_get_runner; exit 2
    fi
}

# One head-to-head match: engine against $1, $2 games on openings $3, PGN $4; an SPRT when elo0/elo1 are set.
play() {
    local opp="$1" n="$2" book_file="$3" pgn_out="$4"
    local name_a name_b bin words_b eng_b each cmd o
    local all_options=("Hash=$hash" "Threads=$threads" ${options[@]+"${options[@]}"})
    name_a="$(basename "$engine")"
    name_b="$(basename "${opp%% *}")"
    [ "$name_a" = "$name_b" ] && name_b="$name_b-b"   # self-play: the runners need distinct names
    echo "== $name_a vs $opp: $n games at $tc, $tool, PGN $pgn_out"
    case "$tool" in
        fastchess|cutechess)
            bin=fastchess; [ "$tool" = cutechess ] && bin=cutechess-cli
            # Engine commands with arguments: the first word is the program, the rest its arguments.
            read -ra words_b <<< "$opp"
            eng_b=(-engine "cmd=${words_b[0]}" "name=$name_b")
            [ ${#words_b[@]} -gt 1 ] && eng_b+=("args=${words_b[*]:1}")
            each=(-each proto=uci "tc=$tc")
            for o in "${all_options[@]}"; do each+=("option.$o"); done
            cmd=("$bin" -engine "cmd=$engine" "name=$name_a" "${eng_b[@]}" "${each[@]}"
                 -rounds $(( (n + 1) / 2 )) -games 2 -repeat -concurrency "$concurrency" -recover)
            if [ "$tool" = fastchess ]; then
                cmd+=(-openings "file=$book_file" format=epd order=random -pgnout "file=$pgn_out")
            else
                cmd+=(-openings "file=$book_file" format=epd order=random -pgnout "$pgn_out")
            fi
            [ -n "$elo0" ] && cmd+=(-sprt "elo0=$elo0" "elo1=$elo1" alpha=0.05 beta=0.05)
            ;;
        matchpy)
            [ -r "$matchpy_script" ] || die "no $matchpy_script"
            cmd=(python3 "$matchpy_script" -a "$engine" -b "$opp" --tc "$tc" --games "$n"
                 --openings "$book_file" --concurrency "$concurrency" --pgn "$pgn_out")
            for o in "${all_options[@]}"; do cmd+=(--opt-a "$o" --opt-b "$o"); done
            [ -n "$elo0" ] && cmd+=(--sprt "$elo0" "$elo1")
            ;;
        *) die "unknown --tool $tool (fastchess, cutechess, matchpy)" ;;
    esac
    run_cmd "${cmd[@]}"
}

mode_match() {   # match and sprt
    local status=0 opp name_b pgn_out
    pick_tool
    for opp in "${opponents[@]}"; do
        name_b="$(basename "${opp%% *}")"
        [ "$(basename "$engine")" = "$name_b" ] && name_b="$name_b-b"
        pgn_out="${pgn:-/tmp/corvid-match-$name_b-$(date +%Y%m%d-%H%M%S).pgn}"
        # A gauntlet with one --pgn gets one file per opponent.
        [ -n "$pgn" ] && [ ${#opponents[@]} -gt 1 ] && pgn_out="${pgn%.pgn}-$name_b.pgn"
        play "$opp" "$games" "$openings" "$pgn_out" || status=1
    done
    return $status
}

mode_gauntlet() {
    local status=0 w opp n set tag
    pick_tool
    [ -r "$book" ] || die "gauntlet: cannot read openings $book"
    [ $dry -eq 1 ] || mkdir -p "$out"
    for w in "${args[@]}"; do
        case "$w" in
            fsf) opp=/usr/games/fairy-stockfish n=50 ;;
            eth) opp=/usr/games/ethereal-chess n=50 ;;
            sf) opp=/usr/games/stockfish n=20 ;;
            old) [ -n "$old" ] || die "gauntlet: old needs --old ENGINE"; opp="$old" n=100 ;;
        esac
        n="${games:-$n}"
        if [ ! -x "${opp%% *}" ]; then
            echo "gauntlet: no $opp (apt-get install it)" >&2; status=1
            [ $dry -eq 1 ] || continue
        fi
        for set in "$openings" "$book"; do
            tag="$w-$(basename "$set" .epd)"
            if [ $dry -eq 1 ]; then
                echo "== $tag (log $out/$tag.log)"; play "$opp" "$n" "$set" "$out/$tag.pgn"
            else
                play "$opp" "$n" "$set" "$out/$tag.pgn" > "$out/$tag.log" 2>&1 || status=1
                # fastchess prints each set's W/D/L, Elo and pentanomial counts.
                echo "== $tag"; grep -E "^Results of|^Elo:|^Games:|^Ptnml" "$out/$tag.log" | tail -4
            fi
        done
    done
    return $status
}

mode_calibrate() {
    local x cmd result
    if [ ! -x "$stockfish" ]; then
        echo "stockfish not found: apt-get install stockfish" >&2; [ $dry -eq 1 ] || exit 2
    fi
    if ! python3 -c "import chess" 2>/dev/null; then
        echo "python-chess missing: pip install chess" >&2; [ $dry -eq 1 ] || exit 2
    fi
    # Stockfish keeps its default (1350) for a UCI_Elo outside its range, which would measure nothing: refuse it.
    local sf_max=""
    [ ! -x "$stockfish" ] || sf_max="$(printf 'uci\nquit\n' | "$stockfish" |
        sed -n 's/^option name UCI_Elo .* max \([0-9]*\).*/\1/p')"
    for x in $levels; do
        case "$x" in *[!0-9]*|'') die "calibrate: UCI_Elo level $x is not a number" ;; esac
        [ -z "$sf_max" ] || [ "$x" -le "$sf_max" ] ||
            die "calibrate: UCI_Elo level $x is above Stockfish's highest ($sf_max), which it would ignore"
    done
    printf '%-6s %s\n' level result
    for x in $levels; do
        cmd=(python3 "$matchpy_script" -a "$engine" -b "$stockfish"
             --opt-a UCI_LimitStrength=true --opt-a "UCI_Elo=$x"
             --opt-b UCI_LimitStrength=true --opt-b "UCI_Elo=$x" --opt-b Threads=1 --opt-b Hash=16
             --tc "$tc" --games "$games" --openings "$openings" --concurrency "$concurrency"
             --pgn "/tmp/corvid-elo-$x.pgn")
        if [ $dry -eq 1 ]; then printf '%-6s ' "$x"; run_cmd "${cmd[@]}"; continue; fi
        if ! result=$("${cmd[@]}" 2>&1); then
            echo "$result" >&2; echo "calibrate: match.py failed at level $x" >&2; exit 1
        fi
        # match.py's summary: the W/D/L and score lines.
        printf '%-6s %s\n' "$x" "$(echo "$result" | grep -E '^A: W|^Elo \(trinomial\)' | tr '\n' ' ')"
    done
}

mode_soak() {
    local side base inc report cmd o status fail=0 played
    if [ $dry -eq 1 ]; then
        [ -n "$logdir" ] || logdir="/tmp/corvid-soak-XXXXXX"
    else
        engine="$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")"
        [ -n "$logdir" ] || logdir="$(mktemp -d /tmp/corvid-soak-XXXXXX)"
        mkdir -p "$logdir/uci"
        logdir="$(cd "$logdir" && pwd)"
        # One wrapper per side, so that the logs say which process was which. The engine reads the GUI's lines
        # through tee and writes through tee: both copy line by line as they come, so timing is not changed
        # noticeably. The input tee would wait for the runner's next line (or its end) after the engine quits,
        # and the runners wait for the process to end (fastchess) or for every pipe to close (python-chess): so
        # the wrapper ends it.
        for side in a b; do
            cat > "$logdir/corvid-$side" <<WRAP
#!/usr/bin/env bash
log="$logdir/uci/$side-\$(date +%s%N)-\$\$"
exec 3< <(exec tee "\$log.in")
input=\$!
"$engine" <&3 3<&- | tee "\$log.out"
kill "\$input" 2>/dev/null
WRAP
            chmod +x "$logdir/corvid-$side"
        done
    fi

    base="${tc%+*}"
    inc="${tc#*+}"
    [ "$inc" = "$tc" ] && inc=0
    report="$logdir/match.txt"
    case "$tool" in
        matchpy)
            cmd=(python3 "$matchpy_script" -a "$logdir/corvid-a" -b "$logdir/corvid-b"
                --name-a corvid-a --name-b corvid-b
                --opt-a "Threads=$threads" --opt-a "Hash=$hash" --opt-b "Threads=$threads" --opt-b "Hash=$hash")
            for o in ${options[@]+"${options[@]}"}; do cmd+=(--opt-a "$o" --opt-b "$o"); done
            cmd+=(--tc "$base+$inc" --games "$games" --openings "$openings" --concurrency "$concurrency"
                --pgn "$logdir/soak.pgn")
            ;;
        fastchess)
            cmd=(fastchess -engine "cmd=$logdir/corvid-a" name=corvid-a -engine "cmd=$logdir/corvid-b" name=corvid-b
                -each "tc=$base+$inc" "option.Threads=$threads" "option.Hash=$hash")
            for o in ${options[@]+"${options[@]}"}; do cmd+=("option.$o"); done
            cmd+=(-rounds $((games / 2)) -games 2 -repeat -concurrency "$concurrency"
                -openings "file=$openings" format=epd order=random -pgnout "file=$logdir/soak.pgn")
            ;;
        *) die "soak: unknown --tool $tool (matchpy, fastchess)" ;;
    esac
    if [ $dry -eq 1 ]; then run_cmd "${cmd[@]}"; return 0; fi

    echo "soak: $games games at $tc, Threads $threads, Hash $hash, with $tool; logs in $logdir"
    "${cmd[@]}" 2>&1 | tee "$report"
    status=${PIPESTATUS[0]}
    if [ "$status" -ne 0 ]; then
        echo "FAIL: the match runner exited with $status"
        fail=1
    fi
    case "$tool" in
        matchpy)
            # match.py prints every forfeit (time, crash, hang, illegal move) as FORFEIT/ABNORMAL.
            if grep -q "FORFEIT/ABNORMAL" "$report"; then
                echo "FAIL: forfeits:"
                grep "FORFEIT/ABNORMAL" "$report"
                fail=1
            fi
            played=$(sed -n 's/^=== .*: \([0-9]*\) games,.*/\1/p' "$report" | tail -1)
            ;;
        fastchess)
            if grep -Eqi "warning|loses on time|disconnect|illegal|crash|stall|timeout" "$report"; then
                echo "FAIL: fastchess reported:"
                grep -Ei "warning|loses on time|disconnect|illegal|crash|stall|timeout" "$report" | sort | uniq -c
                fail=1
            fi
            played=$(grep -c '^\[Result ' "$logdir/soak.pgn" 2>/dev/null || echo 0)
            ;;
    esac
    if [ "${played:-0}" != "$games" ]; then
        echo "FAIL: ${played:-0} of $games games finished"
        fail=1
    fi
    # Every `go` answered by exactly one `bestmove`, and every bestmove/ponder the start of the last PV.
    if ! python3 "$root/scripts/uci_log_check.py" "$logdir/uci"; then
        echo "FAIL: the UCI logs show protocol problems (above)"
        fail=1
    fi
    if [ "$fail" -eq 0 ]; then
        echo "PASS: $games games, no forfeit, every go answered once, every bestmove the start of its last PV"
        [ "$keep" -eq 1 ] || rm -rf "$logdir"
    else
        echo "logs kept in $logdir"
    fi
    return "$fail"
}

# The runner of makro is a verb of the same binary; niced so that other work on the machine keeps its cores.
makro_run() {
    echo "+ corvid match $*"
    [ $dry -eq 1 ] && return 0
    nice -n "$nice_level" "$engine" match "$@"
}

mode_makro() {
    local which="${args[0]:-both}" status=0 eng_q extra=() o
    for o in ${options[@]+"${options[@]}"}; do extra+=(--opt-a "$o" --opt-b "$o"); done
    [ -n "$margin" ] && extra+=(--margin "$margin")
    # `corvid match` splits an engine command like a shell: quote the path.
    eng_q=$(printf %q "$engine")
    if [ "$which" != "b" ]; then
        echo "=== (a) Corvid vs Corvid, $tc, $games_a games"
        makro_run --engine-a "$eng_q" --engine-b "$eng_q" --name-a Corvid-1 --name-b Corvid-2 --variant makromachy \
            --tc "$tc" --games "$games_a" --concurrency "$concurrency" --openings-random "$plies" --seed "$seed" \
            --pgn "$pgn_dir/makro_a.pgn" ${extra[@]+"${extra[@]}"} || status=1
    fi
    if [ "$which" != "a" ]; then
        echo "=== (b) Corvid $deep vs Corvid $shallow, $games_b games"
        makro_run --engine-a "$eng_q" --engine-b "$eng_q" --name-a "Corvid-$deep" --name-b "Corvid-$shallow" \
            --variant makromachy --limit-a "$deep" --limit-b "$shallow" --games "$games_b" \
            --concurrency "$concurrency" --openings-random "$plies" --seed "$seed" \
            --pgn "$pgn_dir/makro_b.pgn" ${extra[@]+"${extra[@]}"} || status=1
    fi
    return $status
}

case "$mode" in
    match|sprt) mode_match ;;
    gauntlet) mode_gauntlet ;;
    calibrate) mode_calibrate ;;
    soak) mode_soak ;;
    makro) mode_makro ;;
esac
