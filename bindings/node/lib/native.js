'use strict';
// The addon (tca.node) and the library it opens (libtca.so.0), each looked for in the places
// docs/node.md lists, first found wins. When one cannot be found or loaded, the error lists
// every place tried, with why each failed, and what to set.

const fs = require('fs');
const path = require('path');

const SONAME = 'libtca.so.0';
const PACKAGE = path.resolve(__dirname, '..');

/** The libtca repository this package sits in (bindings/node), or null (a copy elsewhere). */
function repository() {
  const root = path.resolve(PACKAGE, '..', '..');
  return fs.existsSync(path.join(root, 'include', 'tca.h')) ? root : null;
}

function addonCandidates() {
  if (process.env.TCA_NODE_ADDON) return [[process.env.TCA_NODE_ADDON, '$TCA_NODE_ADDON']];
  const found = [
    [path.join(PACKAGE, 'tca.node'), "the package's folder"],
    [path.join(PACKAGE, 'build', 'tca.node'), "the package's build folder"],
  ];
  const root = repository();
  if (root) {
    const built = path.join(root, 'build', 'node', 'tca.node');
    found.push([built, "this repository's `make node-addon`"]);
  }
  return found;
}

const MULTIARCH = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' }[process.arch];

function libraryCandidates() {
  if (process.env.TCA_LIBRARY) return [[process.env.TCA_LIBRARY, '$TCA_LIBRARY']];
  const found = [[path.join(PACKAGE, SONAME), "the package's folder"]];
  const root = repository();
  if (root) found.push([path.join(root, 'build', 'lib', SONAME), "this repository's `make lib`"]);
  found.push([SONAME, "the dynamic loader: LD_LIBRARY_PATH, ldconfig's cache"]);
  const folders = ['/usr/local/lib', '/usr/local/lib64'];
  if (MULTIARCH) folders.push(`/usr/lib/${MULTIARCH}`);
  folders.push('/usr/lib64', '/usr/lib');
  for (const folder of folders) found.push([path.join(folder, SONAME), 'a standard prefix']);
  return found;
}

function loadAddon() {
  const tried = [];
  for (const [file, origin] of addonCandidates()) {
    if (!fs.existsSync(file)) {
      tried.push(`  ${file} (${origin}): not found`);
      continue;
    }
    try {
      const addon = { exports: {} };
      process.dlopen(addon, file);
      return addon.exports;
    } catch (error) {
      tried.push(`  ${file} (${origin}): ${error.message}`);
    }
  }
  throw new Error(
    'cannot load tca.node, the Node addon of libtca. Tried, in order:\n' + tried.join('\n') +
      '\nTo fix: build it (`make node-addon` in the libtca repository writes' +
      ' build/node/tca.node), or set TCA_NODE_ADDON to the path of tca.node.'
  );
}

/** The file a library name resolved to, as the dynamic loader mapped it. */
function mappedPath(name) {
  if (name.includes('/')) return name;
  try {
    for (const line of fs.readFileSync('/proc/self/maps', 'utf8').split('\n')) {
      const file = line.slice(line.indexOf('/'));
      if (line.includes('/') && path.basename(file).startsWith(SONAME)) return file;
    }
  } catch (_) {
    // no /proc: the name is all we know
  }
  return name;
}

function loadLibrary(addon) {
  const tried = [];
  for (const [name, origin] of libraryCandidates()) {
    if (name.includes('/') && !fs.existsSync(name)) {
      tried.push(`  ${name} (${origin}): not found`);
      continue;
    }
    const why = addon.load(name);
    if (why === null) return mappedPath(name);
    tried.push(`  ${name} (${origin}): ${why}`);
  }
  throw new Error(
    'cannot load libtca. Tried, in order:\n' + tried.join('\n') +
      '\nTo fix: build it (`make lib` in the libtca repository), install it' +
      ' (`make install`, then `ldconfig`), or set TCA_LIBRARY to the path of libtca.so.0.'
  );
}

const addon = loadAddon();
const libraryPath = loadLibrary(addon);

module.exports = { addon, libraryPath };
