# OpenBench and tournament managers: `make EXE=<path> [EVALFILE=<net>]` builds the engine binary at <path>.
# Same flags as `cargo build --release` (.cargo/config.toml: x86-64-v3), so `bench` gives the same signature.
# Not target-cpu=native: with AVX-512 it has crashed LLVM on this code (see .cargo/config.toml).
#
# TUNE=1 builds the `tune` feature: every search tunable becomes a UCI option, as OpenBench's SPSA workloads
# need. OpenBench passes only EXE and EVALFILE, so a branch to tune changes the default below to `TUNE ?= 1`
# in one commit (docs/testing.md, "SPSA on OpenBench").
EXE ?= corvid
EVALFILE ?=
TUNE ?=

.PHONY: all clean

all:
	EVALFILE="$(if $(EVALFILE),$(abspath $(EVALFILE)))" cargo rustc --release --bin corvid \
		$(if $(filter 1,$(TUNE)),--features tune) -- --emit link=$(abspath $(EXE))

clean:
	cargo clean
