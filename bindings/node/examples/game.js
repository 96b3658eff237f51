'use strict';
// A Node.js game loop over libtca: the dice roller on the store's manual clock at a fixed 60 Hz
// timestep, one frame per turn of the event loop. Each frame takes the store's requests (pull
// mode: the haptics performed by the host), brings its kept view of the state up to date with the
// patch since the last frame (never reading the whole state again), and draws the die as text;
// the roll lands 500 ms after the tap. Then the counter, whose number fact a request handler
// answers from the event loop.
//
//   make test-node runs it; by hand, from anywhere (after make lib node-addon):
//   node bindings/node/examples/game.js
const assert = require('node:assert');
const tca = require('..');

const nextFrame = () => new Promise((resolve) => setImmediate(resolve));

async function dice() {
  const store = new tca.Store('dice', { clock: 'manual', requests: 'queued', seed: 7 });
  let view = store.state(); // the one whole read: every frame after patches it
  let seen = store.version();
  let buzzes = 0;
  let patches = 0;
  let elapsed = 0;
  for (let frame = 0; frame < 45; frame++) {
    if (frame === 5) {
      console.log(`frame ${String(frame).padStart(2)}  tap: roll`);
      store.send('rollButtonTapped');
    }
    // The requests of this frame, at the point of the frame the game chooses.
    for (const request of store.takeRequests()) {
      if (request.name === 'haptics.impact') {
        buzzes++; // a real game buzzes the controller here
        console.log(`        host: ${request.name} ${JSON.stringify(request.payload)}  *bzzt*`);
      }
    }
    // What changed since the last frame, applied to the view.
    const version = store.version();
    if (version !== seen) {
      view = tca.applyPatch(view, store.patch(seen));
      seen = version;
      patches++;
    }
    if (frame % 5 === 0 || frame === 35) {
      const face = view.isRolling ? '~' : view.currentRoll === null ? ' ' : view.currentRoll;
      const time = String(elapsed).padStart(3);
      console.log(`frame ${String(frame).padStart(2)}  t=${time} ms  die [${face}]`);
    }
    // Fixed timestep: frame n is at n * 1000 / 60 ms; the clock moves 16 or 17 ms a frame.
    const next = Math.floor(((frame + 1) * 1000) / 60);
    store.advance(next - elapsed);
    elapsed = next;
    await nextFrame(); // a real game waits for its next frame here
  }
  view = tca.applyPatch(view, store.patch(seen));
  assert.deepStrictEqual(view, store.state(), 'the patched view is the state');
  console.log(`dice: rolled ${view.currentRoll} after 500 ms (${buzzes} buzz), history ` +
    `${JSON.stringify(view.rollHistory)}, ${patches} patches applied`);
  store.close();
}

async function counter() {
  const store = new tca.Store('counter');
  // The host's number facts, answered from the event loop (a real one would ask a service and
  // return its promise).
  store.onRequest((request) => `${request.payload} is the number of this example.`);
  store.send('incrementButtonTapped');
  store.send('incrementButtonTapped');
  store.send('numberFactButtonTapped');
  const state = await store.waitFor((s) => !s.isNumberFactLoading, 5000);
  console.log(`counter: ${state.count} — ${state.numberFact}`);
  store.close();
}

dice()
  .then(counter)
  .catch((error) => {
    console.error(`libtca: ${error.message}${error.status ? ` (status ${error.status})` : ''}`);
    process.exitCode = 1;
  });
