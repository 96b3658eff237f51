// Typed use of the binding, checked by `tsc --strict --noEmit` (make test-node); never run.
import * as tca from '..';
import { Store, PatchOperation, TcaError, applyPatch } from '..';

interface Counter {
  count: number;
  isNumberFactLoading: boolean;
  numberFact?: string;
}

const store = new Store('counter', {
  clock: 'manual',
  seed: 7n,
  requests: 'handler',
  record: true,
});
store.send('incrementButtonTapped');
store.send({ incrementButtonTapped: {} });
store.send(new Uint8Array([0x7b, 0x7d]));
const state: Counter = store.state<Counter>();
const count: number = store.get<number>('/count');
const text: string = store.getText('/count') + store.stateText() + store.patchText(0);
const version: number = store.version();
const ops: PatchOperation[] = store.patch(version - 1);
let kept: Counter = applyPatch(state, ops);
const unsubscribe: () => void = store.subscribe((v: number) => {
  kept = applyPatch(kept, store.patch(v - 1));
});
const unsubscribeState = store.subscribe<Counter>((_v, s) => s.count, { state: true });
unsubscribe();
unsubscribeState();

store.onRequest(
  async (request) => {
    if (request.name === 'numberFact.fetch') return `${String(request.payload)} is a number.`;
    request.fail('unknown request');
    return undefined;
  },
  (id: number) => void id
);
for (const item of store.takeRequests()) {
  if (item.cancelled !== undefined) continue;
  store.respond(item.id, `${item.name} ${item.kind}`);
  store.fail(item.id, 'no');
  store.complete(BigInt(item.id));
}
const ran: number = store.poll();
store.advance(16);
const deadline: number | null = store.nextDeadline();
const fd: number = store.fd();
const journal: string = store.journal();
const earlier: Store = Store.replay(journal, 0, { requests: 'queued' });
const again: Store = tca.replay(journal);
store.logReductions(true);
for (const r of store.takeReductions()) if (r.origin === 'host') void r.action;
void store.waitFor<Counter>((s) => s.count > 2, 1000).then((s) => s.numberFact);
const closed: boolean = store.closed;
store.close();

try {
  new Store('nope');
} catch (error) {
  if (error instanceof tca.UnknownFeatureError) void error.status;
  if (error instanceof TcaError) void (error.code + error.message);
}
const names: string[] = tca.features().map((f) => f.name);
const all: string = tca.libraryVersion() + tca.libraryPath() + tca.statusString(2) +
  tca.canonicalAction('counter', 'incrementButtonTapped');
void [count, text, ran, deadline, fd, earlier, again, closed, names, all];

// Misuses the declarations must refuse.
// @ts-expect-error: a clock is "real" or "manual"
new Store('counter', { clock: 'fast' });
// @ts-expect-error: an action is a name, an object or bytes
store.send(5);
// @ts-expect-error: patch takes a version
store.patch('0');
// @ts-expect-error: a subscriber with the state needs { state: true }
store.subscribe((_v: number, _s: Counter) => undefined);
