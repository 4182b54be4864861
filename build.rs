//! Writes the slider attack table (rooks and bishops, 107,648 entries) into OUT_DIR, in the indexing the target
//! uses (PEXT with BMI2, magic multiplication otherwise) and in its byte order. Computing it here, natively,
//! keeps it out of both start-up time and const evaluation.

#[allow(dead_code)]
#[path = "src/chess/slider_tables.rs"]
mod slider_tables;

use slider_tables::*;

fn main() {
    println!("cargo:rerun-if-changed=src/chess/slider_tables.rs");
    println!("cargo:rerun-if-changed=build.rs");
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
