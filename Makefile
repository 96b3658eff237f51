# libtca — build, demo, test, install.
#   make            build/lib/libtca.so.0.1.0 (+ links), include/tca.h
#   make demo       build, then run the C and Python examples
#   make test       build, then run the Swift, C and Python tests
#   make bench      release builds, then every benchmark: one table and build/bench.json
#   make fuzz       libFuzzer + AddressSanitizer over the C API for FUZZ_SECONDS (docs/fuzzing.md)
#   make install    PREFIX=/usr/local: library, links, header, pkg-config file

VERSION   := 0.1.0
SOMAJOR   := 0
PREFIX    ?= /usr/local
SWIFT     ?= swift
CC        ?= cc
PYTHON    ?= python3

BUILD     := build
LIBDIR    := $(BUILD)/lib
LIB       := $(LIBDIR)/libtca.so.$(VERSION)
VENV      := $(BUILD)/venv
CFLAGS    ?= -std=c99 -Wall -Wextra -Werror -pedantic -O2
C_LINK    := -Iinclude -L$(LIBDIR) -ltca -Wl,-rpath,$(CURDIR)/$(LIBDIR)

SWIFT_SOURCES := $(shell find Sources -name '*.swift') Package.swift scripts/tca.map Makefile

.PHONY: all lib demo test test-swift test-c test-python python-test-deps venv test-own-feature bench install clean \
  abi-check sanitize sanitize-address sanitize-thread examples fuzz

all: lib

lib: $(LIB)

# scripts/build-library.sh says how the library is linked (static Swift runtime, SONAME, tca_*
# exports only, -z nodelete, -z defs).
$(LIB): $(SWIFT_SOURCES) scripts/build-library.sh
	SWIFT=$(SWIFT) scripts/build-library.sh . tca $(VERSION) $(LIBDIR)

# ---- examples ----------------------------------------------------------------------------------

C_EXAMPLES := $(patsubst examples/c/%.c,$(BUILD)/examples/%,$(wildcard examples/c/*.c))

# Each example builds with one cc line (see the top of each file); -lpthread for those with threads.
$(BUILD)/examples/%: examples/c/%.c include/tca.h $(LIB)
	mkdir -p $(BUILD)/examples
	$(CC) $(CFLAGS) $< -o $@ $(C_LINK) -lpthread

examples: $(C_EXAMPLES)

demo: $(C_EXAMPLES) $(VENV)/.installed
	@for e in $(C_EXAMPLES); do echo "== C: examples/c/$$(basename $$e).c"; $$e || exit 1; done
	@echo "== Python: bindings/python/examples/counter.py"
	TCA_LIBRARY=$(CURDIR)/$(LIB) $(VENV)/bin/python bindings/python/examples/counter.py
	@echo "== Python: bindings/python/examples/matchscores.py (the match-scores lists)"
	TCA_LIBRARY=$(CURDIR)/$(LIB) $(VENV)/bin/python bindings/python/examples/matchscores.py

# ---- tests -------------------------------------------------------------------------------------

test: lib test-swift test-c test-python test-own-feature
	@echo "== all tests passed"

test-swift:
	@echo "== Swift tests"
	$(SWIFT) test

C_TESTS := $(patsubst Tests/c/%.c,$(BUILD)/tests/%,$(wildcard Tests/c/test_*.c))

$(BUILD)/tests/%: Tests/c/%.c $(wildcard Tests/c/*.h) include/tca.h $(LIB)
	mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) -D_POSIX_C_SOURCE=200809L $< -o $@ $(C_LINK) -lpthread

# Each C test program runs as built, then under valgrind (definite leaks and memory errors fail it;
# TCA_TEST_QUICK=1 shortens the longest loops there), after the ABI cross-check.
VALGRIND       ?= valgrind
VALGRIND_FLAGS := -q --error-exitcode=97 --leak-check=full --show-leak-kinds=definite \
  --errors-for-leak-kinds=definite --suppressions=$(CURDIR)/scripts/valgrind-swift.supp

test-c: $(C_TESTS) $(BUILD)/tests/header_c99.o $(BUILD)/tests/header_cxx.o abi-check
	@echo "== C tests"
	@for t in $(C_TESTS); do echo "-- $$t"; $$t || exit 1; done
	@echo "== C tests under valgrind"
	@for t in $(C_TESTS); do echo "-- valgrind $$t"; \
	  TCA_TEST_QUICK=1 $(VALGRIND) $(VALGRIND_FLAGS) $$t || exit 1; done

# tca.h, the declarations the Swift compiler emits for the bridge's @c functions, and the symbols
# libtca.so exports must name the same functions with the same parameters (scripts/check_abi.py).
abi-check: $(LIB)
	@echo "== ABI: tca.h vs the Swift side vs nm -D"
	$(PYTHON) scripts/check_abi.py include/tca.h \
	  "$$($(SWIFT) build -c release --show-bin-path)/CBridge.build/include/CBridge-Swift.h" \
	  $(LIB)

# The header must compile cleanly as strict C99 and as C++17.
$(BUILD)/tests/header_c99.o: include/tca.h
	mkdir -p $(BUILD)/tests
	echo '#include "tca.h"' | $(CC) -std=c99 -Wall -Wextra -Werror -pedantic -Iinclude -x c -c - -o $@
$(BUILD)/tests/header_cxx.o: include/tca.h
	mkdir -p $(BUILD)/tests
	echo '#include "tca.h"' | c++ -std=c++17 -Wall -Wextra -Werror -Iinclude -x c++ -c - -o $@

$(VENV)/.installed: bindings/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e 'bindings/python[test]'
	touch $@

venv: $(VENV)/.installed

# The GUI and terminal tests need an X server (Xvfb, with xwd for screenshots), tmux and Tk.
# Installed from Debian's packages where missing: non-interactive, skipped when all are present,
# and only by root (elsewhere it says what to install; the tests then skip, except on CI).
PY_TEST_DEBS := xvfb x11-apps tmux libtk8.6
python-test-deps:
	@missing=""; \
	command -v Xvfb >/dev/null 2>&1 || missing="$$missing xvfb"; \
	command -v xwd >/dev/null 2>&1 || missing="$$missing x11-apps"; \
	command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; \
	$(PYTHON) -c 'import tkinter' >/dev/null 2>&1 || missing="$$missing libtk8.6"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "== installing$$missing (Debian packages for the Python GUI/terminal tests)"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get update -qq </dev/null && \
	    apt-get install -y -qq --no-install-recommends $$missing </dev/null >/dev/null || exit 1; \
	  else \
	    echo "== missing for the Python GUI/terminal tests:$$missing (apt-get install$$missing)"; \
	  fi; \
	fi

# TCA_REQUIRE_XVFB: the Tk and curses tests fail (rather than skip) without their tools.
test-python: lib $(VENV)/.installed python-test-deps
	@echo "== Python tests"
	TCA_LIBRARY=$(CURDIR)/$(LIB) TCA_REQUIRE_XVFB=$$(command -v Xvfb >/dev/null && echo 1) \
	  $(VENV)/bin/python -m pytest -q bindings/python/tests

# ---- benchmarks --------------------------------------------------------------------------------
# make bench: release builds, then every benchmark, side by side with its alternative in one run:
# one table on stdout and build/bench.json (docs/benchmarks.md). A quicker, rougher run:
#   BENCH_SAMPLES=5 BENCH_SAMPLE_MS=10 make bench

BENCH         := $(BUILD)/bench
# NB: a scratch path of its own: the bench is built without the library's linker flags, and sharing
# .build would make each build undo the other's.
BENCH_SCRATCH := .build-bench
BENCH_SWIFT   := $(SWIFT) build -c release --product SwiftBench --scratch-path $(BENCH_SCRATCH)
# The C effect round trip is compiled in once tca.h declares the effect API.
BENCH_CDEFS   := $(shell grep -q tca_store_set_effect_handler include/tca.h && echo -DBENCH_HAVE_EFFECTS)
PYDUX         := pydux==0.2.2

bench: lib $(BENCH)/SwiftBench $(BENCH)/cbench $(BENCH)/libbenchnoop.so $(VENV)/.bench
	$(VENV)/bin/python Benchmarks/run.py --bench-dir $(BENCH) \
	  --lib $(LIBDIR)/libtca.so.$(SOMAJOR) --out $(BUILD)/bench.json

$(BENCH)/SwiftBench: $(SWIFT_SOURCES) $(wildcard Benchmarks/SwiftBench/*.swift)
	$(BENCH_SWIFT)
	mkdir -p $(BENCH)
	cp "$$($(BENCH_SWIFT) --show-bin-path)/SwiftBench" $@

$(BENCH)/libbenchnoop.so: Benchmarks/c/noop.c Benchmarks/c/noop.h
	mkdir -p $(BENCH)
	$(CC) $(CFLAGS) -O2 -fPIC -shared $< -o $@

$(BENCH)/cbench: Benchmarks/c/bench.c Benchmarks/c/noop.h include/tca.h $(LIB) $(BENCH)/libbenchnoop.so
	$(CC) $(CFLAGS) -O2 $(BENCH_CDEFS) -IBenchmarks/c $< -o $@ $(C_LINK) \
	  -L$(BENCH) -lbenchnoop -Wl,-rpath,$(CURDIR)/$(BENCH)

$(VENV)/.bench: $(VENV)/.installed
	$(VENV)/bin/pip install --quiet $(PYDUX)
	touch $@

# ---- sanitizers -------------------------------------------------------------------------------
# make sanitize: the C tests under AddressSanitizer (with LeakSanitizer) and ThreadSanitizer, each
# against a libtca built with the same sanitizer (swift build --sanitize=…, in .build-address /
# .build-thread; the Swift runtime then comes from the toolchain's shared libraries, and the test
# programs are built with the toolchain's clang, whose sanitizer runtimes match the Swift ones).
# Any report fails the run. One sanitizer: make sanitize-address, make sanitize-thread.

SWIFT_BIN      := $(dir $(realpath $(shell command -v $(SWIFT))))
SAN_CC         ?= $(SWIFT_BIN)clang
SWIFT_LINUXLIB := $(realpath $(SWIFT_BIN)../lib/swift/linux)
SAN_OPTIONS    := ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0 \
  TSAN_OPTIONS=halt_on_error=1:exitcode=66

sanitize: sanitize-address sanitize-thread

sanitize-address sanitize-thread: sanitize-%:
	@echo "== C tests under the $* sanitizer"
	$(SWIFT) build -c release --sanitize=$* --scratch-path .build-$* --product tca
	mkdir -p $(BUILD)/$*/lib
	cp "$$($(SWIFT) build -c release --sanitize=$* --scratch-path .build-$* --product tca --show-bin-path)/libtca.so" $(BUILD)/$*/lib/
	@for t in $(notdir $(C_TESTS)); do \
	  $(SAN_CC) -std=c99 -g -O1 -fsanitize=$* -fno-omit-frame-pointer -fuse-ld=lld \
	    -D_POSIX_C_SOURCE=200809L -Iinclude Tests/c/$$t.c -o $(BUILD)/$*/$$t \
	    -L$(BUILD)/$*/lib -ltca -Wl,-rpath,$(CURDIR)/$(BUILD)/$*/lib \
	    -L$(SWIFT_LINUXLIB) -Wl,-rpath,$(SWIFT_LINUXLIB) -ldispatch -lBlocksRuntime -lpthread \
	    || exit 1; \
	  echo "-- $* $$t"; $(SAN_OPTIONS) $(BUILD)/$*/$$t || exit 1; \
	done

# The template of docs/own-features.md, built out of tree as a user's package would be: its own
# library (libstopwatch.so), driven from C and from Python through tca.h and the tca package.
test-own-feature: $(VENV)/.installed
	@echo "== Own-feature template (examples/own-feature)"
	$(MAKE) -C examples/own-feature test SWIFT=$(SWIFT) \
	  BUILD=$(CURDIR)/$(BUILD)/own-feature PYTHON=$(CURDIR)/$(VENV)/bin/python

# ---- fuzzing -----------------------------------------------------------------------------------
# make fuzz: libFuzzer with AddressSanitizer over the C API (Tests/fuzz/fuzz_store.c: the JSON
# decoder and send, new from a snapshot, respond, fail, complete, get, advance, poll), coverage
# inside the Swift code, for FUZZ_SECONDS (60: the short run of make test). Seeds come from the
# actions in docs/features.md; new inputs gather in build/fuzz/corpus. docs/fuzzing.md has the
# long run. FUZZ_FLAGS adds libFuzzer flags (-runs=10000000 -jobs=…).
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   ?=
FUZZ_SCRATCH := .build-fuzz
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_MODULES := JSON CSystem StoreKernel Features CBridge LibTCA
FUZZ_SWIFT   := $(SWIFT) build -c release --scratch-path $(FUZZ_SCRATCH) --target LibTCA \
  -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address

fuzz: $(FUZZ_DIR)/fuzz_store $(FUZZ_DIR)/seeds/.made
	@echo "== fuzzing for $(FUZZ_SECONDS) s (make fuzz FUZZ_SECONDS=…)"
	mkdir -p $(FUZZ_DIR)/corpus
	ASAN_OPTIONS=detect_leaks=1 $(FUZZ_DIR)/fuzz_store -max_total_time=$(FUZZ_SECONDS) \
	  -max_len=4096 -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_FLAGS) $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds

# NB: SwiftPM compiles the library's modules with the fuzzer's coverage and ASan; the toolchain's
# swiftc links their objects with the harness and libFuzzer (which brings main).
$(FUZZ_DIR)/fuzz_store: $(SWIFT_SOURCES) Tests/fuzz/fuzz_store.c include/tca.h
	$(FUZZ_SWIFT)
	mkdir -p $(FUZZ_DIR)
	$(SAN_CC) -std=c99 -g -O1 -fsanitize=fuzzer-no-link,address -Iinclude \
	  -c Tests/fuzz/fuzz_store.c -o $(FUZZ_DIR)/fuzz_store.o
	bin=$$($(FUZZ_SWIFT) --show-bin-path) && \
	  $(SWIFT_BIN)swiftc -sanitize=fuzzer,address -use-ld=lld $(FUZZ_DIR)/fuzz_store.o \
	    $(foreach m,$(FUZZ_MODULES),$$bin/$(m).build/*.o) -o $@ \
	    -Xlinker -rpath -Xlinker $(SWIFT_LINUXLIB)

$(FUZZ_DIR)/seeds/.made: docs/features.md Tests/fuzz/seeds.py $(wildcard Tests/fixtures/matchscores/*)
	rm -rf $(FUZZ_DIR)/seeds
	$(PYTHON) Tests/fuzz/seeds.py docs/features.md $(FUZZ_DIR)/seeds Tests/fixtures/matchscores
	touch $@

# make test runs the short fuzz run too.
test: fuzz

# ---- install -----------------------------------------------------------------------------------

install: lib
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 0755 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libtca.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libtca.so.$(SOMAJOR)
	ln -sf libtca.so.$(SOMAJOR) $(DESTDIR)$(PREFIX)/lib/libtca.so
	install -m 0644 include/tca.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' scripts/tca.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/tca.pc

clean:
	rm -rf $(BUILD) .build $(BENCH_SCRATCH) .build-address .build-thread $(FUZZ_SCRATCH)
