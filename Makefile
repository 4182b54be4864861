# OpenBench and tournament managers: `make EXE=<path> [EVALFILE=<net>]` builds the engine binary at <path>.
# Same flags as `cargo build --release` (.cargo/config.toml: x86-64-v3), so `bench` gives the same signature.
# Not target-cpu=native: with AVX-512 it has crashed LLVM on this code (see .cargo/config.toml).
EXE ?= corvid
EVALFILE ?=

.PHONY: all clean

all:
	EVALFILE="$(if $(EVALFILE),$(abspath $(EVALFILE)))" cargo rustc --release --bin corvid -- --emit link=$(abspath $(EXE))

clean:
	cargo clean
