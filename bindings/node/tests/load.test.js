'use strict';
// Loading: an addon or a library that cannot be found says every place it looked, why each
// failed, and what to build or set.
const test = require('node:test');
const assert = require('node:assert/strict');
const { runNode } = require('./helpers');

test('no libtca: the places tried, and what to set', () => {
  const env = { ...process.env, TCA_LIBRARY: '/nowhere/libtca.so.0' };
  const result = runNode('', [], env);
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, new RegExp('cannot load libtca\\. Tried, in order:\n' +
    ' {2}/nowhere/libtca\\.so\\.0 \\(\\$TCA_LIBRARY\\): not found\n'));
  assert.match(result.stderr, /set TCA_LIBRARY to the path of libtca\.so\.0/);
});

test('a file that is not libtca: the loader\'s reason', () => {
  const env = { ...process.env, TCA_LIBRARY: __filename };
  const result = runNode('', [], env);
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /load\.test\.js \(\$TCA_LIBRARY\): .*(invalid ELF|too short)/);
});

test('no addon: the places tried, and what to build or set', () => {
  const env = { ...process.env, TCA_NODE_ADDON: '/nowhere/tca.node' };
  const result = runNode('', [], env);
  assert.notEqual(result.status, 0);
  assert.match(result.stderr,
    /cannot load tca\.node, the Node addon of libtca\. Tried, in order:/);
  assert.match(result.stderr, /\/nowhere\/tca\.node \(\$TCA_NODE_ADDON\): not found/);
  assert.match(result.stderr, /`make node-addon`.*or set TCA_NODE_ADDON/);
});

test('found: libraryPath names the file loaded', () => {
  const result = runNode('console.log(tca.libraryPath());');
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /libtca\.so\.0/);
});
