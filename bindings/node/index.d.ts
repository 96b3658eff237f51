// TypeScript declarations of libtca for Node.js (bindings/node; docs/node.md). Checked with
// `tsc --strict --noEmit` against tests/types.ts by `make test-node`. They need no @types/node.

/** A JSON value as JSON.parse gives it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** An integer from 0 to 2**64 - 1: a number up to 2**53 - 1, or a BigInt. */
export type U64 = number | bigint;

/** One operation of an RFC 6902 JSON Patch, as Store.patch returns them. */
export type PatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: Json }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; path: string; from: string };

export type RequestKind = 'oneShot' | 'stream' | 'fireAndForget';

/** A request taken with takeRequests(), or a notice that one was cancelled. */
export type PendingItem =
  | { id: number; name: string; kind: RequestKind; payload: Json; cancelled?: undefined }
  | { cancelled: number };

export interface StoreOptions {
  /** Where to start: an object, JSON text or bytes (a stateText() saved earlier). */
  state?: object | string | Uint8Array | null;
  /** "real" (the default) or "manual": moved only by advance(ms). */
  clock?: 'real' | 'manual';
  /** The random generator's seed; 0 (the default): one from the system. */
  seed?: U64;
  /**
   * "handler" (the default): the loop takes requests and hands them to the onRequest handler
   * (with none, they fail saying so). "queued": they wait for takeRequests().
   */
  requests?: 'handler' | 'queued';
  /** Keep a journal of every input (journal(), Store.replay). */
  record?: boolean;
  /** With record: how many journal lines to keep (0: all; older ones fold into a checkpoint). */
  recordLimit?: number | bigint;
  /** "isolated": the state's shared fields are this store's own (the default: "process"). */
  shared?: 'process' | 'isolated';
}

export interface ReplayOptions {
  requests?: 'handler' | 'queued';
}

/** A host request, as the loop hands it to the onRequest handler. */
export class Request {
  private constructor();
  readonly id: number;
  readonly name: string;
  readonly kind: RequestKind;
  readonly payload: Json;
  /** True once the store cancelled it (or closed): it takes no answer any more. */
  cancelled: boolean;
  readonly store: Store;
  respond(value: unknown): void;
  fail(message: string): void;
  complete(): void;
}

/**
 * What a handler returns: the answer (a stream: one element, then complete), a promise of one,
 * or undefined to answer later (request.respond, store.respond). Throwing (or rejecting) fails
 * the request with the error's message.
 */
export type RequestHandler = (request: Request) => unknown;

export class Store {
  constructor(feature: string, options?: StoreOptions);
  /** A new store rebuilt from a journal up to version `to` (undefined or null: all of it). */
  static replay(journal: string | Uint8Array, to?: U64 | null, options?: ReplayOptions): Store;

  /** A case name ("incrementButtonTapped"), a value for JSON.stringify, or JSON bytes. */
  send(action: string | object | Uint8Array): void;
  state<S = any>(): S;
  stateText(): string;
  get<T = any>(pointer?: string): T;
  getText(pointer?: string): string;
  version(): number;
  patch(since: U64): PatchOperation[];
  patchText(since: U64): string;

  /** Returns the function that unsubscribes. */
  subscribe(fn: (version: number) => void): () => void;
  subscribe<S = any>(
    fn: (version: number, state: S) => void,
    options: { state: true }
  ): () => void;

  onRequest(handler: RequestHandler | null, onCancel?: ((id: number) => void) | null): void;
  takeRequests(): PendingItem[];
  respond(id: U64, value: unknown): void;
  fail(id: U64, message: string): void;
  complete(id: U64): void;

  poll(): number;
  advance(ms: U64): void;
  nextDeadline(): number | null;
  fd(): number;

  journal(): string;
  logReductions(enabled: boolean): void;
  takeReductions(): { origin: 'host' | 'effect'; action: Json; state: Json }[];

  waitFor<S = any>(predicate: (state: S) => boolean, timeoutMs?: number): Promise<S>;
  readonly closed: boolean;
  close(): void;
}

export interface Feature {
  name: string;
  description: string;
  requests: string[];
  initialState: Json;
}

export function features(): Feature[];
/** The schema of a feature (docs/schema.md): JSON Schema 2020-12 of its state, actions and
 *  requests, named types in `$defs`. */
export function schema(feature: string): {
  feature: string;
  state: object;
  action: object;
  requests: { [name: string]: { kind?: string; payload: unknown; response?: unknown } };
  $defs: { [name: string]: object };
};
export function libraryVersion(): string;
export function libraryPath(): string;
export function canonicalAction(feature: string, action: string | object | Uint8Array): string;
export function statusString(status: number): string;
export function replay(
  journal: string | Uint8Array,
  to?: U64 | null,
  options?: ReplayOptions
): Store;
export function applyPatch<T = any>(document: T, patch: PatchOperation[]): T;

/** Every failure of libtca: `status` is tca.h's code, `code` its name, `message` the library's. */
export class TcaError extends Error {
  constructor(status: number, message: string);
  readonly status: number;
  readonly code: string;
}
export class InvalidArgumentError extends TcaError {}
export class InvalidHandleError extends TcaError {}
export class UnknownFeatureError extends TcaError {}
export class JSONError extends TcaError {}
export class JSONSyntaxError extends JSONError {}
export class JSONShapeError extends JSONError {}
export class UnencodableError extends JSONError {}
export class RequestError extends TcaError {}
export class UnknownRequestError extends RequestError {}
export class RequestFinishedError extends RequestError {}
export class AlreadyAnsweredError extends RequestError {}
export class NotAStreamError extends RequestError {}
export class RealClockError extends TcaError {}
export class NotFoundError extends TcaError {}
export class SystemCallError extends TcaError {}
export class NoMemoryError extends TcaError {}
export class CallbackUnwoundError extends TcaError {}
export class VersionGoneError extends TcaError {}
