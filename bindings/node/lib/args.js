'use strict';
// Arguments checked before they reach C, where a number would be cut to an integer and a wrong
// type would be the addon's TypeError: each message names the call and the argument.

const UINT64_MAX = (1n << 64n) - 1n;

/** An integer from 0 to 2**64 - 1: a number (at most 2**53 - 1) or a BigInt. */
function u64(value, what) {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value >= 0) return value;
    if (Number.isInteger(value) && value > 0) {
      throw new RangeError(`${what} must be a BigInt above 2**53 - 1, not the number ${value}`);
    }
    throw new RangeError(`${what} must be an integer from 0 to 2**64 - 1, not ${value}`);
  }
  if (typeof value === 'bigint') {
    if (value >= 0n && value <= UINT64_MAX) return value;
    throw new RangeError(`${what} must be from 0 to 2**64 - 1, not ${value}`);
  }
  throw new TypeError(`${what} must be a number or a BigInt, not ${describe(value)}`);
}

function string(value, what) {
  if (typeof value === 'string') return value;
  throw new TypeError(`${what} must be a string, not ${describe(value)}`);
}

function fn(value, what) {
  if (typeof value === 'function') return value;
  throw new TypeError(`${what} must be a function, not ${describe(value)}`);
}

function oneOf(value, choices, what) {
  if (choices.includes(value)) return value;
  const names = choices.map((c) => JSON.stringify(c)).join(' or ');
  throw new TypeError(`${what} must be ${names}, not ${describe(value)}`);
}

function describe(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 20 ? value.slice(0, 20) + '…' : value);
  }
  if (typeof value === 'object') {
    return `an object (${value.constructor ? value.constructor.name : 'null prototype'})`;
  }
  return `${typeof value} ${String(value)}`;
}

/** JSON text for the library: Uint8Array bytes as they are, any other value JSON.stringify'd. */
function json(value, what) {
  if (value instanceof Uint8Array) return value;
  let text;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`${what} cannot be written as JSON: ${error.message}`);
  }
  if (text === undefined) {
    throw new TypeError(`${what} cannot be written as JSON: ${describe(value)}`);
  }
  return text;
}

module.exports = { u64, string, fn, oneOf, json, UINT64_MAX };
