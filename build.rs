//! Writes the slider attack table (rooks and bishops, 107,648 entries) into OUT_DIR, in the indexing the target
//! uses (PEXT with BMI2, magic multiplication otherwise) and in its byte order. Computing it here, natively,
//! keeps it out of both start-up time and const evaluation.
//!
//! Also decides the default network: when `nets/corvid.nnue` exists it is validated here (a malformed file
//! fails the build rather than the engine) and `cfg(corvid_embedded_net)` makes `eval::nnue` embed it.

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

/// Sets `cfg(corvid_embedded_net)` when `nets/corvid.nnue` exists and is a valid network for this build.
fn embed_default_network() {
    println!("cargo:rustc-check-cfg=cfg(corvid_embedded_net)");
    println!("cargo:rerun-if-changed=src/eval/nnue/format.rs");
    // The directory, not the file: watching a missing file would rerun this script (and rebuild) every time.
    println!("cargo:rerun-if-changed=nets");
    let path = std::path::Path::new("nets/corvid.nnue");
    if !path.exists() {
        return;
    }
    let bytes = std::fs::read(path).expect("read nets/corvid.nnue");
    if let Err(e) = nnue_format::validate(&bytes) {
        panic!("nets/corvid.nnue cannot be the default network: {e}");
    }
    println!("cargo:rustc-cfg=corvid_embedded_net");
}
