// The Store of the test-only addon (store.c, store.js).
export class Store {
  constructor(
    feature: string,
    options?: { clock?: "real" | "manual"; seed?: number; state?: object | string | null }
  );
  send(action: string | object): void;
  state<S = unknown>(): S;
  advance(ms: number): void;
  close(): void;
}
