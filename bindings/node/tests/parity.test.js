'use strict';
// The parity test: every function the binding wraps, called once at least, with the C function
// each reaches (docs/node.md, "What each C function is in Node"). make test-node also runs this
// file under valgrind.
const test = require('node:test');
const assert = require('node:assert/strict');
const tca = require('..');
const { Store } = tca;

test('library: tca_version, tca_features, tca_status_str, tca_canonical_action_n', () => {
  assert.match(tca.libraryVersion(), /^\d+\.\d+\.\d+$/);
  assert.match(tca.libraryPath(), /libtca\.so/);
  const features = tca.features();
  const names = features.map((f) => f.name).sort();
  assert.deepEqual(names, ['counter', 'dice', 'matchscores', 'todos']);
  const counter = features.find((f) => f.name === 'counter');
  assert.deepEqual(counter.requests, ['numberFact.fetch', 'numberFact.save']);
  assert.equal(counter.initialState.count, 0);
  assert.equal(tca.statusString(2), 'invalid store handle');
  const canonical = '{"incrementButtonTapped":{}}';
  assert.equal(tca.canonicalAction('counter', 'incrementButtonTapped'), canonical);
  assert.equal(tca.canonicalAction('counter', { incrementButtonTapped: {} }), canonical);
  assert.equal(
    tca.canonicalAction('counter', new TextEncoder().encode('"decrementButtonTapped"')),
    '{"decrementButtonTapped":{}}'
  );
  // tca_feature_schema_n
  const schema = tca.schema('counter');
  assert.equal(schema.feature, 'counter');
  assert.equal(schema.requests['numberFact.fetch'].kind, 'oneShot');
  assert.ok(schema.$defs && schema.state && schema.action);
  assert.throws(() => tca.schema('nope'), (error) => error.status === 3 && /counter/.test(error.message));
});

test('store: tca_store_new_v2, send_n, state, state_borrow, get_n, version, free', () => {
  const store = new Store('counter', { clock: 'manual', seed: 3 });
  assert.equal(store.version(), 0);
  store.send('incrementButtonTapped');
  store.send({ incrementButtonTapped: {} });
  store.send(new TextEncoder().encode('{"decrementButtonTapped":{}}'));
  const version = store.version();
  assert.ok(version > 0);
  assert.equal(store.version(), version); // unchanged state, same version
  assert.deepEqual(store.state(), { count: 1, isNumberFactLoading: false });
  assert.equal(store.stateText(), '{"count":1,"isNumberFactLoading":false}');
  assert.equal(store.get('/count'), 1);
  assert.deepEqual(store.get(), store.state());
  assert.equal(store.getText('/isNumberFactLoading'), 'false');
  assert.equal(store.closed, false);
  store.close();
  assert.equal(store.closed, true);
  store.close(); // twice: nothing
});

test('store: a state to start from, as an object, JSON text or bytes', () => {
  for (const state of [{ count: 41 }, '{"count":41}', new TextEncoder().encode('{"count":41}')]) {
    const store = new Store('counter', { state });
    store.send('incrementButtonTapped');
    assert.equal(store.get('/count'), 42);
    store.close();
  }
  const saved = new Store('counter', { state: { count: 9 } });
  const restored = new Store('counter', { state: saved.stateText() });
  saved.close();
  assert.equal(restored.get('/count'), 9);
  restored.close();
});

test('patches: tca_store_patch, applied to a kept state, equal the new state', () => {
  const store = new Store('todos', { clock: 'manual', seed: 1 });
  let kept = store.state();
  let seen = store.version();
  const step = (action) => {
    store.send(action);
    kept = tca.applyPatch(kept, store.patch(seen));
    seen = store.version();
    assert.deepEqual(kept, store.state());
  };
  step('addTodoButtonTapped');
  step('addTodoButtonTapped');
  step('addTodoButtonTapped');
  const [first, second] = store.get('/todos').map((todo) => todo.id);
  step({ todos: { element: { id: first, action: { textFieldChanged: 'Milk' } } } });
  step({ todos: { element: { id: second, action: 'checkBoxToggled' } } });
  store.advance(1000); // the completed todo sinks: a move
  kept = tca.applyPatch(kept, store.patch(seen));
  seen = store.version();
  assert.deepEqual(kept, store.state());
  step({ move: { from: [0], to: 3 } });
  store.advance(100);
  kept = tca.applyPatch(kept, store.patch(seen));
  seen = store.version();
  assert.deepEqual(kept, store.state());
  step({ delete: [1] });
  assert.deepEqual(store.patch(seen), []);
  assert.equal(store.patchText(seen), '[]');
  assert.throws(() => store.patch(seen + 1), tca.VersionGoneError);
  store.close();
});

test('subscriptions: tca_store_subscribe, subscribe_state, unsubscribe', () => {
  const store = new Store('counter', { clock: 'manual' });
  const versions = [];
  const states = [];
  const off = store.subscribe((version) => versions.push(version));
  const offState = store.subscribe((version, state) => states.push([version, state.count]),
    { state: true });
  store.send('incrementButtonTapped');
  store.send('incrementButtonTapped');
  off();
  off(); // twice: nothing
  store.send('incrementButtonTapped');
  offState();
  store.send('incrementButtonTapped');
  assert.deepEqual(versions, [1, 2]);
  assert.deepEqual(states, [[1, 1], [2, 2], [3, 3]]);
  store.close();
});

test('pull mode: tca_store_take_requests, respond_n, fail_n, complete', () => {
  const store = new Store('counter', { clock: 'manual', requests: 'queued' });
  assert.deepEqual(store.takeRequests(), []);
  store.send('incrementButtonTapped');
  store.send('numberFactButtonTapped');
  const [request] = store.takeRequests();
  assert.deepEqual(request, { id: 1, name: 'numberFact.fetch', kind: 'oneShot', payload: 1 });
  assert.throws(() => store.complete(request.id), tca.NotAStreamError);
  store.respond(request.id, '1 is the loneliest number.');
  assert.equal(store.get('/numberFact'), '1 is the loneliest number.');
  store.send('numberFactButtonTapped');
  const [second] = store.takeRequests();
  store.fail(second.id, 'offline');
  assert.equal(store.get('/numberFactError'), 'Could not load a number fact: offline');
  // A second tap cancels the fetch in flight: the notice comes with the new request.
  store.send('numberFactButtonTapped');
  store.send('numberFactButtonTapped');
  const items = store.takeRequests();
  assert.deepEqual(items.map((i) => i.cancelled ?? i.id), [3, 3, 4]);
  store.respond(4, new TextEncoder().encode('"4 is the answer, in bytes."'));
  assert.equal(store.get('/numberFact'), '4 is the answer, in bytes.');
  store.close();
});

test('shared: an isolated store shares nothing (tca_options.shared)', () => {
  const fixture = require('path').join(
    __dirname, '..', '..', '..', 'Tests', 'fixtures', 'matchscores', 'teams_page1.json');
  const teams = JSON.parse(require('fs').readFileSync(fixture, 'utf8'));
  const withTeams = (options) => {
    const store = new Store('matchscores', { clock: 'manual', requests: 'queued', ...options });
    store.send({ teamList: 'onAppear' });
    for (const request of store.takeRequests()) {
      if (request.name === 'matchScores.fetchTeams') store.respond(request.id, teams);
    }
    return store;
  };
  const [a, b, isolated] = [withTeams({}), withTeams({}), withTeams({ shared: 'isolated' })];
  a.send({ favoriteButtonTapped: 2 });
  b.poll();
  isolated.poll();
  assert.equal(b.get('/favorites/teams/0/id'), 2);
  assert.deepEqual(isolated.get('/favorites/teams'), []);
  assert.throws(() => new Store('counter', { shared: 'private' }), /shared/);
  for (const store of [a, b, isolated]) store.close();
});

test('time: tca_store_advance, poll, next_deadline_ms, fd', () => {
  const store = new Store('dice', { clock: 'manual', seed: 7, requests: 'queued' });
  assert.equal(store.nextDeadline(), null);
  assert.equal(typeof store.fd(), 'number');
  assert.ok(store.fd() >= 0);
  store.send('rollButtonTapped');
  assert.equal(store.nextDeadline(), 500);
  // NB: the history is shared state the host keeps: shared.load at the first turn.
  assert.deepEqual(store.takeRequests().map((r) => r.name), ['shared.load', 'haptics.impact']);
  store.advance(499);
  assert.equal(store.get('/isRolling'), true);
  assert.equal(store.poll(), 0); // a manual clock moves only with advance
  store.advance(1);
  assert.equal(store.get('/currentRoll'), 5);
  assert.equal(store.nextDeadline(), null);
  store.close();
});

test('journal: tca_store_journal, replay (static and module), reductions log', () => {
  const store = new Store('counter', { clock: 'manual', record: true, requests: 'queued' });
  store.logReductions(true);
  store.send('incrementButtonTapped');
  store.send('numberFactButtonTapped');
  store.respond(store.takeRequests()[0].id, '1 is a number.');
  const reductions = store.takeReductions();
  assert.deepEqual(reductions.map((r) => r.origin), ['host', 'host', 'effect']);
  assert.deepEqual(reductions[2].action, { numberFactResponse: { _0: '1 is a number.' } });
  assert.deepEqual(store.takeReductions(), []);
  store.logReductions(false);

  const journal = store.journal();
  const lines = journal.trimEnd().split('\n').map((line) => JSON.parse(line));
  assert.equal(lines[0].tcaJournal, 1);
  assert.equal(lines[0].feature, 'counter');
  for (let version = 0; version <= store.version(); version++) {
    const earlier = Store.replay(journal, version);
    assert.equal(earlier.version(), version);
    earlier.close();
  }
  const whole = tca.replay(journal);
  assert.equal(whole.stateText(), store.stateText());
  const bytes = Store.replay(new TextEncoder().encode(journal), BigInt(store.version()),
    { requests: 'queued' });
  assert.equal(bytes.stateText(), store.stateText());
  assert.equal(bytes.journal(), journal);
  whole.close();
  bytes.close();
  store.close();
});

test('requests through the loop: onRequest, Request.respond, waitFor', async () => {
  const store = new Store('counter');
  const seen = [];
  store.onRequest((request) => {
    seen.push([request.id, request.name, request.kind, request.payload]);
    setImmediate(() => request.respond(`${request.payload} is a fine number.`));
  });
  store.send('incrementButtonTapped');
  store.send('numberFactButtonTapped');
  const state = await store.waitFor((s) => !s.isNumberFactLoading, 5000);
  assert.equal(state.numberFact, '1 is a fine number.');
  assert.deepEqual(seen, [[1, 'numberFact.fetch', 'oneShot', 1]]);

  let kept = null;
  store.onRequest((request) => {
    kept = request;
  });
  store.send('numberFactButtonTapped');
  for (let turns = 0; kept === null && turns < 1000; turns++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(kept.id, 2);
  assert.throws(() => kept.complete(), tca.NotAStreamError);
  kept.fail('offline');
  assert.equal(store.get('/numberFactError'), 'Could not load a number fact: offline');
  store.onRequest(null);
  store.close();
});
