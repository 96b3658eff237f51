'use strict';
// libtca for Node.js: require('tca') (this folder). docs/node.md.

const { addon: native, libraryPath } = require('./lib/native');
const errors = require('./lib/errors');
const { Store, Request } = require('./lib/store');
const { applyPatch } = require('./lib/patch');
const args = require('./lib/args');

/** The features compiled into the library: [{ name, description, requests, initialState }]. */
function features() {
  return JSON.parse(native.features());
}

/** The schema of `feature` (docs/schema.md): JSON Schema of its state, actions and requests. */
function schema(feature) {
  args.string(feature, 'schema: feature');
  return JSON.parse(native.schema(feature));
}

/** The library's version, "MAJOR.MINOR.PATCH". */
function libraryVersion() {
  return native.libraryVersion();
}

/** The canonical JSON text of an action of `feature` (two actions are the same exactly when
 *  their canonical texts are equal). The action is taken as store.send takes it. */
function canonicalAction(feature, action) {
  args.string(feature, 'canonicalAction: feature');
  const text = typeof action === 'string'
    ? JSON.stringify(action)
    : args.json(action, 'canonicalAction: action');
  return native.canonicalAction(feature, text);
}

/** A short English description of a status code ("invalid store handle"). */
function statusString(status) {
  if (!Number.isInteger(status)) throw new TypeError('statusString: status must be an integer');
  return native.statusString(status);
}

/** Store.replay(journal, to, options). */
function replay(journal, to, options) {
  return Store.replay(journal, to, options);
}

module.exports = {
  Store,
  Request,
  features,
  schema,
  libraryVersion,
  libraryPath: () => libraryPath,
  canonicalAction,
  statusString,
  replay,
  applyPatch,
  ...errors,
};
delete module.exports.makeError;
