'use strict';
// The Store: a libtca store of one feature, driven by Node's event loop (docs/node.md).

const { addon: native } = require('./native');
const args = require('./args');
const errors = require('./errors');
const { Request, run, unhandled } = require('./requests');

const REPLAY = Symbol('replay');
const WAKE = Symbol('wake');

/** The loop's turn on a store (called by the addon: its descriptor became readable, a timer
 *  fired, or a call asked for a turn). */
function wake(store) {
  store[WAKE]();
}

native.init(errors.makeError, wake);

// A Store collected without close() is closed here (the loop holds it only while it has a
// real-clock timer pending).
const registry = new FinalizationRegistry((h) => native.close(h));

class Store {
  #h;
  #closed = false;
  #handlerMode;
  #handler = null;
  #onCancel = null;
  #inFlight = new Map();

  /**
   * new Store(feature, { state, clock, seed, requests, record, recordLimit, shared })
   *   state:    where to start: an object, JSON text or bytes (a stateText() saved earlier)
   *   clock:    "real" (the default) or "manual" (moved only by advance(ms))
   *   seed:     the random generator's seed (0, the default: one from the system)
   *   requests: "handler" (the default): the loop takes requests and hands them to the
   *             onRequest handler (none: they fail, saying so); "queued": they wait for
   *             takeRequests()
   *   record:   keep a journal (journal(), Store.replay)
   *   recordLimit: with record, how many journal lines to keep (0: all; older ones fold into a
   *             checkpoint: docs/wire-format.md, "Checkpoints")
   *   shared:   "process" (the default): the state's shared fields are shared with every store
   *             of the process holding the same key; "isolated": they are this store's own
   */
  constructor(feature, options = {}) {
    if (feature === REPLAY) {
      const { journal, to, mode } = options;
      this.#handlerMode = mode === 'handler';
      this.#h = native.replay(journal, to, this.#handlerMode, this);
      registry.register(this, this.#h, this);
      return;
    }
    args.string(feature, 'new Store: feature');
    if (options === null || typeof options !== 'object') {
      throw new TypeError('new Store: options must be an object');
    }
    const {
      state, clock = 'real', seed = 0, requests = 'handler', record = false, recordLimit = 0,
      shared = 'process',
    } = options;
    args.oneOf(clock, ['real', 'manual'], 'new Store: clock');
    args.oneOf(requests, ['handler', 'queued'], 'new Store: requests');
    args.oneOf(record, [true, false], 'new Store: record');
    args.oneOf(shared, ['process', 'isolated'], 'new Store: shared');
    const stateText =
      state === undefined || state === null || typeof state === 'string'
        ? state
        : args.json(state, 'new Store: state');
    this.#handlerMode = requests === 'handler';
    const manual = clock === 'manual';
    this.#h = native.open(feature, stateText, manual, args.u64(seed, 'new Store: seed'),
      this.#handlerMode, record, this, args.u64(recordLimit, 'new Store: recordLimit'),
      shared === 'isolated');
    registry.register(this, this.#h, this);
  }

  /**
   * Store.replay(journal, to, { requests }): a new store rebuilt from a journal up to version
   * `to` (undefined: all of it), on a manual clock, recording.
   */
  static replay(journal, to, options = {}) {
    if (typeof journal !== 'string' && !(journal instanceof Uint8Array)) {
      throw new TypeError('Store.replay: journal must be a string or a Uint8Array');
    }
    const version =
      to === undefined || to === null ? args.UINT64_MAX : args.u64(to, 'Store.replay: to');
    const { requests = 'handler' } = options || {};
    args.oneOf(requests, ['handler', 'queued'], 'Store.replay: requests');
    return new this(REPLAY, { journal, to: version, mode: requests });
  }

  /**
   * Sends an action: a string is a case name ("incrementButtonTapped"), a Uint8Array JSON text
   * as it is, anything else a value written with JSON.stringify ({ setCount: 5 }).
   */
  send(action) {
    const json =
      typeof action === 'string' ? JSON.stringify(action) : args.json(action, 'send: action');
    native.send(this.#h, json);
  }

  /** The state, parsed from the store's JSON (a new value each call). */
  state() {
    return JSON.parse(native.stateBorrowed(this.#h));
  }

  /** The state as compact JSON text: a snapshot `new Store(feature, { state })` takes back. */
  stateText() {
    return native.state(this.#h);
  }

  /** One part of the state by JSON Pointer ("/count"; "" is all of it), parsed. */
  get(pointer = '') {
    return JSON.parse(native.get(this.#h, args.string(pointer, 'get: pointer')));
  }

  /** get(pointer) as JSON text. */
  getText(pointer = '') {
    return native.get(this.#h, args.string(pointer, 'getText: pointer'));
  }

  /** The state's version: it changes exactly when the state does (0 for a new store). */
  version() {
    return native.version(this.#h);
  }

  /** What changed since `since` (a version seen), as RFC 6902 operations; [] if nothing. */
  patch(since) {
    return JSON.parse(native.patch(this.#h, args.u64(since, 'patch: since')));
  }

  /** patch(since) as its JSON text. */
  patchText(since) {
    return native.patch(this.#h, args.u64(since, 'patchText: since'));
  }

  /**
   * Calls fn(version) at the end of each call into the store that changed its state (with
   * { state: true }: fn(version, state)). Returns the function that unsubscribes.
   */
  subscribe(fn, options = {}) {
    args.fn(fn, 'subscribe: fn');
    const withState = Boolean(options && options.state);
    const call = withState
      ? (version, text) => fn(version, text === null ? null : JSON.parse(text))
      : fn;
    const h = this.#h;
    const token = native.subscribe(h, call, withState);
    let live = true;
    return () => {
      if (!live) return;
      live = false;
      if (!this.#closed) native.unsubscribe(h, token);
    };
  }

  /**
   * Sets the function the loop hands each request to (null: none), and the one it tells of
   * each cancellation (with the request's id). docs/node.md, "Requests".
   */
  onRequest(handler, onCancel = null) {
    if (handler !== null) args.fn(handler, 'onRequest: handler');
    if (onCancel !== null) args.fn(onCancel, 'onRequest: onCancel');
    // NB: first, for a closed store's error; the loop's turn that hands requests over comes
    // after this call returns.
    native.setLoopTakes(this.#h, this.#handlerMode || handler !== null);
    this.#handler = handler;
    this.#onCancel = onCancel;
  }

  /** The requests and cancellation notices waiting, oldest first: [{ id, name, kind, payload }
   *  or { cancelled: id }]. */
  takeRequests() {
    return JSON.parse(native.takeRequests(this.#h));
  }

  /** Answers request `id` with a value (JSON.stringify'd; a Uint8Array: JSON as it is). */
  respond(id, value) {
    id = args.u64(id, 'respond: id');
    native.respond(this.#h, id, args.json(value, 'respond: value'));
    const request = this.#inFlight.get(id);
    if (request !== undefined && request.kind === 'oneShot') this.#inFlight.delete(id);
  }

  /** Fails request `id` (a stream too, which ends) with a message for the feature. */
  fail(id, message) {
    id = args.u64(id, 'fail: id');
    native.fail(this.#h, id, args.string(message, 'fail: message'));
    this.#inFlight.delete(id);
  }

  /** Ends stream `id`. */
  complete(id) {
    id = args.u64(id, 'complete: id');
    native.complete(this.#h, id);
    this.#inFlight.delete(id);
  }

  /** Runs what is due now (the loop does so by itself); returns how much ran. */
  poll() {
    return native.poll(this.#h);
  }

  /** Moves a manual clock forward, firing the timers that fall due. */
  advance(ms) {
    native.advance(this.#h, args.u64(ms, 'advance: ms'));
  }

  /** Milliseconds until the next timer is due (0: now), null if none is pending. */
  nextDeadline() {
    const ms = native.nextDeadline(this.#h);
    return ms < 0 ? null : ms;
  }

  /** The store's descriptor (the loop watches it already; for loops of your own). */
  fd() {
    return native.fd(this.#h);
  }

  /** The journal of a recording store, as JSON Lines. */
  journal() {
    return native.journal(this.#h);
  }

  /** Makes a recording store keep (true) or drop (false) the list of actions it reduces. */
  logReductions(enabled) {
    args.oneOf(enabled, [true, false], 'logReductions: enabled');
    native.logReductions(this.#h, enabled);
  }

  /** The actions reduced since the last take: [{ origin, action, state }]. */
  takeReductions() {
    return JSON.parse(native.takeReductions(this.#h));
  }

  /**
   * A promise of the state once predicate(state) holds (at once if it does now); rejected after
   * `timeoutMs` if given, or when the store closes.
   */
  waitFor(predicate, timeoutMs) {
    args.fn(predicate, 'waitFor: predicate');
    return new Promise((resolve, reject) => {
      let state = this.state();
      if (predicate(state)) return resolve(state);
      let timer = null;
      const unsubscribe = this.subscribe(() => {
        try {
          state = this.state();
          if (!predicate(state)) return;
        } catch (error) {
          finish();
          return reject(error);
        }
        finish();
        resolve(state);
      });
      const finish = () => {
        unsubscribe();
        if (timer !== null) clearTimeout(timer);
      };
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          unsubscribe();
          reject(new Error(`waitFor: the state did not come within ${timeoutMs} ms`));
        }, timeoutMs);
      }
    });
  }

  /** True once close() was called. */
  get closed() {
    return this.#closed;
  }

  /**
   * Releases the store: its watchers stop (the process may exit), its effects are cancelled,
   * requests handed to the handler are cancelled (onCancel is told). Later calls throw
   * InvalidHandleError. Closing twice does nothing.
   */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    registry.unregister(this);
    native.close(this.#h);
    const inFlight = [...this.#inFlight.values()];
    this.#inFlight.clear();
    this.#handler = null;
    const onCancel = this.#onCancel;
    this.#onCancel = null;
    for (const request of inFlight) {
      request.cancelled = true;
      if (onCancel !== null) onCancel(request.id);
    }
  }

  /** The loop's turn: what is due runs, and the loop hands the requests to the handler. */
  [WAKE]() {
    if (this.#closed) return;
    native.poll(this.#h);
    if (!this.#handlerMode && this.#handler === null) return;
    const text = native.takeRequests(this.#h);
    if (text === '[]') return;
    let thrown = null;
    for (const item of JSON.parse(text)) {
      if (this.#closed) break;
      try {
        this.#dispatch(item);
      } catch (error) {
        if (thrown === null) thrown = error;
      }
    }
    if (thrown !== null) throw thrown;
  }

  #dispatch(item) {
    if (item.cancelled !== undefined) {
      const request = this.#inFlight.get(item.cancelled);
      this.#inFlight.delete(item.cancelled);
      if (request !== undefined) request.cancelled = true;
      if (this.#onCancel !== null) this.#onCancel(item.cancelled);
      return;
    }
    const request = new Request(this, item);
    if (this.#handler === null) {
      if (request.kind !== 'fireAndForget') this.fail(request.id, unhandled(request.name));
      return;
    }
    if (request.kind !== 'fireAndForget') this.#inFlight.set(request.id, request);
    run(this.#handler, request);
  }
}

if (typeof Symbol.dispose === 'symbol') {
  Store.prototype[Symbol.dispose] = Store.prototype.close;
}

module.exports = { Store, Request };
