//! Adding a game touches no front end: a game is its board folder, its evaluator, its endings, its
//! `src/variants/<game>/` folder and one registry entry (`src/game.rs`'s `GameKind`, `src/variants/mod.rs`).
//! Everything a front end needs of a game (its names and aliases, CECP's variant names and set-up lines, its
//! start position as a protocol shows it, its castling conventions, its bench) reaches it through the
//! registry. This test reads the front ends' sources and fails on any mention of a registered game there,
//! naming file and line; the games and their names come from the registry, so a new game is covered at once.

use corvid::game::GameKind;
use corvid::variants::{Cecp, Variant};
use std::path::{Path, PathBuf};

/// The front ends, relative to the repository root (folders: every `.rs` file below, `tests.rs` excepted).
/// Datagen and genfens are chess tools and may say so.
const FRONT_ENDS: &[&str] = &[
    "src/uci",
    "src/xboard",
    "src/play",
    "src/engine",
    "src/cli.rs",
    "src/main.rs",
    "src/tools/arena",
    "src/tools/bench.rs",
    "src/conduct.rs",
];

/// Mentions that are no game: (file, string literal, why).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "src/cli.rs",
        "Corvid: a chess engine ({})",
        "what Corvid is, not a game it plays",
    ),
    (
        "src/tools/arena/referee.rs",
        "normal",
        "PGN's Termination tag, not CECP's variant",
    ),
];

/// What names one game: words that may appear in no front end.
struct Names {
    /// Identifiers and string literals equal to one of these (lower case) name the game: its name, aliases,
    /// CECP variant names.
    exact: Vec<String>,
    /// Identifiers and string literals containing one of these (lower case) name the game: its folder under
    /// `variants` (its module path), its name and its type's name.
    contained: Vec<String>,
    /// Its start position's board (the first FEN field), anywhere in a string.
    start_board: String,
}

fn names_of<V: Variant + Cecp>() -> Names {
    // `corvid::variants::<folder>::<Type>`.
    let path: Vec<&str> = std::any::type_name::<V>().split("::").collect();
    let (folder, ty) = (path[path.len() - 2], path[path.len() - 1]);
    let mut exact: Vec<String> = std::iter::once(V::NAME)
        .chain(V::ALIASES.iter().copied())
        .chain(V::CECP_VARIANTS.iter().map(|v| v.name))
        .map(str::to_ascii_lowercase)
        .collect();
    exact.sort();
    exact.dedup();
    let contained = [folder, V::NAME, ty]
        .iter()
        .map(|s| s.to_ascii_lowercase())
        .collect();
    let fen = V::to_fen(&V::start_position(false));
    Names {
        exact,
        contained,
        start_board: fen.split(' ').next().unwrap_or_default().to_string(),
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Str(String),
    Punct(char),
}

/// Rust source as tokens with their line numbers: comments dropped, literals' text kept (escapes as
/// written), numbers, lifetimes and char literals dropped.
fn tokens(src: &str) -> Vec<(usize, Token)> {
    let c: Vec<char> = src.chars().collect();
    let (mut i, mut line, mut out) = (0, 1, Vec::new());
    let newlines = |s: &[char]| s.iter().filter(|&&ch| ch == '\n').count();
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let (start, mut depth) = (i, 0);
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            line += newlines(&c[start..i]);
        } else if ch == '"' {
            let start = i + 1;
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            let text: String = c[start..i.min(c.len())].iter().collect();
            out.push((line, Token::Str(text.clone())));
            line += text.matches('\n').count();
            i += 1;
        } else if (ch == 'r' || (ch == 'b' && next == Some('r')))
            && raw_string_start(&c, if ch == 'b' { i + 1 } else { i }).is_some()
        {
            let r = if ch == 'b' { i + 1 } else { i };
            let (hashes, body) = raw_string_start(&c, r).unwrap_or_default();
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let mut end = body;
            while end < c.len() && !c[end..].starts_with(&close) {
                end += 1;
            }
            let text: String = c[body..end.min(c.len())].iter().collect();
            out.push((line, Token::Str(text.clone())));
            line += text.matches('\n').count();
            i = end + close.len();
        } else if ch == '\'' {
            if next == Some('\\') {
                // An escaped char literal: up to its closing quote.
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                // A lifetime: its name is read as an identifier next.
                i += 1;
            }
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            if !ch.is_ascii_digit() {
                out.push((line, Token::Ident(c[start..i].iter().collect())));
            }
        } else {
            out.push((line, Token::Punct(ch)));
            i += 1;
        }
    }
    out
}

/// At `c[r] == 'r'` (the start of a token, or after its `b`): a raw string's hashes and the index of its first character, if one starts there.
fn raw_string_start(c: &[char], r: usize) -> Option<(usize, usize)> {
    if c.get(r) != Some(&'r') {
        return None;
    }
    let mut j = r + 1;
    while c.get(j) == Some(&'#') {
        j += 1;
    }
    (c.get(j) == Some(&'"')).then_some((j - r - 1, j + 1))
}

/// The tokens outside `#[cfg(test)]` items (a test module, a test-only struct or impl).
fn non_test_tokens(src: &str) -> Vec<(usize, Token)> {
    let all = tokens(src);
    let mut out = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let attr = matches!(
            &all[i..(i + 7).min(all.len())],
            [(_, Token::Punct('#')), (_, Token::Punct('[')), (_, Token::Ident(a)), (_, Token::Punct('(')),
             (_, Token::Ident(b)), (_, Token::Punct(')')), (_, Token::Punct(']'))]
                if a == "cfg" && b == "test"
        );
        if !attr {
            out.push(all[i].clone());
            i += 1;
            continue;
        }
        // Skip the item: up to its `;` or through its braces.
        i += 7;
        let mut depth = 0usize;
        while i < all.len() {
            match all[i].1 {
                Token::Punct('{') => depth += 1,
                Token::Punct('}') => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                Token::Punct(';') if depth == 0 => {
                    i += 1;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}

fn rust_files(root: &Path, entry: &str) -> Vec<PathBuf> {
    let path = root.join(entry);
    if path.is_file() {
        return vec![path];
    }
    let mut files = Vec::new();
    let mut dirs = vec![path];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let p = e.expect("a directory entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs")
                && p.file_name().is_some_and(|n| n != "tests.rs")
            {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Every mention of a game in `src` (a front end's file `file`), as `file:line: what`.
fn mentions(file: &str, src: &str, games: &[(GameKind, Names)]) -> Vec<String> {
    let mut found = Vec::new();
    for (line, token) in non_test_tokens(src) {
        let (text, what) = match &token {
            Token::Ident(s) => (s, "identifier"),
            Token::Str(s) => (s, "string"),
            Token::Punct(_) => continue,
        };
        if ALLOWED.iter().any(|(f, s, _)| *f == file && s == text) {
            continue;
        }
        // Every game is asked for the Chess960 castling notation (a flag of the game-neutral API, as is
        // UCI's `UCI_Chess960`): that word is no game's name.
        let lower = text.to_ascii_lowercase().replace("chess960", "");
        for (kind, names) in games {
            let named = names.exact.contains(&lower)
                || names.contained.iter().any(|n| lower.contains(n.as_str()))
                || (matches!(token, Token::Str(_)) && text.contains(&names.start_board));
            if named {
                found.push(format!("{file}:{line}: {what} {text:?} names {kind}"));
            }
        }
    }
    found
}

#[test]
fn front_ends_name_no_game() {
    let games: Vec<(GameKind, Names)> = GameKind::ALL
        .into_iter()
        .map(|k| (k, corvid::for_game!(k, V => names_of::<V>())))
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let mut lines = 0;
    for entry in FRONT_ENDS {
        for path in rust_files(root, entry) {
            let src = std::fs::read_to_string(&path).expect("a source file");
            lines += src.lines().count();
            let file = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            found.extend(mentions(&file, &src, &games));
        }
    }
    // The front ends are thousands of lines; far fewer means the list above went stale.
    assert!(lines > 4000, "only {lines} lines of front ends read");
    assert!(
        found.is_empty(),
        "the front ends name games (a game's names and set-up belong to its folder under \
         src/variants/, reached through the registry):\n{}",
        found.join("\n")
    );
}

/// The scan itself: it sees games in code and strings, not in comments or test modules.
#[test]
fn the_scan_finds_what_it_should() {
    let games: Vec<(GameKind, Names)> = GameKind::ALL
        .into_iter()
        .map(|k| (k, corvid::for_game!(k, V => names_of::<V>())))
        .collect();
    let name = GameKind::ALL[1].name();
    let src = format!(
        "// {name} in a comment\nfn f() {{ let chess960 = true; let c = '{{'; }}\n\
         fn g() -> &'static str {{ \"{name}\" }}\n#[cfg(test)]\nmod tests {{ fn h() {{ \"{name}\"; }} }}\n\
         fn k() {{ crate::variants::Chess::x(); }}\n"
    );
    let found = mentions("x.rs", &src, &games);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("x.rs:3: string"), "{found:?}");
    assert!(
        found[1].starts_with("x.rs:6: identifier \"Chess\""),
        "{found:?}"
    );
}
