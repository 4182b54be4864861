//! Writes the slider attack table (rooks and bishops, 107,648 entries) into OUT_DIR, in the indexing the target
//! uses (PEXT with BMI2, magic multiplication otherwise) and in its byte order. Computing it here, natively,
//! keeps it out of both start-up time and const evaluation.
//!
//! Also decides the embedded network: `EVALFILE`'s file, else `nets/corvid.nnue` (see
//! [`embed_default_network`]).

#[allow(dead_code)]
#[path = "src/chess/slider_tables.rs"]
mod slider_tables;

use slider_tables::*;

#[allow(dead_code)]
#[path = "src/eval/nnue/format.rs"]
mod nnue_format;

fn main() {
    println!("cargo:rerun-if-changed=src/chess/slider_tables.rs");
    println!("cargo:rerun-if-changed=build.rs");
    embed_default_network();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let pext = features.split(',').any(|f| f == "bmi2");
    let big_endian = std::env::var("CARGO_CFG_TARGET_ENDIAN").is_ok_and(|e| e == "big");

    let mut table = vec![0u64; ROOK_TABLE + BISHOP_TABLE];
    fill(
        &mut table,
        &slider_entries(&ROOK_DIRS, &ROOK_MAGICS, 0),
        &ROOK_DIRS,
        pext,
    );
    fill(
        &mut table,
        &slider_entries(&BISHOP_DIRS, &BISHOP_MAGICS, ROOK_TABLE),
        &BISHOP_DIRS,
        pext,
    );

    let bytes: Vec<u8> = table
        .iter()
        .flat_map(|v| {
            if big_endian {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            }
        })
        .collect();
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("slider_attacks.bin");
    std::fs::write(&out, bytes).expect("write slider table");
}

/// Chooses the network to embed: the file `EVALFILE` names (OpenBench's network tests; a relative path is read
/// from the crate's root), else `nets/corvid.nnue` when it exists, else none. The chosen file is validated (a
/// malformed one fails the build rather than the engine), copied to `OUT_DIR/embedded.nnue` for
/// `include_bytes!`, and `cfg(corvid_embedded_net)` is set; `CORVID_NET_NAME` is its file name (`EvalFile`'s
/// default value).
fn embed_default_network() {
    println!("cargo:rustc-check-cfg=cfg(corvid_embedded_net)");
    println!("cargo:rerun-if-changed=src/eval/nnue/format.rs");
    println!("cargo:rerun-if-env-changed=EVALFILE");
    let from_env = std::env::var("EVALFILE")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let path = match &from_env {
        Some(v) => std::path::PathBuf::from(v.trim()),
        None => std::path::PathBuf::from("nets/corvid.nnue"),
    };
    if from_env.is_none() && !path.exists() {
        // Watch the folder for a net that appears (a missing file would rerun this script every time).
        println!("cargo:rerun-if-changed=nets");
        println!("cargo:rustc-env=CORVID_NET_NAME=");
        return;
    }
    println!("cargo:rerun-if-changed={}", path.display());
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("EVALFILE / default network {}: {e}", path.display()));
    if let Err(e) = nnue_format::validate(&bytes) {
        panic!("{} cannot be the embedded network: {e}", path.display());
    }
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("embedded.nnue");
    std::fs::write(&out, &bytes).expect("copy the network into OUT_DIR");
    // The name GUIs see as EvalFile's default: one word, so that no UCI parser splits it.
    let name: String = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect();
    println!("cargo:rustc-env=CORVID_NET_NAME={name}");
    println!("cargo:rustc-cfg=corvid_embedded_net");
}
