'use strict';
// The event loop drives the stores: real-clock timers fire and requests reach their handler with
// no polling by the program; a store with nothing to do lets the process exit; a closed store
// stops its watchers.
const test = require('node:test');
const assert = require('node:assert/strict');
const tca = require('..');
const { PACKAGE, runNode } = require('./helpers');
const { Store } = tca;

test('a real-clock timer fires from the loop: no poll by the program', async () => {
  const store = new Store('dice', { seed: 7 });
  const buzzes = [];
  store.onRequest((request) => {
    // NB: the history is shared state the host keeps (shared.load, shared.save).
    if (request.name === 'haptics.impact') buzzes.push(request.payload);
  });
  store.send('rollButtonTapped');
  assert.equal(store.get('/isRolling'), true);
  const state = await store.waitFor((s) => !s.isRolling, 10000);
  assert.equal(state.currentRoll, 5);
  assert.deepEqual(buzzes, [{ style: 'medium' }]);
  store.close();
});

const FAILED = 'Could not load a number fact: ';

test('handlers: a value, a promise, a rejection, a throw, none at all', async () => {
  const cases = [
    [(r) => `${r.payload} is a value.`, { numberFact: '0 is a value.' }],
    [async (r) => `${r.payload} is a promise.`, { numberFact: '0 is a promise.' }],
    [() => Promise.reject(new Error('offline')), { numberFactError: `${FAILED}offline` }],
    [() => { throw new Error('thrown'); }, { numberFactError: `${FAILED}thrown` }],
    [null, {
      numberFactError: `${FAILED}no handler for the request 'numberFact.fetch': ` +
        'set one with store.onRequest(fn)',
    }],
  ];
  for (const [handler, expected] of cases) {
    const store = new Store('counter');
    store.onRequest(handler);
    store.send('numberFactButtonTapped');
    const state = await store.waitFor((s) => !s.isNumberFactLoading, 10000);
    for (const [key, value] of Object.entries(expected)) assert.equal(state[key], value);
    store.close();
  }
});

test('an answer given later by id, from any callback of the loop', async () => {
  const store = new Store('counter');
  const taken = [];
  store.onRequest((request) => {
    taken.push(request);
  });
  store.send('numberFactButtonTapped');
  await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(taken.length, 1);
  setTimeout(() => store.respond(taken[0].id, 'later'), 5);
  const state = await store.waitFor((s) => !s.isNumberFactLoading, 10000);
  assert.equal(state.numberFact, 'later');
  store.close();
});

test('cancellation reaches onCancel; a late answer to it is dropped', async () => {
  const store = new Store('counter');
  const requests = [];
  const cancelled = [];
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  store.onRequest(
    (request) => {
      requests.push(request);
      return gate.then(() => `${request.id} answered`);
    },
    (id) => cancelled.push(id)
  );
  store.send('numberFactButtonTapped');
  await new Promise((resolve) => setTimeout(resolve, 20));
  store.send('numberFactButtonTapped'); // cancels request 1
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(cancelled, [1]);
  assert.equal(requests[0].cancelled, true);
  assert.equal(requests[1].cancelled, false);
  release();
  const state = await store.waitFor((s) => !s.isNumberFactLoading, 10000);
  assert.equal(state.numberFact, '2 answered');
  store.close();
});

test('close cancels the requests handed to the handler', () => {
  const store = new Store('counter', { clock: 'manual' });
  const cancelled = [];
  let kept = null;
  store.onRequest((request) => {
    kept = request;
  }, (id) => cancelled.push(id));
  store.send('numberFactButtonTapped');
  return new Promise((resolve) => setTimeout(resolve, 20)).then(() => {
    assert.equal(kept.id, 1);
    store.close();
    assert.deepEqual(cancelled, [1]);
    assert.equal(kept.cancelled, true);
  });
});

test('queued: requests wait for takeRequests while the loop still runs the timers', async () => {
  const store = new Store('dice', { seed: 7, requests: 'queued' });
  store.send('rollButtonTapped');
  const cpu = process.cpuUsage();
  const state = await store.waitFor((s) => !s.isRolling, 10000);
  const used = process.cpuUsage(cpu);
  assert.equal(state.currentRoll, 5);
  // NB: a loop woken again and again by the waiting request would spend the 500 ms spinning.
  assert.ok(used.user + used.system < 250000, `the loop spun: ${JSON.stringify(used)}`);
  // NB: the history is shared state the host keeps: loaded at the first turn, saved after it.
  assert.deepEqual(
    store.takeRequests().map((r) => r.name), ['shared.load', 'haptics.impact', 'shared.save']);
  store.close();
});

test('queued: a handler set later takes the requests waiting', async () => {
  const store = new Store('counter', { requests: 'queued' });
  store.send('numberFactButtonTapped');
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(store.get('/isNumberFactLoading'), true); // nobody took it
  store.onRequest((request) => `${request.payload} at last.`);
  const state = await store.waitFor((s) => !s.isNumberFactLoading, 10000);
  assert.equal(state.numberFact, '0 at last.');
  store.close();
});

test('a replayed store hands its unanswered requests to the handler', async () => {
  const recorded = new Store('counter', { clock: 'manual', record: true, requests: 'queued' });
  recorded.send('numberFactButtonTapped');
  const replayed = Store.replay(recorded.journal());
  recorded.close();
  replayed.onRequest((request) => `${request.payload} replayed.`);
  const state = await replayed.waitFor((s) => !s.isNumberFactLoading, 10000);
  assert.equal(state.numberFact, '0 replayed.');
  replayed.close();
});

test('a journal with a recordLimit keeps its newest lines and replays', () => {
  const store = new Store('counter', {
    clock: 'manual', record: true, recordLimit: 10, requests: 'queued',
  });
  for (let i = 0; i < 100; i++) {
    store.send('incrementButtonTapped');
    assert.ok(store.version() > 0);
  }
  const lines = store.journal().trimEnd().split('\n');
  assert.ok(lines.length <= 12, `${lines.length} lines`);
  assert.ok(lines[1].startsWith('{"checkpoint":'));
  const replayed = Store.replay(store.journal());
  assert.equal(replayed.state().count, 100);
  replayed.close();
  store.close();
});

test('the process exits when its stores have nothing to do, even unclosed', () => {
  const result = runNode(`
    const store = new tca.Store('counter');
    store.onRequest(() => 'x');
    store.send('incrementButtonTapped');
    console.log('count', store.get('/count'));`);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, 'count 1\n');
});

test('a pending real-clock timer keeps the process alive until it fires; requests too', () => {
  const result = runNode(`
    const dice = new tca.Store('dice', { seed: 7 });
    dice.subscribe((v, s) => {
      if (!s.isRolling) console.log('rolled', s.currentRoll);
    }, { state: true });
    dice.send('rollButtonTapped');
    const counter = new tca.Store('counter', { clock: 'manual' });
    counter.onRequest((r) => 'fact ' + r.payload);
    counter.subscribe((v, s) => { if (s.numberFact) console.log(s.numberFact); }, { state: true });
    counter.send('numberFactButtonTapped');`);
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(result.stdout.trim().split('\n').sort(), ['fact 0', 'rolled 5']);
});

test('a closed store stops its watchers: the timer never fires, the process exits', () => {
  const result = runNode(`
    const dice = new tca.Store('dice', { seed: 7 });
    dice.subscribe((v, s) => console.log('changed', s.isRolling), { state: true });
    dice.send('rollButtonTapped');
    dice.close();
    console.log('closed');`);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, 'changed true\nclosed\n');
});

test('errors thrown in the loop are the process\'s uncaught exceptions', () => {
  const subscriber = runNode(`
    const dice = new tca.Store('dice', { seed: 7 });
    dice.subscribe((v, s) => {
      if (!s.isRolling) throw new Error('subscriber broke at ' + s.currentRoll);
    }, { state: true });
    dice.send('rollButtonTapped');`);
  assert.notEqual(subscriber.status, 0);
  assert.match(subscriber.stderr, /subscriber broke at 5/);

  const refused = runNode(`
    const counter = new tca.Store('counter');
    counter.onRequest(() => 42);
    process.on('exit', () => console.log(JSON.stringify(counter.state())));
    counter.send('numberFactButtonTapped');`);
  assert.notEqual(refused.status, 0);
  assert.match(refused.stderr, new RegExp("JSONShapeError: the handler of 'numberFact.fetch' " +
    'returned an answer the library refused: .*expected a string'));
  // The request failed too: the feature is not left waiting.
  assert.match(refused.stdout, /"isNumberFactLoading":false/);
});

test('a store dropped without close is released when collected', () => {
  const result = runNode(`
    const fs = require('fs');
    const open = () => fs.readdirSync('/proc/self/fd').length;
    const before = open();
    (() => { for (let i = 0; i < 20; i++) new tca.Store('dice').subscribe(() => {}); })();
    const made = open() - before;
    const report = () => console.log(made > 0, open() - before);
    setImmediate(() => { gc(); setTimeout(() => { gc(); setImmediate(report); }, 10); });`,
  ['--expose-gc']);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, 'true 0\n');
});

test('a worker thread has stores of its own, closed when it ends', () => {
  const result = runNode(`
    const { Worker } = require('node:worker_threads');
    const worker = new Worker(\`
      const tca = require(\${JSON.stringify(require.resolve(${JSON.stringify(PACKAGE)}))});
      const { parentPort } = require('node:worker_threads');
      const dice = new tca.Store('dice', { seed: 7 });
      new tca.Store('counter').subscribe(() => {}); // left open
      dice.send('rollButtonTapped');
      dice.waitFor((s) => !s.isRolling).then((s) => parentPort.postMessage(s.currentRoll));
    \`, { eval: true });
    worker.on('message', (roll) => console.log('worker rolled', roll));
    worker.on('exit', (code) => console.log('worker exited', code));`);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, 'worker rolled 5\nworker exited 0\n');
});
