'use strict';
// applyPatch(document, patch): an RFC 6902 JSON Patch (what store.patch(since) returns) applied
// to a JSON value, as a new value: `document` is not changed, and what no operation touches is
// shared with it (the containers on each operation's path are copied).

const { InvalidArgumentError } = require('./errors');

function bad(message) {
  return new InvalidArgumentError(1, `applyPatch: ${message}`);
}

/** The tokens of a JSON Pointer (RFC 6901): "" is the whole document. */
function tokens(pointer) {
  if (pointer === '') return [];
  if (typeof pointer !== 'string' || pointer[0] !== '/') {
    throw bad(`the path ${JSON.stringify(pointer)} does not start with /`);
  }
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function index(array, token, end) {
  if (end && token === '-') return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw bad(`${JSON.stringify(token)} is not an index`);
  const i = Number(token);
  if (i > array.length || (i === array.length && !end)) {
    throw bad(`the index ${token} is out of range (length ${array.length})`);
  }
  return i;
}

function shallow(value) {
  if (Array.isArray(value)) return value.slice();
  if (value !== null && typeof value === 'object') return Object.assign({}, value);
  return value;
}

function isContainer(value) {
  return value !== null && typeof value === 'object';
}

function has(object, key) {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** The container holding the last token, each container on the way copied into `root`. */
function parent(root, path) {
  let node = root;
  for (let i = 0; i < path.length - 1; i++) {
    const token = path[i];
    if (Array.isArray(node)) {
      const at = index(node, token, false);
      node = node[at] = shallow(node[at]);
    } else if (isContainer(node) && has(node, token)) {
      node = node[token] = shallow(node[token]);
    } else {
      throw bad(`nothing at ${JSON.stringify(token)}`);
    }
  }
  if (!isContainer(node)) throw bad('the path goes into a scalar');
  return node;
}

function get(root, path) {
  let node = root;
  for (const token of path) {
    if (Array.isArray(node)) node = node[index(node, token, false)];
    else if (isContainer(node) && has(node, token)) node = node[token];
    else throw bad(`nothing at ${JSON.stringify(token)}`);
  }
  return node;
}

function add(root, path, value) {
  if (path.length === 0) return shallow(value);
  const node = parent(root, path);
  const last = path[path.length - 1];
  if (Array.isArray(node)) node.splice(index(node, last, true), 0, value);
  else node[last] = value;
  return root;
}

function remove(root, path) {
  if (path.length === 0) throw bad('cannot remove the whole document');
  const node = parent(root, path);
  const last = path[path.length - 1];
  if (Array.isArray(node)) node.splice(index(node, last, false), 1);
  else if (has(node, last)) delete node[last];
  else throw bad(`nothing at ${JSON.stringify(last)} to remove`);
  return root;
}

function replace(root, path, value) {
  if (path.length === 0) return shallow(value);
  const node = parent(root, path);
  const last = path[path.length - 1];
  if (Array.isArray(node)) node[index(node, last, false)] = value;
  else if (has(node, last)) node[last] = value;
  else throw bad(`nothing at ${JSON.stringify(last)} to replace`);
  return root;
}

function equal(a, b) {
  if (a === b) return true;
  if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => has(b, key) && equal(a[key], b[key]));
}

function copy(value) {
  return isContainer(value) ? JSON.parse(JSON.stringify(value)) : value;
}

/** `document` with the operations of `patch` applied in order, as a new value. */
function applyPatch(document, patch) {
  if (!Array.isArray(patch)) throw bad('a patch is an array of operations');
  let root = shallow(document);
  for (const op of patch) {
    const path = tokens(op.path);
    switch (op.op) {
      case 'add':
        root = add(root, path, op.value);
        break;
      case 'remove':
        root = remove(root, path);
        break;
      case 'replace':
        root = replace(root, path, op.value);
        break;
      case 'move': {
        const from = tokens(op.from);
        const value = get(root, from);
        root = add(remove(root, from), path, value);
        break;
      }
      case 'copy':
        root = add(root, path, copy(get(root, tokens(op.from))));
        break;
      case 'test':
        if (!equal(get(root, path), op.value)) throw bad(`the test at ${op.path} failed`);
        break;
      default:
        throw bad(`unknown operation ${JSON.stringify(op.op)}`);
    }
  }
  return root;
}

module.exports = { applyPatch, equal };
