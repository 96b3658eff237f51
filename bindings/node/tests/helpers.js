'use strict';
// What the tests share: a node process of its own for what must be seen from outside (exiting,
// uncaught errors, loading).
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const PACKAGE = path.resolve(__dirname, '..');

/** Runs a script in a new node process (the package as `tca`); its status, stdout and stderr. */
function runNode(script, flags = [], env = process.env) {
  const source = `const tca = require(${JSON.stringify(PACKAGE)});\n${script}`;
  const result = spawnSync(process.execPath, [...flags, '-e', source], {
    encoding: 'utf8',
    timeout: 30000,
    env,
  });
  assert.equal(result.error, undefined, `the child did not finish: ${result.error}`);
  return result;
}

module.exports = { PACKAGE, runNode };
