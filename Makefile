# Thin wrappers over Meson. The two commands every user needs:
#   make demo    install what is missing, build, run the bundled demos
#   make check   build and run every test (plain, then ASan+UBSan, the R500 tests
#                without the JIT, then short fuzz runs)
MESON ?= meson
BUILD ?= build
SAN   ?= build-san
FUZZ  ?= build-fuzz
NOJIT ?= build-nojit
FUZZ_SECONDS ?= 10
PREFIX ?= /usr/local

.PHONY: all build deps check check-plain check-san check-nojit fuzz-short demo bench clean install deb deb-smoke

all: build

deps:
	@scripts/deps.sh

$(BUILD)/build.ninja:
	$(MESON) setup --werror $(BUILD)

build: deps $(BUILD)/build.ninja
	$(MESON) compile -C $(BUILD)

check:
	@scripts/deps.sh --check
	@$(MAKE) --no-print-directory check-plain check-san check-nojit fuzz-short; rc=$$?; \
	  scripts/test-summary.sh $(BUILD)/meson-logs/testlog.json $(SAN)/meson-logs/testlog.json $(NOJIT)/meson-logs/testlog.json; \
	  exit $$rc

check-plain: build
	$(MESON) test -C $(BUILD) --print-errorlogs --num-processes 2

$(SAN)/build.ninja:
	$(MESON) setup --werror $(SAN) -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 -Ddebug=true

check-san: deps $(SAN)/build.ninja
	$(MESON) compile -C $(SAN)
	$(MESON) test -C $(SAN) --print-errorlogs --num-processes 2 --timeout-multiplier 4

# The build of a machine without LLVM (make demo's: scripts/deps.sh installs
# LLVM only for make check): every target compiles, and the R500 tests pass
# with the interpreter alone.
$(NOJIT)/build.ninja:
	$(MESON) setup --werror $(NOJIT) -Djit=disabled -Doptimization=1 -Ddebug=false

check-nojit: deps $(NOJIT)/build.ninja
	$(MESON) compile -C $(NOJIT)
	$(MESON) test -C $(NOJIT) --print-errorlogs --num-processes 2 --suite r500

# Short fuzz runs of every target (long runs: docs/fuzzing.md). Skipped with a
# message when clang's libFuzzer is not installed.
fuzz-short:
	@scripts/fuzz.sh $(FUZZ) $(FUZZ_SECONDS)

# Install the build under PREFIX (DESTDIR=... for a staging root): docs/install.md.
install: build
	$(MESON) configure $(BUILD) -Dprefix=$(PREFIX)
	$(MESON) install -C $(BUILD) $(if $(DESTDIR),--destdir $(DESTDIR))

# Debian packages (lockstep, liblockstep0, liblockstep-dev) into build/deb,
# built from a copy of the tree; then lintian and a smoke run of the packages.
# Needs debhelper, lintian, devscripts: scripts/deps.sh --deb.
deb:
	@scripts/deps.sh --deb
	@scripts/deb.sh $(BUILD)/deb
	@scripts/deb-smoke.sh $(BUILD)/deb

deb-smoke:
	@scripts/deb-smoke.sh $(BUILD)/deb

demo: build
	@scripts/demo.sh $(BUILD)

bench: build
	@scripts/bench.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(SAN) $(FUZZ) $(NOJIT) demo-out
