'use strict';

// The house's layout (docs/design.md, "Layout"): every file of lib/ sits on a
// floor; a file requires files on its own floor or lower ones, lazy requires
// inside functions included, and the requires make no circle. A new file must be
// given its floor here.

const assert = require('assert');
const fs = require('fs');
const path = require('path');

const LIB = path.join(__dirname, '..', 'lib');

const FLOORS = [
    // 0: names and words
    ['constants.js', 'errors.js', 'options.js'],
    // 1: bytes, text and the small tools over them
    ['platform.js', 'brands.js', 'node-modules.js', 'node-modules.browser.js', 'node-bytes.js', 'node-bytes.browser.js', 'bytes.js', 'utf8.js', 'random.js', 'path.js',
        'set-field.js', 'stand-in.js', 'wide-object.js', 'container-stack.js', 'json-text-reading.js', 'json-text-writing.js', 'double-text.js',
        'index-keys.js', 'number-runs.js'],
    // 2: caches and the field stage the engines write through
    ['key-cache.js', 'key-table.js', 'string-batch.js', 'shapes.js', 'ejson-reading.js'],
    // 3: the BSON type classes, each with its Extended JSON form, and the readers of those forms
    ['types/bson-value.js', 'types/long.js', 'types/int32.js', 'types/double.js', 'types/binary.js', 'types/objectid.js',
        'types/decimal128.js', 'types/timestamp.js', 'types/code.js', 'types/dbref.js', 'types/bson-regexp.js',
        'types/bson-symbol.js', 'types/min-max-key.js', 'types/deprecated.js', 'types/index.js', 'types/extended-json.js'],
    // 4: the engines
    ['elements.js', 'shape-reader.js', 'shape-writer.js', 'encode.js', 'decoder.js', 'value-mapping.js', 'size.js', 'ejson.js'],
    // 5: what is built on the engines
    ['decode.js', 'element-walker.js', 'lookup.js', 'projection.js', 'lazy.js', 'stream.js', 'bson-byte-utils.js',
        'bson-number-utils.js', 'on-first-call.js', 'on-first-call/*', 'json-to-bson.js', 'bson-to-json.js',
        'schema/*'],
    // 6: bson's names over all of it, and the command
    ['compat.js', 'bson-namespace.js', 'cli/*'],
];

function libFiles(dir = LIB) {
    const out = [];
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) out.push(...libFiles(file));
        else if (entry.name.endsWith('.js')) out.push(path.relative(LIB, file).split(path.sep).join('/'));
    }
    return out.sort();
}

function floorOf(file) {
    for (let floor = 0; floor < FLOORS.length; floor++) {
        for (const name of FLOORS[floor]) {
            if (name === file || (name.endsWith('/*') && file.startsWith(name.slice(0, -1)))) return floor;
        }
    }
    return -1;
}

// the files of lib/ a file requires, wherever the require stands
function requiresOf(file) {
    const source = fs.readFileSync(path.join(LIB, file), 'utf8');
    const out = new Set();
    for (const m of source.matchAll(/require\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) {
        let target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]));
        if (target.startsWith('..')) continue;
        if (!target.endsWith('.js')) target = fs.existsSync(path.join(LIB, target + '.js')) ? target + '.js' : target + '/index.js';
        out.add(target);
    }
    return [...out];
}

describe('layout of lib/', function () {
    const files = libFiles();

    it('every file has a floor', function () {
        assert.deepStrictEqual(files.filter((f) => floorOf(f) < 0), []);
    });

    it('no file requires a file on a higher floor', function () {
        const upward = [];
        for (const file of files) {
            for (const target of requiresOf(file)) if (floorOf(target) > floorOf(file)) upward.push(`${file} -> ${target}`);
        }
        assert.deepStrictEqual(upward, []);
    });

    it('the import graph has no circle', function () {
        const edges = new Map(files.map((f) => [f, requiresOf(f)]));
        const circles = [];
        const state = new Map();
        const visit = (file, trail) => {
            state.set(file, 'open');
            for (const next of edges.get(file) || []) {
                if (state.get(next) === 'open') circles.push(trail.concat(file, next).slice(trail.indexOf(next) >= 0 ? trail.indexOf(next) : trail.length).join(' -> '));
                else if (!state.has(next)) visit(next, trail.concat(file));
            }
            state.set(file, 'done');
        };
        for (const file of files) if (!state.has(file)) visit(file, []);
        assert.deepStrictEqual(circles, []);
    });
});
