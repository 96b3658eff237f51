'use strict';
// Requests handed to a handler by the loop (store.onRequest): the Request object, and how a
// handler's result answers it. docs/node.md, "Requests".

const { TcaError } = require('./errors');

/** The text of a thrown value, or its type's name when it has none. */
function messageOf(error) {
  const text = error instanceof Error ? error.message : String(error);
  return text || (error && error.constructor ? error.constructor.name : 'error');
}

/** A host request as the loop hands it to the handler. */
class Request {
  constructor(store, item) {
    /** The request's id, never reused within a store. */
    this.id = item.id;
    /** "numberFact.fetch" */
    this.name = item.name;
    /** "oneShot", "stream" or "fireAndForget" */
    this.kind = item.kind;
    /** The request's payload, parsed. */
    this.payload = item.payload;
    /** True once the store cancelled it (or closed): it takes no answer any more. */
    this.cancelled = false;
    Object.defineProperty(this, 'store', { value: store });
  }

  /** store.respond(this.id, value) */
  respond(value) {
    this.store.respond(this.id, value);
  }

  /** store.fail(this.id, message) */
  fail(message) {
    this.store.fail(this.id, message);
  }

  /** store.complete(this.id) */
  complete() {
    this.store.complete(this.id);
  }
}

/**
 * The answer a handler returned (or its promise resolved to): respond (a stream: one element,
 * then complete); undefined answers nothing. An answer the library refuses fails the request
 * with the reason, so the feature does not wait for ever, and is thrown.
 */
function answer(request, value) {
  if (value === undefined || request.cancelled || request.kind === 'fireAndForget') return;
  try {
    request.respond(value);
    if (request.kind === 'stream') request.complete();
  } catch (error) {
    if (!(error instanceof TcaError) || request.cancelled) throw error;
    const message = `the handler of '${request.name}' returned an answer the library refused: ` +
      error.message;
    try {
      request.fail(message);
    } catch (_) {
      // already finished: the refusal is what matters
    }
    error.message = message;
    throw error;
  }
}

/** A request the handler failed (threw, or its promise rejected). */
function failed(request, error) {
  if (request.cancelled) return;
  try {
    request.fail(messageOf(error));
  } catch (failure) {
    if (!(failure instanceof TcaError)) throw failure;
  }
}

/**
 * Runs the handler on one request. A result that is a promise answers when it settles (an
 * answer the library refuses then rejects a promise nobody awaits: Node's unhandled rejection).
 * A fire-and-forget handler's exception is thrown (no one else can be told).
 */
function run(handler, request) {
  let result;
  try {
    result = handler(request);
  } catch (error) {
    if (request.kind === 'fireAndForget') throw error;
    failed(request, error);
    return;
  }
  if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
    result.then(
      (value) => answer(request, value),
      (error) => {
        if (request.kind === 'fireAndForget') throw error;
        failed(request, error);
      }
    );
    return;
  }
  answer(request, result);
}

/** The message of a request no handler takes. */
function unhandled(name) {
  return `no handler for the request '${name}': set one with store.onRequest(fn)`;
}

module.exports = { Request, run, unhandled, messageOf };
