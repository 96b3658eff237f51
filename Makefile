# libtca — build, demo, test, install.
#   make            build/lib/libtca.so.0.1.0 (+ links), include/tca.h
#   make demo       build, then run the C and Python examples
#   make test       build, then run the Swift, C and Python tests
#   make bench      release builds, then every benchmark: one table and build/bench.json
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

.PHONY: all lib demo test test-swift test-c test-python test-own-feature bench install clean

all: lib

lib: $(LIB)

# scripts/build-library.sh says how the library is linked (static Swift runtime, SONAME, tca_*
# exports only, -z nodelete, -z defs).
$(LIB): $(SWIFT_SOURCES) scripts/build-library.sh
	SWIFT=$(SWIFT) scripts/build-library.sh . tca $(VERSION) $(LIBDIR)

# ---- examples ----------------------------------------------------------------------------------

$(BUILD)/examples/%: examples/c/%.c include/tca.h $(LIB)
	mkdir -p $(BUILD)/examples
	$(CC) $(CFLAGS) $< -o $@ $(C_LINK)

demo: $(BUILD)/examples/counter $(VENV)/.installed
	@echo "== C: examples/c/counter.c"
	$(BUILD)/examples/counter
	@echo "== Python: bindings/python/examples/counter.py"
	TCA_LIBRARY=$(CURDIR)/$(LIB) $(VENV)/bin/python bindings/python/examples/counter.py

# ---- tests -------------------------------------------------------------------------------------

test: lib test-swift test-c test-python test-own-feature
	@echo "== all tests passed"

test-swift:
	@echo "== Swift tests"
	$(SWIFT) test

C_TESTS := $(patsubst Tests/c/%.c,$(BUILD)/tests/%,$(wildcard Tests/c/test_*.c))

$(BUILD)/tests/%: Tests/c/%.c Tests/c/harness.h include/tca.h $(LIB)
	mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) -D_POSIX_C_SOURCE=200809L $< -o $@ $(C_LINK) -lpthread

test-c: $(C_TESTS) $(BUILD)/tests/header_c99.o $(BUILD)/tests/header_cxx.o
	@echo "== C tests"
	@for t in $(C_TESTS); do echo "-- $$t"; $$t || exit 1; done

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
	$(VENV)/bin/pip install --quiet pytest -e bindings/python
	touch $@

test-python: lib $(VENV)/.installed
	@echo "== Python tests"
	TCA_LIBRARY=$(CURDIR)/$(LIB) $(VENV)/bin/python -m pytest -q bindings/python/tests

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

# The template of docs/own-features.md, built out of tree as a user's package would be: its own
# library (libstopwatch.so), driven from C and from Python through tca.h and the tca package.
test-own-feature: $(VENV)/.installed
	@echo "== Own-feature template (examples/own-feature)"
	$(MAKE) -C examples/own-feature test SWIFT=$(SWIFT) CC=$(CC) \
	  BUILD=$(CURDIR)/$(BUILD)/own-feature PYTHON=$(CURDIR)/$(VENV)/bin/python

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
	rm -rf $(BUILD) .build $(BENCH_SCRATCH)
