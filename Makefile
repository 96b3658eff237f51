# libtca — build, demo, test, install.
#   make            build/lib/libtca.so.0.1.0 (+ links), include/tca.h
#   make demo       build, then run the C and Python examples
#   make test       build, then run the Swift, C (also under valgrind), Python, C++, Rust, LuaJIT
#                   (and LÖVE) and C# tests, every doc snippet, the own-feature template, the
#                   new-feature scaffold, the inspector in headless Chromium, an install into a
#                   temporary prefix, the symbol-order
#                   check and a 60 s fuzz run
#   make test-types the host types (python -m tca types) of every language against its binding
#   make bench      release builds, then every benchmark: one table and build/bench.json
#   make fuzz       libFuzzer + AddressSanitizer over the C API, then journals (docs/fuzzing.md)
#   make install    PREFIX=/usr/local: library, links, header, pkg-config file
#   make order-symbols  rewrite scripts/tca.order from the hot paths' profile (needs valgrind)
#   make pgo-profile    rewrite scripts/tca.proftext.gz, the profile the library is optimized with

VERSION   := 0.1.0
SOMAJOR   := 0
PREFIX    ?= /usr/local
# Swift from /opt/swift when `swift` is not on the PATH (the README's promise).
ifeq ($(origin SWIFT)$(shell command -v swift 2>/dev/null),undefined)
  ifneq ($(wildcard /opt/swift/usr/bin/swift),)
    SWIFT       := /opt/swift/usr/bin/swift
    export PATH := /opt/swift/usr/bin:$(PATH)
  endif
endif
SWIFT     ?= swift
CC        ?= cc
PYTHON    ?= python3

BUILD     := build
LIBDIR    := $(BUILD)/lib
LIB       := $(LIBDIR)/libtca.so.$(VERSION)
VENV      := $(BUILD)/venv
# NB: before the rules that name it (pgo-profile): a prerequisite is expanded where it is read.
BENCH     := $(BUILD)/bench
CFLAGS    ?= -std=c99 -Wall -Wextra -Werror -pedantic -O2
C_LINK    := -Iinclude -L$(LIBDIR) -ltca -Wl,-rpath,$(CURDIR)/$(LIBDIR)

SWIFT_SOURCES := $(shell find Sources -name '*.swift' -o -name '*.[ch]') Package.swift scripts/tca.map scripts/tca.order \
  scripts/tca.proftext.gz Makefile

.PHONY: all lib demo test order-symbols test-order pgo-profile bench-scale test-swift test-c test-unwind-cxx test-python python-test-deps venv test-own-feature bench install clean \
  test-cdef test-cpp test-rust test-lua test-dotnet test-docs test-node node-addon lua-cdef \
  bench-bindings \
  abi-check sanitize sanitize-address sanitize-thread examples test-install install-test-deps \
  test-new-feature fuzz test-devtools test-types

all: lib

lib: $(LIB)

# scripts/build-library.sh says how the library is linked (static Swift runtime, SONAME, tca_*
# exports only, -z nodelete, -z defs).
$(LIB): $(SWIFT_SOURCES) scripts/build-library.sh
	SWIFT=$(SWIFT) scripts/build-library.sh . tca $(VERSION) $(LIBDIR)

# The functions the hot paths run, placed side by side by the link (scripts/order-symbols.sh).
order-symbols: $(LIB)
	scripts/order-symbols.sh

# The hot-path driver runs, and the symbol order still names the library's functions.
test-order: $(LIB)
	@echo "== hot paths and the symbol order"
	scripts/order-symbols.sh --check
	SWIFT=$(SWIFT) scripts/pgo-profile.sh --check

# The profile the library is optimized with (scripts/pgo-profile.sh): a library with counters
# (in .build-pgo) runs the hot paths and the C bench's and scale table's rows.
pgo-profile: $(LIB) $(BENCH)/cbench $(BENCH)/scalebench
	SWIFT=$(SWIFT) scripts/pgo-profile.sh

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

test: lib test-swift test-c test-unwind-cxx test-python test-own-feature test-new-feature test-install \
  test-cpp test-rust test-lua test-dotnet test-node test-types test-docs test-order test-devtools
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
# NB: --fair-sched=yes: valgrind runs one thread at a time, and its default lock let a thread that
# calls the library in a loop (test_threads' racers) take it back each time, so that the thread
# meant to free the store waited for minutes, or forever.
VALGRIND       ?= valgrind
VALGRIND_FLAGS := -q --fair-sched=yes --error-exitcode=97 --leak-check=full \
  --show-leak-kinds=definite --errors-for-leak-kinds=definite \
  --suppressions=$(CURDIR)/scripts/valgrind-swift.supp

test-c: $(C_TESTS) $(BUILD)/tests/header_c99.o $(BUILD)/tests/header_cxx.o abi-check test-cdef
	@echo "== C tests"
	@for t in $(C_TESTS); do echo "-- $$t"; $$t || exit 1; done
	@echo "== C tests under valgrind"
	@for t in $(filter-out $(UNWIND_TESTS),$(C_TESTS)); do echo "-- valgrind $$t"; \
	  TCA_TEST_QUICK=1 $(VALGRIND) $(VALGRIND_FLAGS) $$t || exit 1; done

# NB: not under valgrind: a callback that longjmps out of libtca leaks what the frames it skipped
# held (tca.h: callbacks must not unwind; the test checks the store refuses calls, not memory).
UNWIND_TESTS := $(BUILD)/tests/test_unwind

# A C++ exception thrown through a callback (issue 15): built with exceptions on.
test-unwind-cxx: $(BUILD)/tests/test_unwind_throw
	@echo "== C++: an exception thrown through a callback"
	$(BUILD)/tests/test_unwind_throw

$(BUILD)/tests/test_unwind_throw: Tests/c/test_unwind_throw.cpp include/tca.h $(LIB)
	mkdir -p $(BUILD)/tests
	c++ -std=c++17 -Wall -Wextra -Werror -O2 -fexceptions $< -o $@ $(C_LINK) -lpthread

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

# The preprocessed header loads in LuaJIT's ffi.cdef as it is (Tests/lua/test_cdef.lua); luajit is
# installed by scripts/need-tools.sh where missing (a skip line without it; on CI, a failure).
test-cdef: $(LIB)
	@echo "== tca.h through LuaJIT's ffi.cdef"
	@if scripts/need-tools.sh "the cdef test" luajit:luajit; then \
	  mkdir -p $(BUILD)/tests && $(CC) -E -P include/tca.h > $(BUILD)/tests/tca.cdef.h && \
	  luajit Tests/lua/test_cdef.lua $(BUILD)/tests/tca.cdef.h $(LIBDIR)/libtca.so.$(SOMAJOR); \
	else [ $$? = 1 ]; fi

PY_SPEEDUPS := bindings/python/tca/_speedups.abi3.so
$(VENV)/.installed: bindings/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e 'bindings/python[test]'
	touch $@

venv: $(VENV)/.installed $(PY_SPEEDUPS)

# Store.send's optional compiled path (bindings/python/tca/_fastsend.py): a C extension against
# Python's limited API, built in place for the venv's editable install (and by setup.py into the
# wheel). Python's headers come with python3-dev on Debian.
# PY_EXTENSION: how a C extension of ours is compiled (tca._speedups, the bench's floor).
PY_EXTENSION = include=$$($(VENV)/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])'); \
	if [ ! -f "$$include/Python.h" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "== installing python3-dev (Python.h, for tca._speedups)"; \
	  DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-dev </dev/null >/dev/null; \
	fi; \
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -shared -fPIC -I"$$include" -Ibindings/python/tca
$(PY_SPEEDUPS): bindings/python/tca/_speedups.c bindings/python/tca/_speedups_json.h \
  $(VENV)/.installed
	@$(PY_EXTENSION) $< -o $@

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
# NB: wheel: tests/test_wheel.py installs build/wheel's wheel into a fresh venv.
test-python: lib $(VENV)/.installed $(PY_SPEEDUPS) python-test-deps wheel
	@echo "== Python tests"
	TCA_LIBRARY=$(CURDIR)/$(LIB) TCA_REQUIRE_SPEEDUPS=1 TCA_REQUIRE_XVFB=$$(command -v Xvfb >/dev/null && echo 1) \
	  $(VENV)/bin/python -m pytest -q bindings/python/tests

# The inspector (python -m tca devtools, docs/devtools.md) in headless Chromium: Debian's
# chromium and chromium-driver (scripts/need-tools.sh), selenium from PyPI in the venv. Chatter
# goes to build/devtools/ (pytest.log, server.log, host.log, chromedriver.log), with the page's
# screenshot (screenshot.png).
DEVTOOLS_DEBS := chromium:chromium chromedriver:chromium-driver
test-devtools: lib $(VENV)/.installed
	@echo "== inspector in a browser (python -m tca devtools, headless Chromium)"
	@if scripts/need-tools.sh "the inspector's browser test" $(DEVTOOLS_DEBS); then \
	  set -e; mkdir -p $(BUILD)/devtools; \
	  $(VENV)/bin/python -c 'import selenium' 2>/dev/null || \
	    $(VENV)/bin/pip install --quiet selenium > $(BUILD)/devtools/pip.log 2>&1; \
	  $(CC) $(CFLAGS) -D_POSIX_C_SOURCE=200809L bindings/python/tests_devtools/host.c \
	    -o $(BUILD)/devtools/host $(C_LINK); \
	  TCA_LIBRARY=$(CURDIR)/$(LIB) TCA_DEVTOOLS_C_HOST=$(CURDIR)/$(BUILD)/devtools/host \
	    $(VENV)/bin/python -m pytest -q -p no:cacheprovider \
	    bindings/python/tests_devtools > $(BUILD)/devtools/pytest.log 2>&1 || \
	    { tail -40 $(BUILD)/devtools/pytest.log; exit 1; }; \
	  tail -1 $(BUILD)/devtools/pytest.log; echo "   screenshot: $(BUILD)/devtools/screenshot.png"; \
	else [ $$? = 1 ]; fi

# make wheel: build/wheel/tca-VERSION-py3-none-<platform>.whl, the Python package carrying a
# stripped libtca.so.0 (bindings/python/setup.py). Built from a copy of the package's folder, so
# that the build leaves nothing in the tree.
WHEEL_DIR := $(BUILD)/wheel
.PHONY: wheel
wheel: $(LIB) $(VENV)/.installed $(PY_SPEEDUPS)
	rm -rf $(WHEEL_DIR) $(BUILD)/wheel-src
	mkdir -p $(WHEEL_DIR)
	cp -r bindings/python $(BUILD)/wheel-src
	rm -rf $(BUILD)/wheel-src/build $(BUILD)/wheel-src/*.egg-info
	TCA_WHEEL_LIBRARY=$(CURDIR)/$(LIBDIR)/libtca.so.$(SOMAJOR) \
	  $(VENV)/bin/pip wheel --quiet --no-deps --no-build-isolation \
	    --wheel-dir $(WHEEL_DIR) $(BUILD)/wheel-src
	@ls $(WHEEL_DIR)/*.whl

# ---- language bindings (docs/cpp.md, docs/rust.md, docs/lua.md, docs/dotnet.md) ---------------
# Each test-<language> builds its binding's tests and examples against build/lib and runs them;
# its toolchain comes from Debian's packages where missing (scripts/need-tools.sh: a skip line
# without it, a failure on CI).

CXX          ?= c++
CXXFLAGS_TCA := -std=c++17 -Wall -Wextra -Werror -O2 -g
CPP_BUILD    := $(BUILD)/cpp

$(CPP_BUILD)/%: bindings/cpp/*/%.cpp include/tca.hpp $(wildcard include/tca/*.hpp) \
  $(wildcard bindings/cpp/tests/*.hpp) include/tca.h $(LIB)
	mkdir -p $(CPP_BUILD)
	$(CXX) $(CXXFLAGS_TCA) $(filter %.cpp,$^) -o $@ $(C_LINK)

# docs/bindings.md has a row for each function of tca.h. The C++ tests (test_parity: every function
# of tca.h the binding reaches) run as built and under valgrind (a leaked string, store or
# subscriber fails them); the example must print the seeded roll and the host's fact, and keep its
# die from patches alone; every snippet of docs/cpp.md builds and runs.
CPP_TESTS := $(CPP_BUILD)/test_store $(CPP_BUILD)/test_parity
test-cpp: $(CPP_TESTS) $(CPP_BUILD)/game
	@echo "== C++ tests (include/tca.hpp)"
	CC="$(CC)" scripts/check-bindings-table.sh include/tca.h docs/bindings.md
	@for t in $(CPP_TESTS); do echo "-- $$t"; $$t || exit 1; \
	  echo "-- valgrind $$t"; $(VALGRIND) $(VALGRIND_FLAGS) $$t || exit 1; done
	$(CPP_BUILD)/game > $(CPP_BUILD)/game.out
	grep -q '^dice: rolled 5 after 500 ms (1 buzz)' $(CPP_BUILD)/game.out
	grep -q '^counter: 2 .* 2 is the number of this example.' $(CPP_BUILD)/game.out
	grep -q '^dice: [1-9][0-9]* patches followed, .* read whole 1 time(s); the kept die matches' \
	  $(CPP_BUILD)/game.out
	@echo "== C++ example ok: $$(grep '^dice: rolled' $(CPP_BUILD)/game.out)"
	bindings/cpp/tests/doc-snippets.sh docs/cpp.md $(CPP_BUILD)/snippets \
	  "$(CXX) -std=c++17 -Wall -Wextra -Werror" "$(C_LINK)"

CARGO      ?= cargo
RUST_BUILD := $(CURDIR)/$(BUILD)/rust
RUST_ENV   := CARGO_TARGET_DIR=$(RUST_BUILD) TCA_LIB_DIR=$(CURDIR)/$(LIBDIR)

# The table of docs/bindings.md (as test-cpp); cargo test --offline (the crate has no
# dependencies); the test binaries (api, parity: every function of tca.h) again under valgrind;
# the example, which must print the seeded roll and the host's fact and keep its die from patches
# alone; a build against a folder without libtca (it must stop and say where it looked); every
# snippet of docs/rust.md built as a crate of its own and run. Cargo from rustup (~/.cargo/bin) or
# Debian's cargo package (the crate's rust-version is Debian 12's Rust, 1.63: no let-else, no
# std::hint::black_box).
test-rust: $(LIB)
	@echo "== Rust tests (bindings/rust)"
	CC="$(CC)" scripts/check-bindings-table.sh include/tca.h docs/bindings.md
	@export PATH="$$PATH:$$HOME/.cargo/bin"; if scripts/need-tools.sh "the Rust tests" cargo:cargo; then \
	  set -e; cd bindings/rust; $(RUST_ENV) $(CARGO) test --offline -q; \
	  tests=$$($(RUST_ENV) $(CARGO) test --offline --no-run --message-format=json 2>/dev/null \
	    | sed -n 's/.*"executable":"\([^"]*\/\(api\|parity\)-[^"]*\)".*/\1/p'); \
	  test "$$(echo "$$tests" | wc -w)" = 2; \
	  for t in $$tests; do echo "-- valgrind $$t"; \
	    $(VALGRIND) $(VALGRIND_FLAGS) "$$t" --test-threads=1 -q; done; \
	  $(RUST_ENV) $(CARGO) run --offline -q --example game > $(RUST_BUILD)/game.out; \
	  grep -q '^dice: rolled 5 after 500 ms (1 buzz)' $(RUST_BUILD)/game.out; \
	  grep -q '^counter: 2 .* 2 is the number of this example.' $(RUST_BUILD)/game.out; \
	  grep -q '^dice: [1-9][0-9]* patches followed, .* read whole 1 time(s); the kept die matches' \
	    $(RUST_BUILD)/game.out; \
	  echo "== Rust example ok: $$(grep '^dice: rolled' $(RUST_BUILD)/game.out)"; \
	  mkdir -p $(RUST_BUILD)/no-lib; \
	  if CARGO_TARGET_DIR=$(RUST_BUILD)/no-lib-target TCA_LIB_DIR=$(RUST_BUILD)/no-lib \
	    $(CARGO) build --offline -q > $(RUST_BUILD)/no-lib.out 2>&1; then \
	    echo "a build without libtca succeeded"; exit 1; fi; \
	  grep -q 'libtca not found: TCA_LIB_DIR=.* holds no libtca.so' $(RUST_BUILD)/no-lib.out; \
	  echo "== Rust build without libtca: $$(grep -o 'libtca not found: .* holds no libtca.so' \
	    $(RUST_BUILD)/no-lib.out)"; \
	  $(RUST_ENV) CARGO=$(CARGO) CARGO_TARGET_DIR=$(RUST_BUILD)/snippets-target \
	    tests/doc-snippets.sh $(CURDIR)/docs/rust.md $(RUST_BUILD)/snippets $(CURDIR)/bindings/rust; \
	else [ $$? = 1 ]; fi

LUA_BUILD := $(CURDIR)/$(BUILD)/lua
LUA_ENV   := TCA_LIBRARY=$(CURDIR)/$(LIBDIR)/libtca.so.$(SOMAJOR)
LUA_DEBS  := luajit:luajit love:love xvfb-run:xvfb xauth:xauth pkg:libgl1-mesa-dri

# bindings/lua/tca/cdef.lua: tca.h's declarations for ffi.cdef (test-lua fails when it is stale).
lua-cdef:
	scripts/lua-cdef.sh $(CC) > bindings/lua/tca/cdef.lua

# The API tests (and again under valgrind: a string the module did not free is "definitely lost";
# LuaJIT's own reads past its strings are not counted), 100,000 frames with the JIT on, the
# example (run from another folder, with no TCA_LIBRARY: it finds the module and the repository's
# build/lib itself), and the LÖVE game under Xvfb playing one roll: its final state on stdout,
# its kept state (followed by patches, JIT on) are checked and its screenshot kept in
# build/lua/dice-roll.png.
test-lua: $(LIB)
	@echo "== Lua tests (bindings/lua)"
	@if scripts/need-tools.sh "the Lua tests" $(LUA_DEBS); then \
	  set -e; mkdir -p $(LUA_BUILD); \
	  scripts/lua-cdef.sh $(CC) | cmp -s - bindings/lua/tca/cdef.lua || \
	    { echo "bindings/lua/tca/cdef.lua is stale: make lua-cdef"; exit 1; }; \
	  cd bindings/lua; \
	  $(LUA_ENV) luajit tests/test_tca.lua; \
	  $(LUA_ENV) luajit tests/test_frames.lua; \
	  echo "-- valgrind tests/test_tca.lua"; \
	  $(LUA_ENV) $(VALGRIND) --leak-check=full --show-leak-kinds=definite \
	    --suppressions=$(CURDIR)/scripts/valgrind-swift.supp luajit tests/test_tca.lua \
	    > $(LUA_BUILD)/valgrind.out 2>&1 || { cat $(LUA_BUILD)/valgrind.out; exit 1; }; \
	  if grep -q "definitely lost: [1-9]" $(LUA_BUILD)/valgrind.out; then \
	    cat $(LUA_BUILD)/valgrind.out; exit 1; fi; \
	  (cd $(LUA_BUILD) && env -u TCA_LIBRARY luajit $(CURDIR)/bindings/lua/examples/game.lua) \
	    > $(LUA_BUILD)/game.out; \
	  grep -q '^dice: rolled 5 after 500 ms (1 buzz)' $(LUA_BUILD)/game.out; \
	  grep -q "^followed [1-9][0-9]* patches; the kept state is the store's: true" \
	    $(LUA_BUILD)/game.out; \
	  grep -q '^counter: 2 .* 2 is the number of this example.' $(LUA_BUILD)/game.out; \
	  echo "== Lua example ok: $$(grep '^dice:' $(LUA_BUILD)/game.out)"; \
	  rm -rf $(LUA_BUILD)/love-data; \
	  $(LUA_ENV) TCA_AUTOPLAY=1 XDG_DATA_HOME=$(LUA_BUILD)/love-data timeout 120 \
	    xvfb-run -a -s "-screen 0 640x480x24" love examples/love-dice > $(LUA_BUILD)/love.out 2>&1 \
	    || { cat $(LUA_BUILD)/love.out; exit 1; }; \
	  cat $(LUA_BUILD)/love.out; \
	  grep -q '^roll landed after 500 ms: 5$$' $(LUA_BUILD)/love.out; \
	  grep -q '^final state: {"currentRoll":5,"isRolling":false,"rollHistory":\[5\],' \
	    $(LUA_BUILD)/love.out; \
	  grep -q "^followed [1-9][0-9]* patches; the kept state is the store's: true; JIT on$$" \
	    $(LUA_BUILD)/love.out; \
	  cp $(LUA_BUILD)/love-data/love/tca-dice/dice-roll.png $(LUA_BUILD)/dice-roll.png; \
	  $(LUA_ENV) TCA_AUTOPLAY=1 XDG_DATA_HOME=$(LUA_BUILD)/love-data timeout 120 \
	    xvfb-run -a -s "-screen 0 640x480x24" love examples/love-dice > $(LUA_BUILD)/love2.out 2>&1 \
	    || { cat $(LUA_BUILD)/love2.out; exit 1; }; \
	  grep -q '^history loaded: \[5\]$$' $(LUA_BUILD)/love2.out; \
	  grep -q '^final state: {"currentRoll":5,"isRolling":false,"rollHistory":\[5,5\],' \
	    $(LUA_BUILD)/love2.out; \
	  echo "== LÖVE dice ok: one roll played, screenshot in build/lua/dice-roll.png; a second run"; \
	  echo "   starts from the first one's history (dice-history.json in its save directory)"; \
	else [ $$? = 1 ]; fi

DOTNET_BUILD := $(CURDIR)/$(BUILD)/dotnet
DOTNET_DEBS  := mcs:mono-mcs mono:mono-devel
MCS          := mcs -nologo -warnaserror -unsafe

# Tca.dll (Mono's mcs), its parity test (every wrapped function; stores freed by Dispose and by the
# SafeHandle's finalizer; run with no TCA_LIBRARY: Tca.dll in build/dotnet finds the repository's
# build/lib), the message of a library not found, and the example, which must print the seeded
# roll, a kept state that followed the patches, and the host's fact.
test-dotnet: $(LIB)
	@echo "== C# tests (bindings/dotnet)"
	@if scripts/need-tools.sh "the C# tests" $(DOTNET_DEBS); then \
	  mkdir -p $(DOTNET_BUILD) && \
	  $(MCS) -target:library -out:$(DOTNET_BUILD)/Tca.dll bindings/dotnet/Tca/*.cs && \
	  $(MCS) -r:$(DOTNET_BUILD)/Tca.dll -out:$(DOTNET_BUILD)/Tests.exe bindings/dotnet/tests/Tests.cs && \
	  $(MCS) -r:$(DOTNET_BUILD)/Tca.dll -out:$(DOTNET_BUILD)/Game.exe bindings/dotnet/examples/Game.cs && \
	  cd $(DOTNET_BUILD) && env -u TCA_LIBRARY mono Tests.exe && \
	  TCA_LIBRARY=/nonexistent/libtca.so.0 mono Tests.exe --missing-library && \
	  ! TCA_LIBRARY=/nonexistent/libtca.so.0 mono Game.exe 2> missing.err && \
	  grep -q '^libtca: cannot load libtca. Tried, in order:' missing.err && \
	  TCA_LIBRARY=$(CURDIR)/$(LIBDIR)/libtca.so.$(SOMAJOR) mono Game.exe > game.out && \
	  grep -q '^dice: rolled 5 after 500 ms (1 buzz)' game.out && \
	  grep -q "^followed [1-9][0-9]* patches; the kept state is the store's: true" game.out && \
	  grep -q '^counter: 2 .* 2 is the number of this example.' game.out && \
	  echo "== C# example ok: $$(grep '^dice:' game.out)"; \
	else [ $$? = 1 ]; fi

# ---- docs --------------------------------------------------------------------------------------

# Every code block of README.md and docs/*.md runs as written (scripts/check-doc-snippets.py: c,
# cpp, rust, python, sh, lua, csharp, js and json blocks, each by its info string, in a scratch
# folder under build/doc-snippets; blocks marked fragment, output or norun are not run). A failure
# names the file and line. The toolchains come as for the bindings' tests; a language whose tool
# is missing is skipped with a line (a failure on CI).
test-docs: $(LIB) $(VENV)/.installed $(PY_SPEEDUPS)
	@echo "== doc snippets (README.md, docs/*.md)"
	@scripts/need-tools.sh "the doc snippets" luajit:luajit $(DOTNET_DEBS) || [ $$? = 1 ]
	@if command -v node >/dev/null && [ -f "$(NODE_INCLUDE)/node_api.h" ]; then \
	  $(MAKE) --no-print-directory node-addon; fi
	PATH="$$PATH:$$HOME/.cargo/bin" $(PYTHON) scripts/check-doc-snippets.py

# ---- Node.js (bindings/node, docs/node.md) ------------------------------------------------------

NODE_BUILD   := $(CURDIR)/$(BUILD)/node
NODE_ADDON   := $(BUILD)/node/tca.node
NODE_DEBS    := node:nodejs tsc:node-typescript valgrind:valgrind
# node_api.h and uv.h: node's own include folder (NodeSource's nodejs, Node's own builds), else
# Debian's libnode-dev (/usr/include/node).
NODE_BIN     := $(dir $(realpath $(shell command -v node 2>/dev/null)))
NODE_INCLUDE ?= $(firstword $(if $(NODE_BIN),$(wildcard $(NODE_BIN)../include/node)) \
  /usr/include/node)
NODE_ENV     := TCA_LIBRARY=$(CURDIR)/$(LIBDIR)/libtca.so.$(SOMAJOR) \
  TCA_NODE_ADDON=$(CURDIR)/$(NODE_ADDON)
TSC_FLAGS    := --strict --noEmit --target es2020 --module commonjs --lib es2020

# tca.node, the addon: C against Node-API with one cc line (no node-gyp, nothing from npm). It
# opens libtca at run time (bindings/node/lib/native.js says where it looks).
$(NODE_ADDON): $(wildcard bindings/node/src/*.c bindings/node/src/*.h) include/tca.h
	mkdir -p $(BUILD)/node
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
	  -I$(NODE_INCLUDE) -Iinclude $(filter %.c,$^) -o $@ -ldl

node-addon: $(NODE_ADDON)

# node --test over bindings/node/tests, the parity test again under valgrind (a string the addon
# did not free, a store it did not release, fail it), the TypeScript declarations through
# tsc --strict, and the example, run from another folder, which must print the seeded roll and
# the host's fact. Node, tsc (and Node's headers where node has none) come from Debian's packages.
test-node: $(LIB)
	@echo "== Node.js tests (bindings/node)"
	@if scripts/need-tools.sh "the Node.js tests" $(NODE_DEBS) && \
	  { [ -f "$(NODE_INCLUDE)/node_api.h" ] || \
	    scripts/need-tools.sh "the Node.js addon" pkg:libnode-dev; }; then \
	  $(MAKE) --no-print-directory node-addon && cd bindings/node && \
	  $(NODE_ENV) node --test tests/*.test.js && \
	  echo "-- valgrind node tests/parity.test.js" && \
	  { $(NODE_ENV) $(VALGRIND) $(VALGRIND_FLAGS) node tests/parity.test.js \
	      > $(NODE_BUILD)/valgrind.out 2>&1 || { cat $(NODE_BUILD)/valgrind.out; exit 1; }; } && \
	  grep '^# pass' $(NODE_BUILD)/valgrind.out && \
	  echo "-- tsc $(TSC_FLAGS) tests/types.ts" && tsc $(TSC_FLAGS) tests/types.ts && \
	  cd $(NODE_BUILD) && $(NODE_ENV) node $(CURDIR)/bindings/node/examples/game.js > game.out && \
	  grep -q '^dice: rolled 5 after 500 ms (1 buzz)' game.out && \
	  grep -q '^counter: 2 .* 2 is the number of this example.' game.out && \
	  echo "== Node.js example ok: $$(grep '^dice:' game.out)"; \
	else [ $$? = 1 ]; fi

# ---- host types (docs/schema.md, "Host types") --------------------------------------------------
# python -m tca types FEATURE --lang LANGUAGE: the generator's tests (fixture schemas; mypy --strict
# takes the Python types' use and rejects a misspelled case, a wrong payload, a wrong key), then
# Tests/types: counter, todos and dice's types from the library's schemas in Python, TypeScript
# (tsc --strict, run by node over a test-only N-API store), C# (mcs), Rust (cargo) and C++
# (c++ -std=c++17), each driving stores and printing the same lines; matchscores' types and an
# exotic fixture's compile in each. Output in build/types/ (pytest.log, <language>/log.txt).
TYPES_DEBS := tsc:node-typescript node:nodejs mcs:mono-mcs mono:mono-devel

test-types: lib $(VENV)/.installed
	@echo "== Host types (python -m tca types) in Python, TypeScript, C#, Rust and C++"
	@scripts/need-tools.sh "the host types' tests" $(TYPES_DEBS) || [ $$? = 1 ]
	@[ -f "$(NODE_INCLUDE)/node_api.h" ] || scripts/need-tools.sh "the Node.js addon" \
	  pkg:libnode-dev || [ $$? = 1 ]
	@mkdir -p $(BUILD)/types; export PATH="$$PATH:$$HOME/.cargo/bin"; \
	  if TCA_LIBRARY=$(CURDIR)/$(LIB) $(VENV)/bin/python -m pytest -q -rs -p no:cacheprovider \
	    bindings/python/tests/test_typegen.py Tests/types > $(BUILD)/types/pytest.log 2>&1; then \
	    grep -E '^SKIPPED|passed|failed' $(BUILD)/types/pytest.log; \
	  else tail -40 $(BUILD)/types/pytest.log; exit 1; fi

# ---- benchmarks --------------------------------------------------------------------------------
# make bench: release builds, then every benchmark, side by side with its alternative in one run:
# one table on stdout and build/bench.json (docs/benchmarks.md). A quicker, rougher run:
#   BENCH_SAMPLES=5 BENCH_SAMPLE_MS=10 make bench

# NB: a scratch path of its own: the bench is built without the library's linker flags, and sharing
# .build would make each build undo the other's.
BENCH_SCRATCH := .build-bench
BENCH_SWIFT   := $(SWIFT) build -c release --product SwiftBench --scratch-path $(BENCH_SCRATCH)
# The C effect round trip is compiled in once tca.h declares the effect API.
BENCH_CDEFS   := $(shell grep -q tca_store_set_effect_handler include/tca.h && echo -DBENCH_HAVE_EFFECTS)
PYDUX         := pydux==0.2.2
# python-redux (PyPI; module `redux`) needs Python 3.11+: elsewhere its rows say n/a.
PYTHON_REDUX  := python-redux==0.25.4

bench: lib $(BENCH)/SwiftBench $(BENCH)/cbench $(BENCH)/scalebench $(BENCH)/libbenchnoop.so \
  $(BENCH)/_benchfloor.abi3.so $(VENV)/.bench-deps $(PY_SPEEDUPS) bench-bindings
	$(VENV)/bin/python Benchmarks/run.py --bench-dir $(BENCH) \
	  --lib $(LIBDIR)/libtca.so.$(SOMAJOR) --out $(BUILD)/bench.json

$(BENCH)/SwiftBench: $(SWIFT_SOURCES) $(wildcard Benchmarks/SwiftBench/*.swift)
	$(BENCH_SWIFT)
	mkdir -p $(BENCH)
	cp "$$($(BENCH_SWIFT) --show-bin-path)/SwiftBench" $@

$(BENCH)/libbenchnoop.so: Benchmarks/c/noop.c Benchmarks/c/noop.h
	mkdir -p $(BENCH)
	$(CC) $(CFLAGS) -O2 -fPIC -shared $< -o $@

# The Python rows' C-extension floor (Benchmarks/python/floor.c), built as tca._speedups is;
# bench.py loads it from beside libbenchnoop.so.
$(BENCH)/_benchfloor.abi3.so: Benchmarks/python/floor.c bindings/python/tca/_speedups_json.h \
  $(VENV)/.installed
	mkdir -p $(BENCH)
	@$(PY_EXTENSION) $< -o $@

$(BENCH)/cbench: Benchmarks/c/bench.c Benchmarks/c/noop.h include/tca.h $(LIB) $(BENCH)/libbenchnoop.so
	$(CC) $(CFLAGS) -O2 $(BENCH_CDEFS) -IBenchmarks/c $< -o $@ $(C_LINK) \
	  -L$(BENCH) -lbenchnoop -Wl,-rpath,$(CURDIR)/$(BENCH)

# The scale table (issue 16): todos at 1,000, 10,000 and 100,000 (docs/state-changes.md).
$(BENCH)/scalebench: Benchmarks/c/scale.c include/tca.h $(LIB)
	mkdir -p $(BENCH)
	$(CC) $(CFLAGS) -O2 $< -o $@ $(C_LINK)

# make bench-scale: the scale table alone.
bench-scale: lib $(BENCH)/scalebench $(VENV)/.installed
	$(VENV)/bin/python Benchmarks/run.py --bench-dir $(BENCH) --only scale \
	  --lib $(LIBDIR)/libtca.so.$(SOMAJOR) --out $(BUILD)/bench-scale.json

# The Bindings rows: each language's send against its own FFI floor (Benchmarks/bindings/), built
# where the toolchain is (installed as for its tests); run.py skips a row whose program is missing.
bench-bindings: lib
	mkdir -p $(BENCH)
	$(CXX) $(CXXFLAGS_TCA) -O2 Benchmarks/bindings/bench.cpp -o $(BENCH)/cppbench $(C_LINK)
	@export PATH="$$PATH:$$HOME/.cargo/bin"; if scripts/need-tools.sh "the Rust bench row" cargo:cargo; then \
	  cd bindings/rust && $(RUST_ENV) $(CARGO) build --offline -q --release --example bench && \
	  cp $(RUST_BUILD)/release/examples/bench $(CURDIR)/$(BENCH)/rustbench; \
	else [ $$? = 1 ]; fi
	@rm -f $(BENCH)/.lua; if scripts/need-tools.sh "the LuaJIT bench row" luajit:luajit; then \
	  touch $(BENCH)/.lua; else [ $$? = 1 ]; fi
	@if scripts/need-tools.sh "the C# bench row" $(DOTNET_DEBS); then \
	  $(MCS) -target:library -out:$(BENCH)/Tca.dll bindings/dotnet/Tca/*.cs && \
	  $(MCS) -r:$(BENCH)/Tca.dll -out:$(BENCH)/Bench.exe Benchmarks/bindings/Bench.cs; \
	else [ $$? = 1 ]; fi

$(VENV)/.bench-deps: $(VENV)/.installed
	$(VENV)/bin/pip install --quiet $(PYDUX)
	$(VENV)/bin/pip install --quiet $(PYTHON_REDUX) || \
	  echo "bench: $(PYTHON_REDUX) did not install (it needs Python 3.11+): its rows show n/a"
	touch $@

# ---- sanitizers -------------------------------------------------------------------------------
# make sanitize: the C tests under AddressSanitizer (with LeakSanitizer) and ThreadSanitizer, each
# against a libtca built with the same sanitizer (swift build --sanitize=…, in .build-address /
# .build-thread; the Swift runtime then comes from the toolchain's shared libraries, and the test
# programs are built with the toolchain's clang, whose sanitizer runtimes match the Swift ones).
# Any report fails the run. One sanitizer: make sanitize-address, make sanitize-thread.
# NB: test_unwind runs without leak detection: a longjmp out of a callback leaks what the frames
# it skipped held (tca.h), which is not what it checks.

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
	  leaks=1; [ $$t = test_unwind ] && leaks=0; \
	  echo "-- $* $$t"; $(SAN_OPTIONS) ASAN_OPTIONS=detect_leaks=$$leaks:halt_on_error=1:abort_on_error=0 \
	    $(BUILD)/$*/$$t || exit 1; \
	done

# The template of docs/own-features.md, built out of tree as a user's package would be: its own
# library (libstopwatch.so), driven from C and from Python through tca.h and the tca package.
# NB: SwiftPM keeps the file list of a path dependency with a build: once libtca gains or loses a
# source file, a package built against it before fails with "cannot find …". Such a build folder
# is started afresh whenever the list of libtca's sources changed.
SOURCE_LIST := $(shell find Sources -name '*.swift' | sort | cksum | cut -d' ' -f1)
fresh-build = if [ "$$(cat $(1)/.sources 2>/dev/null)" != "$(SOURCE_LIST)" ]; then \
  rm -rf $(1); mkdir -p $(1); echo $(SOURCE_LIST) > $(1)/.sources; fi

test-own-feature: $(VENV)/.installed
	@echo "== Own-feature template (examples/own-feature)"
	@$(call fresh-build,$(BUILD)/own-feature)
	$(MAKE) -C examples/own-feature test SWIFT=$(SWIFT) \
	  BUILD=$(CURDIR)/$(BUILD)/own-feature PYTHON=$(CURDIR)/$(VENV)/bin/python

# scripts/new-feature.sh writes a package into build/new-feature/scaffolded (afresh each run), whose
# own `make test` (its exhaustive TestStore test, its C host, its pytest) must pass as generated.
# NB: its Swift builds live apart, in build/new-feature/build, so later runs rebuild only the
# generated sources, not libtca's targets.
test-new-feature: $(VENV)/.installed
	@echo "== New-feature scaffold (scripts/new-feature.sh scaffolded …)"
	rm -rf $(BUILD)/new-feature/scaffolded
	@$(call fresh-build,$(BUILD)/new-feature/build)
	scripts/new-feature.sh scaffolded $(BUILD)/new-feature/scaffolded
	$(MAKE) -C $(BUILD)/new-feature/scaffolded test SWIFT=$(SWIFT) \
	  BUILD=$(CURDIR)/$(BUILD)/new-feature/build PYTHON=$(CURDIR)/$(VENV)/bin/python

# ---- fuzzing -----------------------------------------------------------------------------------
# make fuzz: libFuzzer with AddressSanitizer over the C API, coverage inside the Swift code, two
# harnesses one after the other: Tests/fuzz/fuzz_store.c (the JSON decoder and send, new from a
# snapshot, respond, fail, complete, get, advance, poll, patches, journals…) for FUZZ_SECONDS,
# then Tests/fuzz/fuzz_replay.c (journals: the replay round trip) for FUZZ_REPLAY_SECONDS (60
# and 20: the short run of make test). Seeds come from the actions in docs/features.md, and the
# journals of those scripts; new inputs gather in build/fuzz/corpus and build/fuzz/replay-corpus.
# docs/fuzzing.md has the long runs. FUZZ_FLAGS adds libFuzzer flags to both (-runs=… -jobs=…).
FUZZ_SECONDS        ?= 60
FUZZ_REPLAY_SECONDS ?= 20
FUZZ_FLAGS          ?=
FUZZ_SCRATCH := .build-fuzz
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_MODULES := JSON CSystem StoreKernel Features CBridge LibTCA
# NB: TCA_JSON_PLUGIN=off: without JSONCodablePlugin, whose tool cannot be linked with libFuzzer
# (Package.swift).
FUZZ_SWIFT   := TCA_JSON_PLUGIN=off $(SWIFT) build -c release --scratch-path $(FUZZ_SCRATCH) \
  --target LibTCA -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address

fuzz: $(FUZZ_DIR)/fuzz_store $(FUZZ_DIR)/seeds/.made $(FUZZ_DIR)/fuzz_replay \
  $(FUZZ_DIR)/replay-seeds/.made
	@echo "== fuzzing for $(FUZZ_SECONDS) s (make fuzz FUZZ_SECONDS=…)"
	mkdir -p $(FUZZ_DIR)/corpus
	ASAN_OPTIONS=detect_leaks=1 $(FUZZ_DIR)/fuzz_store -max_total_time=$(FUZZ_SECONDS) \
	  -max_len=4096 -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_FLAGS) $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds
	@echo "== fuzzing replays for $(FUZZ_REPLAY_SECONDS) s (make fuzz FUZZ_REPLAY_SECONDS=…)"
	mkdir -p $(FUZZ_DIR)/replay-corpus
	ASAN_OPTIONS=detect_leaks=1 $(FUZZ_DIR)/fuzz_replay -max_total_time=$(FUZZ_REPLAY_SECONDS) \
	  -max_len=16384 -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_DIR)/replay- $(FUZZ_FLAGS) $(FUZZ_DIR)/replay-corpus \
	  $(FUZZ_DIR)/replay-seeds $(FUZZ_DIR)/seeds

# NB: SwiftPM compiles the library's modules with the fuzzer's coverage and ASan; the toolchain's
# swiftc links their objects with the harness and libFuzzer (which brings main).
$(FUZZ_DIR)/fuzz_%: $(SWIFT_SOURCES) Tests/fuzz/fuzz_%.c include/tca.h
	$(FUZZ_SWIFT)
	mkdir -p $(FUZZ_DIR)
	$(SAN_CC) -std=c99 -g -O1 -fsanitize=fuzzer-no-link,address -Iinclude \
	  -c Tests/fuzz/fuzz_$*.c -o $(FUZZ_DIR)/fuzz_$*.o
	bin=$$($(FUZZ_SWIFT) --show-bin-path) && \
	  $(SWIFT_BIN)swiftc -sanitize=fuzzer,address -use-ld=lld $(FUZZ_DIR)/fuzz_$*.o \
	    $(foreach m,$(FUZZ_MODULES),$$bin/$(m).build/*.o) -o $@ \
	    -Xlinker -rpath -Xlinker $(SWIFT_LINUXLIB)

$(FUZZ_DIR)/seeds/.made: docs/features.md Tests/fuzz/seeds.py $(wildcard Tests/fixtures/matchscores/*)
	rm -rf $(FUZZ_DIR)/seeds
	$(PYTHON) Tests/fuzz/seeds.py docs/features.md $(FUZZ_DIR)/seeds Tests/fixtures/matchscores
	touch $@

# The journals of the script seeds, recorded by the replay harness itself (FUZZ_REPLAY_SEEDS),
# which runs each seed once: the journals its fuzzing mutates.
$(FUZZ_DIR)/replay-seeds/.made: $(FUZZ_DIR)/fuzz_replay $(FUZZ_DIR)/seeds/.made
	rm -rf $(FUZZ_DIR)/replay-seeds
	mkdir -p $(FUZZ_DIR)/replay-seeds
	FUZZ_REPLAY_SEEDS=$(FUZZ_DIR)/replay-seeds ASAN_OPTIONS=detect_leaks=0 \
	  $(FUZZ_DIR)/fuzz_replay $(FUZZ_DIR)/seeds/* > $(FUZZ_DIR)/replay-seeds.log 2>&1 || \
	  { tail -20 $(FUZZ_DIR)/replay-seeds.log; exit 1; }
	touch $@

# make test runs the short fuzz run too.
test: fuzz

# ---- install -----------------------------------------------------------------------------------

# The library is installed stripped. Into a system prefix (SYSTEM_PREFIXES, whose lib/ the dynamic
# loader searches) `make install` runs ldconfig; for any other prefix tca.pc carries the rpath, so
# `cc hello.c $(pkg-config --cflags --libs tca)` gives a program that starts as it is.
STRIP           ?= strip
SYSTEM_PREFIXES ?= /usr /usr/local
SYSTEM_INSTALL  := $(filter $(PREFIX),$(SYSTEM_PREFIXES))
PC_RPATH        := $(if $(SYSTEM_INSTALL),,-Wl,-rpath,$${libdir} )

install: lib
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 0755 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	$(STRIP) --strip-unneeded $(DESTDIR)$(PREFIX)/lib/libtca.so.$(VERSION)
	ln -sf libtca.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libtca.so.$(SOMAJOR)
	ln -sf libtca.so.$(SOMAJOR) $(DESTDIR)$(PREFIX)/lib/libtca.so
	install -m 0644 include/tca.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' -e 's|@RPATH@|$(PC_RPATH)|g' \
	  scripts/tca.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/tca.pc
	@if [ -z "$(DESTDIR)" ] && [ -n "$(SYSTEM_INSTALL)" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "ldconfig"; ldconfig; \
	  else echo "== run ldconfig as root so that the loader finds $(PREFIX)/lib/libtca.so.$(SOMAJOR)"; \
	  fi; \
	fi

# make test-install: `make install` into a temporary prefix, then the README's C quickstart built
# with pkg-config alone (PKG_CONFIG_PATH pointing there) runs and prints what its comment says.
# pkg-config is installed from Debian's package where missing, by root only (see python-test-deps);
# elsewhere the test is skipped with a line saying so, except on CI, where it fails.
install-test-deps:
	@if ! command -v pkg-config >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] \
	  && command -v apt-get >/dev/null 2>&1; then \
	  echo "== installing pkg-config (Debian package, for the install test)"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq </dev/null && \
	  apt-get install -y -qq --no-install-recommends pkg-config </dev/null >/dev/null || exit 1; \
	fi

test-install: lib install-test-deps
	@if command -v pkg-config >/dev/null 2>&1; then \
	  echo "== make install into a temporary prefix; the C quickstart built with pkg-config alone"; \
	  MAKE="$(MAKE)" CC="$(CC)" VERSION=$(VERSION) scripts/test-install.sh; \
	elif [ -n "$$CI" ]; then \
	  echo "== pkg-config is missing (apt-get install pkg-config)"; exit 1; \
	else \
	  echo "== skipped the install test: pkg-config is missing (apt-get install pkg-config)"; \
	fi

clean:
	rm -rf $(BUILD) .build .build-pgo $(BENCH_SCRATCH) .build-address .build-thread $(FUZZ_SCRATCH) \
	  $(PY_SPEEDUPS)
