"""The inspector: `python -m tca devtools [--port 7700] [--host 127.0.0.1] [FILE.jsonl]`.

A page in the browser for libtca stores, live or recorded: the action log, the state at any
version with the patch that led to it, a slider, jump and dispatch, export of the session as a
journal, and a pytest replaying it (docs/devtools.md). The modules:

- `protocol`: the limits and the line reader of the store connection (the inspector protocol);
- `session`: one store's session as the inspector keeps it (rows, versions, states, a budget);
- `redrive`: a journal driven through a recorded store again, input by input, with the actions
  each input led to and the states after them (offline files, tests, replays with jumps);
- `testgen`: the pytest module that replays a session with `tca.testing.TestStore`;
- `server`: the HTTP server (page, JSON API, store connections) and the command line.

The store side of the protocol is the library's: with `TCA_DEVTOOLS=HOST:PORT/TOKEN` set, every
store (`tca.Store` too) connects itself.

Nothing here is imported by `tca` itself.
"""
