// The Store of the test-only addon (store.c): the names of a Node binding's Store.
"use strict";
const native = require(process.env.TCA_TYPES_ADDON || "./store.node");

class Store {
  constructor(feature, options = {}) {
    const state = options.state == null ? null
      : typeof options.state === "string" ? options.state : JSON.stringify(options.state);
    this.handle = native.open(feature, options.clock === "manual", options.seed || 0, state);
  }
  /** A case name, a value for JSON.stringify. */
  send(action) {
    native.send(this.handle, JSON.stringify(action));
  }
  state() {
    return JSON.parse(native.state(this.handle));
  }
  advance(ms) {
    native.advance(this.handle, ms);
  }
  close() {
    if (this.handle !== null) native.close(this.handle);
    this.handle = null;
  }
}

module.exports = { Store };
