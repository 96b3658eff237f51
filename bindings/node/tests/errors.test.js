'use strict';
// Errors: each failure of the library is a TcaError subclass with the status and the library's
// message; arguments are checked before they reach C; a failed call changes nothing.
const test = require('node:test');
const assert = require('node:assert/strict');
const tca = require('..');
const { Store } = tca;

/** Asserts fn throws an error of `Class` with `status`, whose message matches `message`. */
function throwsTca(fn, Class, status, message) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof Class, `${error.name} is not a ${Class.name}: ${error.message}`);
    assert.ok(error instanceof tca.TcaError);
    assert.ok(error instanceof Error);
    assert.equal(error.status, status);
    assert.equal(error.name, Class.name);
    assert.match(error.message, message);
    return true;
  });
}

test('bad JSON: JSONSyntaxError, and nothing sent', () => {
  const store = new Store('counter', { clock: 'manual' });
  const before = store.version();
  throwsTca(() => store.send(new TextEncoder().encode('{"incrementButtonTapped":')),
    tca.JSONSyntaxError, 4, /^tca_store_send_n: /);
  assert.equal(store.version(), before);
  throwsTca(() => new Store('counter', { state: '{"count":' }), tca.JSONSyntaxError, 4, /./);
  store.close();
});

test('unknown case: JSONShapeError naming it', () => {
  const store = new Store('counter', { clock: 'manual' });
  throwsTca(() => store.send('jumpButtonTapped'), tca.JSONShapeError, 5,
    /"jumpButtonTapped" is not a known case/);
  throwsTca(() => store.send({ jumpButtonTapped: {} }), tca.JSONShapeError, 5, /jumpButtonTapped/);
  throwsTca(() => new Store('counter', { state: { count: 'x' } }), tca.JSONShapeError, 5,
    /at \/count/);
  throwsTca(() => tca.canonicalAction('counter', 'jump'), tca.JSONShapeError, 5, /jump/);
  assert.ok(tca.JSONShapeError.prototype instanceof tca.JSONError);
  assert.equal(store.get('/count'), 0);
  store.close();
});

test('freed store: every call throws InvalidHandleError', () => {
  const store = new Store('counter', { clock: 'manual', record: true, requests: 'queued' });
  store.close();
  const calls = {
    send: () => store.send('incrementButtonTapped'),
    state: () => store.state(),
    stateText: () => store.stateText(),
    get: () => store.get('/count'),
    getText: () => store.getText('/count'),
    version: () => store.version(),
    patch: () => store.patch(0),
    patchText: () => store.patchText(0),
    subscribe: () => store.subscribe(() => {}),
    onRequest: () => store.onRequest(() => {}),
    takeRequests: () => store.takeRequests(),
    respond: () => store.respond(1, 'x'),
    fail: () => store.fail(1, 'x'),
    complete: () => store.complete(1),
    poll: () => store.poll(),
    advance: () => store.advance(1),
    nextDeadline: () => store.nextDeadline(),
    fd: () => store.fd(),
    journal: () => store.journal(),
    logReductions: () => store.logReductions(true),
    takeReductions: () => store.takeReductions(),
  };
  for (const [name, call] of Object.entries(calls)) {
    throwsTca(call, tca.InvalidHandleError, 2,
      /^(tca_store_\w+|Store\.onRequest): the store is closed$/);
    assert.ok(name);
  }
});

test('the statuses of the library, each its class', () => {
  throwsTca(() => new Store('nope'), tca.UnknownFeatureError, 3, /nope/);
  const store = new Store('dice', { clock: 'real', requests: 'queued' });
  throwsTca(() => store.advance(16), tca.RealClockError, 11, /real/);
  throwsTca(() => store.get('/nothing/here'), tca.NotFoundError, 12, /nothing/);
  throwsTca(() => store.get('count'), tca.InvalidArgumentError, 1, /./);
  throwsTca(() => store.patch(99), tca.VersionGoneError, 16, /./);
  throwsTca(() => store.respond(42, 'x'), tca.UnknownRequestError, 7, /42/);
  throwsTca(() => store.journal(), tca.InvalidArgumentError, 1, /record/);
  throwsTca(() => store.logReductions(true), tca.InvalidArgumentError, 1, /record/);
  store.send('rollButtonTapped');
  // NB: the history is shared state the host keeps: shared.load comes first.
  const haptics = store.takeRequests().find((r) => r.name === 'haptics.impact');
  throwsTca(() => store.respond(haptics.id, '{}'), tca.RequestFinishedError, 8, /./);
  store.close();

  const counter = new Store('counter', { clock: 'manual', requests: 'queued' });
  counter.send('numberFactButtonTapped');
  const [fetch] = counter.takeRequests();
  throwsTca(() => counter.respond(fetch.id, 42), tca.JSONShapeError, 5, /expected a string/);
  counter.respond(fetch.id, 'fine');
  throwsTca(() => counter.respond(fetch.id, 'again'), tca.RequestFinishedError, 8, /./);
  counter.close();
});

test('arguments are checked before C, naming the call', () => {
  const store = new Store('counter', { clock: 'manual', requests: 'queued' });
  assert.throws(() => store.advance(-1), { name: 'RangeError', message: /advance: ms/ });
  assert.throws(() => store.advance(1.5), RangeError);
  assert.throws(() => store.advance(2 ** 60), { name: 'RangeError', message: /BigInt/ });
  assert.throws(() => store.advance(1n << 64n), RangeError);
  assert.throws(() => store.advance('1'),
    { name: 'TypeError', message: /advance: ms must be a number/ });
  assert.throws(() => store.respond(1, undefined),
    { name: 'TypeError', message: /respond: value/ });
  assert.throws(() => store.send(undefined), TypeError);
  assert.throws(() => store.send({ big: 1n }),
    { name: 'TypeError', message: /send: action cannot be written as JSON/ });
  assert.throws(() => store.fail(1, 42), { name: 'TypeError', message: /fail: message/ });
  assert.throws(() => store.get(7), { name: 'TypeError', message: /get: pointer/ });
  assert.throws(() => store.subscribe('no'), { name: 'TypeError', message: /subscribe: fn/ });
  assert.throws(() => store.onRequest(1), TypeError);
  assert.throws(() => new Store(5), { name: 'TypeError', message: /feature/ });
  assert.throws(() => new Store('counter', { clock: 'fast' }),
    { name: 'TypeError', message: /clock/ });
  assert.throws(() => new Store('counter', { requests: 'later' }), TypeError);
  assert.throws(() => new Store('counter', { seed: -1 }), RangeError);
  assert.throws(() => Store.replay(42), TypeError);
  assert.equal(store.version(), 0);
  store.close();
});

test('a NUL inside a string goes to the library with its length', () => {
  const store = new Store('counter', { clock: 'manual' });
  const withNul = new TextEncoder().encode('"incrementButtonTapped"\0');
  throwsTca(() => store.send(withNul), tca.JSONSyntaxError, 4, /./);
  throwsTca(() => new Store('counter\0x'), tca.UnknownFeatureError, 3, /./);
  throwsTca(() => store.get('/count\0'), tca.NotFoundError, 12, /./);
  store.close();
});

test('long strings and bytes (past the addon\'s stack buffer)', () => {
  const store = new Store('todos', { clock: 'manual' });
  store.send('addTodoButtonTapped');
  const id = store.get('/todos/0/id');
  const text = 'ü'.repeat(300) + '✓'.repeat(100);
  store.send({ todos: { element: { id, action: { textFieldChanged: text } } } });
  assert.equal(store.get('/todos/0/description'), text);
  const pointer = '/' + 'x'.repeat(500);
  throwsTca(() => store.get(pointer), tca.NotFoundError, 12, /xxxx/);
  store.close();
});

test('an exception thrown by a subscriber comes out of the call that ran it, once', () => {
  const store = new Store('counter', { clock: 'manual' });
  const calls = [];
  store.subscribe(() => {
    calls.push('first');
    throw new Error('subscriber failed');
  });
  store.subscribe((version) => calls.push(store.get('/count') === version ? 'second' : 'odd'));
  assert.throws(() => store.send('incrementButtonTapped'), /subscriber failed/);
  assert.deepEqual(calls, ['first', 'second']); // the others still ran
  assert.equal(store.get('/count'), 1); // the action was sent
  assert.doesNotThrow(() => store.get('/count'));
  store.close();
});

test('a subscriber may send (queued) and close the store', () => {
  const store = new Store('counter', { clock: 'manual' });
  const off = store.subscribe(() => {
    if (store.get('/count') < 3) store.send('incrementButtonTapped');
  });
  store.send('incrementButtonTapped');
  assert.equal(store.get('/count'), 3);
  off();
  store.subscribe(() => store.close());
  store.send('incrementButtonTapped');
  assert.equal(store.closed, true);
  throwsTca(() => store.version(), tca.InvalidHandleError, 2, /./);
});

test('a store handle from elsewhere is refused', () => {
  const { addon } = require('../lib/native');
  assert.throws(() => addon.send({}, '"x"'), { name: 'TypeError', message: /not a store handle/ });
  throwsTca(() => addon.send(12345, '"x"'), tca.InvalidHandleError, 2,
    /tca_store_send_n: the store is closed/);
  throwsTca(() => addon.send(-1, '"x"'), tca.InvalidHandleError, 2, /closed/);
});
