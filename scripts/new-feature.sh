#!/usr/bin/env bash
# Writes a Swift package of your own feature, shipped as a C library with libtca's API
# (docs/own-features.md): the reducer and its registration, an exhaustive TestStore test, a C host
# and a pytest, all of which build and pass as generated.
#
#   scripts/new-feature.sh NAME DIR
#   cd DIR && make test      # Swift tests, then the C host and the pytest against libNAME.so
#
# NAME is the feature's name for hosts (tca_store_new("NAME", …)) and the library's
# (libNAME.so): a lowercase letter, then letters and digits (`search`, `stopWatch`). Its Swift
# type is NAME with a capital (`Search`). DIR must not exist, or be empty. The package depends on
# this checkout of libtca by its absolute path; the pytest needs Python's `tca` package (the
# Makefile's PYTHON; libtca's `make venv` makes one in build/venv).
set -euo pipefail

usage() { echo "usage: $0 NAME DIR   (NAME: a lowercase letter, then letters and digits)" >&2; }
if [ $# -ne 2 ]; then usage; exit 2; fi
name=$1 dir=$2
if ! [[ $name =~ ^[a-z][A-Za-z0-9]*$ ]]; then
  echo "$0: \"$name\" is not a feature name: it must be a lowercase letter, then letters and digits" >&2
  exit 2
fi
if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
  echo "$0: $dir exists and is not empty" >&2
  exit 2
fi
type=$(printf '%s' "${name:0:1}" | tr a-z A-Z)${name:1}
# NB: the Swift type is also the name of a module and of targets, which must not be one of libtca's
# or the toolchain's, nor shadow a StoreKernel type the generated code uses.
case $type in
  JSON | CSystem | StoreKernel | StoreKernelTesting | CBridge | Features | LibTCA | Swift | Testing \
    | Foundation | Dispatch | Glibc | Synchronization | XCTest | Test | Store | TestStore | Reducer \
    | Effect | State | Action | Dependency | FeatureRegistry)
    echo "$0: \"$name\" would make a Swift module $type, a name libtca or Swift already uses" >&2
    exit 2
    ;;
esac
libtca=$(cd "$(dirname "$0")/.." && pwd)

mkdir -p "$dir/Sources/$type" "$dir/Sources/${type}Library" "$dir/Tests/${type}Tests"

# Each file is written with placeholders, then filled in: __NAME__, __TYPE__, __LIBTCA__.
fill() { sed -e "s|__NAME__|$name|g" -e "s|__TYPE__|$type|g" -e "s|__LIBTCA__|$libtca|g" >"$1"; }

fill "$dir/Package.swift" <<'EOF'
// swift-tools-version: 6.0
import PackageDescription

// The __NAME__ feature, shipped as a C library with libtca's API (docs/own-features.md of libtca).
// Written by libtca's scripts/new-feature.sh; the path below is the libtca checkout it came from.
let package = Package(
  name: "__NAME__",
  products: [
    // The C library: `make` turns it into build/lib/lib__NAME__.so.0.1.0.
    .library(name: "__NAME__", type: .dynamic, targets: ["__TYPE__Library"])
  ],
  dependencies: [
    .package(name: "libtca", path: "__LIBTCA__")
  ],
  targets: [
    // The feature: plain StoreKernel code, tested with TestStore. Its Codable types get their
    // direct JSON paths written at build time by libtca's plugin: no JSON code to write (it
    // lists the types it leaves to Codable, and why, at the top of the file it writes).
    .target(
      name: "__TYPE__",
      dependencies: [
        .product(name: "StoreKernel", package: "libtca"),
        .product(name: "JSON", package: "libtca"),
      ],
      plugins: [.plugin(name: "JSONCodablePlugin", package: "libtca")]),
    // The library: the C bridge, and the one function that registers the feature.
    .target(
      name: "__TYPE__Library",
      dependencies: ["__TYPE__", .product(name: "CBridge", package: "libtca")]),
    .testTarget(
      name: "__TYPE__Tests",
      dependencies: ["__TYPE__", .product(name: "StoreKernelTesting", package: "libtca")]),
  ]
)
EOF

fill "$dir/Sources/$type/$type.swift" <<'EOF'
import StoreKernel

/// A count, and a fact about it that the host fetches (`__NAME__.fact`, payload: the count,
/// answer: a string). Make it your feature; keep its tests passing.
///
///     "incrementTapped"  →  {"count":1,"isLoading":false}
///     "factTapped"       →  host request __NAME__.fact 1  →  {"count":1,"fact":"…","isLoading":false}
public struct __TYPE__: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var count = 0
    /// The last fact fetched, until the next fetch starts.
    public var fact: String?
    public var isLoading = false
    /// Why the last fetch failed.
    public var error: String?

    public init() {}
  }

  public enum Action: Equatable, Codable, Sendable {
    case incrementTapped
    case decrementTapped
    case factTapped
    case factLoaded(String)
    case factFailed(String)
  }

  /// The host request this feature makes.
  public static let fetchFact = "__NAME__.fact"

  enum CancelID { case fact }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped:
      // NB: the count may come from a host's snapshot: at the ends of Int it stays, never traps.
      let (next, overflow) = state.count.addingReportingOverflow(1)
      if !overflow { state.count = next }
      return .none

    case .decrementTapped:
      let (next, overflow) = state.count.subtractingReportingOverflow(1)
      if !overflow { state.count = next }
      return .none

    case .factTapped:
      state.isLoading = true
      state.fact = nil
      state.error = nil
      return .request(__TYPE__.fetchFact, payload: state.count, as: String.self) {
        .factLoaded($0)
      } failure: {
        .factFailed($0.message)
      }
      .cancellable(id: CancelID.fact, cancelInFlight: true)

    case let .factLoaded(fact):
      state.isLoading = false
      state.fact = fact
      return .none

    case let .factFailed(message):
      state.isLoading = false
      state.error = message
      return .none
    }
  }
}
EOF

fill "$dir/Sources/${type}Library/RegisterFeatures.swift" <<'EOF'
import CBridge
import StoreKernel
import __TYPE__

/// The features this library offers to hosts. The C bridge calls this once, on first use; the
/// attribute is how it finds it (docs/own-features.md of libtca, step 4).
@_silgen_name("libtca_register_features")
public func registerFeatures(_ registry: FeatureRegistry) throws {
  try registry.register(
    name: "__NAME__",
    summary: "A count and a fact about it from the host.",
    // The host requests it may make, with what they carry: its schema (tca_feature_schema,
    // tca.schema) is derived from these and the feature's Codable types.
    requests: [.oneShot(__TYPE__.fetchFact, payload: Int.self, response: String.self)],
    initialState: __TYPE__.State(),
    reducer: __TYPE__()
  )
}
EOF

fill "$dir/Tests/${type}Tests/${type}Tests.swift" <<'EOF'
import StoreKernel
import StoreKernelTesting
import Testing
import __TYPE__

// Exhaustive TestStore tests: each send and receive describes the whole change, every action fed
// back is received, and nothing is left running at finish().

@Test func countsUpAndDown() {
  let store = TestStore(initialState: __TYPE__.State(), reducer: __TYPE__(), reporter: .swiftTesting)
  store.send(.incrementTapped) { $0.count = 1 }
  store.send(.incrementTapped) { $0.count = 2 }
  store.send(.decrementTapped) { $0.count = 1 }
  store.finish()
}

@Test func fetchesAFactFromTheHost() throws {
  var state = __TYPE__.State()
  state.count = 3
  let store = TestStore(initialState: state, reducer: __TYPE__(), reporter: .swiftTesting)
  store.send(.factTapped) { $0.isLoading = true }
  #expect(try store.request("__NAME__.fact")?.payload(as: Int.self) == 3)
  store.respond(to: "__NAME__.fact", with: "3 is a crowd.")
  store.receive(.factLoaded("3 is a crowd.")) {
    $0.isLoading = false
    $0.fact = "3 is a crowd."
  }

  store.send(.factTapped) {
    $0.isLoading = true
    $0.fact = nil
  }
  store.fail("__NAME__.fact", message: "offline")
  store.receive(.factFailed("offline")) {
    $0.isLoading = false
    $0.error = "offline"
  }
  store.finish()
}
EOF

fill "$dir/host.c" <<'EOF'
/* A C host of the __NAME__ library: libtca's tca.h, this library.
 *
 *   cc host.c -I__LIBTCA__/include -Lbuild/lib -l__NAME__ -Wl,-rpath,$PWD/build/lib -o host
 */
#include <stdio.h>
#include <string.h>
#include <tca.h>

static int failures = 0;

#define EXPECT(condition)                                                    \
  do {                                                                       \
    if (!(condition)) {                                                      \
      fprintf(stderr, "host.c:%d: FAILED: %s\n", __LINE__, #condition);      \
      failures++;                                                            \
    }                                                                        \
  } while (0)

/* Whether the state's JSON is exactly `expected`. */
static int state_is(tca_store *store, const char *expected) {
  char *json = NULL;
  if (tca_store_state(store, &json, NULL) != TCA_OK) return 0;
  int same = strcmp(json, expected) == 0;
  if (!same) fprintf(stderr, "  state %s, expected %s\n", json, expected);
  tca_string_free(json);
  return same;
}

/* Answers __NAME__.fact at once, inside the callback. */
static void on_request(void *userdata, tca_store *store, uint64_t request_id, const char *name,
                       const char *payload_json, size_t payload_length) {
  int *requests = userdata;
  (*requests)++;
  printf("host request %llu: %s %.*s\n", (unsigned long long)request_id, name,
         (int)payload_length, payload_json);
  if (strcmp(name, "__NAME__.fact") == 0) {
    tca_store_respond(store, request_id, "\"a fine number\"");
  } else {
    tca_store_fail(store, request_id, "this host does not do that");
  }
}

int main(void) {
  char *features = tca_features();
  EXPECT(features != NULL && strstr(features, "\"name\":\"__NAME__\"") != NULL);
  if (features) printf("features: %s\n", features);
  tca_string_free(features);

  /* The feature's schema: its state, actions and requests, for hosts' types (docs/schema.md). */
  char *schema = NULL;
  EXPECT(tca_feature_schema("__NAME__", &schema, NULL) == TCA_OK);
  EXPECT(schema != NULL && strstr(schema, "\"__NAME__.fact\":{\"kind\":\"oneShot\","
                                          "\"payload\":{\"type\":\"integer\"},"
                                          "\"response\":{\"type\":\"string\"}}") != NULL);
  tca_string_free(schema);

  tca_store *store = NULL;
  EXPECT(tca_store_new("__NAME__", NULL, NULL, &store) == TCA_OK);
  int requests = 0;
  EXPECT(tca_store_set_effect_handler(store, on_request, NULL, &requests) == TCA_OK);
  EXPECT(tca_store_send(store, "\"incrementTapped\"") == TCA_OK);
  EXPECT(state_is(store, "{\"count\":1,\"isLoading\":false}"));
  EXPECT(tca_store_send(store, "\"factTapped\"") == TCA_OK);
  EXPECT(requests == 1);
  EXPECT(state_is(store, "{\"count\":1,\"fact\":\"a fine number\",\"isLoading\":false}"));
  /* A bad action is an error naming the place, and changes nothing. */
  EXPECT(tca_store_send(store, "\"jump\"") == TCA_ERR_JSON_SHAPE);
  printf("sending \"jump\": %s\n", tca_last_error());
  tca_store_free(store);

  /* A snapshot may name only some members: the others take the initial state's values. */
  store = NULL;
  EXPECT(tca_store_new("__NAME__", "{\"count\":41}", NULL, &store) == TCA_OK);
  EXPECT(tca_store_send(store, "\"incrementTapped\"") == TCA_OK);
  EXPECT(state_is(store, "{\"count\":42,\"isLoading\":false}"));
  tca_store_free(store);

  printf("%s\n", failures == 0 ? "__NAME__ host: all checks passed" : "__NAME__ host: FAILED");
  return failures == 0 ? 0 : 1;
}
EOF

fill "$dir/test_$name.py" <<'EOF'
"""The __NAME__ library driven from Python through libtca's `tca` package."""

import json
import random

import pytest

import tca
from tca.testing import random_action, random_value


def test_the_library_offers_the_feature():
    assert {feature["name"] for feature in tca.features()} == {"__NAME__"}


def test_the_generated_types_drive_the_store(tmp_path):
    """`python -m tca types __NAME__ --lang python` (`make types` writes every language's):
    typed actions and a typed state, which mypy --strict checks where it is installed."""
    import importlib.util
    import os
    import subprocess
    import sys

    path = tmp_path / "__NAME___types.py"
    subprocess.run(
        [sys.executable, "-m", "tca", "types", "__NAME__", "--lang", "python", "-o", str(path)],
        check=True,
    )
    spec = importlib.util.spec_from_file_location("__NAME___types", path)
    types = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(types)
    with tca.Store(types.FEATURE) as store:
        store.send(types.Action.incrementTapped())
        store.send(types.Action.factLoaded("a fact"))
        assert store.state == {"count": 1, "fact": "a fact", "isLoading": False}

    use = tmp_path / "use.py"
    use.write_text(
        "import tca\n"
        "from __NAME___types import Action, State\n"
        "with tca.Store('__NAME__') as store:\n"
        "    store.send(Action.factFailed('offline'))\n"
        "    state: State = store.state\n"
        "    count: int = state['count']\n"
    )
    try:
        import mypy  # noqa: F401
    except ImportError:
        return
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", str(path), str(use)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=dict(os.environ, MYPYPATH=os.path.dirname(os.path.dirname(tca.__file__))),
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_counts_and_fetches_a_fact_from_the_host():
    with tca.Store("__NAME__") as store:
        asked = []

        @store.effect("__NAME__.fact")
        def fact(count):
            asked.append(count)
            return f"{count} is a fine number."

        store.send("incrementTapped")
        store.send("factTapped")
        assert asked == [1]
        assert store.state == {"count": 1, "fact": "1 is a fine number.", "isLoading": False}


def test_a_partial_snapshot_takes_the_defaults():
    with tca.Store("__NAME__", state={"count": 41}) as store:
        store.send("incrementTapped")
        assert store.state == {"count": 42, "isLoading": False}


def test_the_schema_says_what_the_feature_reads_and_writes():
    schema = tca.schema("__NAME__")
    assert schema["requests"] == {
        "__NAME__.fact": {
            "kind": "oneShot", "payload": {"type": "integer"}, "response": {"type": "string"}
        }
    }
    cases = schema["$defs"][schema["action"]["$ref"].split("/")[-1]]["oneOf"]
    assert [case["x-tca-case"] for case in cases] == [
        "incrementTapped", "decrementTapped", "factTapped", "factLoaded", "factFailed"
    ]


@pytest.mark.parametrize("seed", range(3))
def test_random_actions_and_answers_stay_within_the_schema(seed):
    """Actions and answers made from the schema are accepted; every state, action and request
    payload validates against it (with `jsonschema`, an independent validator)."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = tca.schema("__NAME__")

    def check(subschema, value):
        jsonschema.validate(value, {"$defs": schema["$defs"], **subschema})

    rng = random.Random(seed)
    with tca.Store("__NAME__", clock="manual", requests="queued") as store:
        pending = []
        for _ in range(100):
            action = random_action(schema, rng, seen=store.state)
            check(schema["action"], action)
            store.send(action)
            for request in store.take_requests():
                if "cancelled" in request:
                    pending = [p for p in pending if p["id"] != request["cancelled"]]
                    continue
                declared = schema["requests"][request["name"]]
                check(declared["payload"], request["payload"])
                pending.append(request)
            if pending and rng.random() < 0.5:
                request = pending.pop(0)
                declared = schema["requests"][request["name"]]
                store.respond(request["id"], random_value(schema, declared["response"], rng))
            check(schema["state"], store.state)
            check(schema["state"], json.loads(store.state_json()))
EOF

fill "$dir/Makefile" <<'EOF'
# Builds and tests the __NAME__ library (written by libtca's scripts/new-feature.sh).
#   make        build/lib/lib__NAME__.so.0.1.0 (+ links): libtca's C API, this feature
#   make test   Swift tests, then the C host and the pytest against the library
#   make types  the feature's State and Action types for hosts, from its schema (libtca's
#               python -m tca types; docs/schema.md): build/types/ in Python, TypeScript, C#,
#               Rust and C++
# PYTHON must have libtca's `tca` package installed (libtca's `make venv` gives build/venv).

LIBTCA    ?= __LIBTCA__
BUILD     ?= build
VERSION   := 0.1.0
SWIFT     ?= swift
CC        ?= cc
PYTHON    ?= python3
LIB       := $(BUILD)/lib/lib__NAME__.so.$(VERSION)
SOURCES   := $(shell find Sources -name '*.swift') Package.swift

.PHONY: all test test-swift test-c test-python types

all: $(LIB)

$(LIB): $(SOURCES)
	SWIFT=$(SWIFT) SCRATCH_PATH=$(BUILD)/swift $(LIBTCA)/scripts/build-library.sh \
	  . __NAME__ $(VERSION) $(BUILD)/lib

$(BUILD)/host: host.c $(LIBTCA)/include/tca.h $(LIB)
	$(CC) -std=c99 -Wall -Wextra -Werror -pedantic host.c -o $@ \
	  -I$(LIBTCA)/include -L$(BUILD)/lib -l__NAME__ -Wl,-rpath,$(abspath $(BUILD)/lib)

test: test-swift test-c test-python types

test-swift:
	$(SWIFT) test --scratch-path $(BUILD)/swift-debug

test-c: $(BUILD)/host
	$(BUILD)/host

test-python: $(LIB)
	@$(PYTHON) -c 'import tca, pytest' 2>/dev/null || { \
	  echo "$(PYTHON) lacks libtca's tca package or pytest. Either:"; \
	  echo "  pip install -e '$(LIBTCA)/bindings/python[test]'"; \
	  echo "  make test PYTHON=$(LIBTCA)/build/venv/bin/python   (after libtca's make venv)"; \
	  exit 1; }
	TCA_LIBRARY=$(abspath $(LIB)) $(PYTHON) -m pytest -q test___NAME__.py

TYPES := python:__NAME___types.py typescript:__NAME__.ts csharp:__TYPE__.cs rust:__NAME__.rs \
  cpp:__NAME__.hpp

types: $(LIB)
	@mkdir -p $(BUILD)/types
	@for pair in $(TYPES); do \
	  TCA_LIBRARY=$(abspath $(LIB)) $(PYTHON) -m tca types __NAME__ --lang $${pair%%:*} \
	    -o $(BUILD)/types/$${pair#*:} || exit 1; done
	@echo "types of __NAME__ in $(BUILD)/types: $$(cd $(BUILD)/types && echo *)"
EOF

printf 'build/\n.build/\n__pycache__/\n.pytest_cache/\n' >"$dir/.gitignore"

echo "wrote the $name feature's package in $dir: cd $dir && make test"
