'use strict';

// The benchmark data sets.  Each loads lazily into
//   { name, group, title, docs: [doc, ...], batch }
// where a batch data set times all its docs per operation, the others one doc.

const fs = require('fs');
const path = require('path');
const bson = require('bson');
const generate = require('./generate');

// the seven shapes of the original qbson README
// name: [the README's text of it, the document]
const README = {
    'int': ['{"a":1234}', { a: 1234 }],
    'float': ['{"a":1234.5}', { a: 1234.5 }],
    'array': ['{"a":[1,2,3,4,5]}', { a: [1, 2, 3, 4, 5] }],
    'object': ['{"a":{"a":1,"b":2,"c":3,"d":4,"e":5}}', { a: { a: 1, b: 2, c: 3, d: 4, e: 5 } }],
    'nested-array': ['{"a":[1,[2,[3,[4,[5]]]]]}', { a: [1, [2, [3, [4, [5]]]]] }],
    'nested-object': ['{"a":{"a":{"b":{"c":{"d":{"e":5}}}}}}', { a: { a: { b: { c: { d: { e: 5 } } } } } }],
    'mixed': ['{"a":{"a":"ABC","b":1,"c":"DEFGHI\\xff","d":1234.567,"e":null}}',
        { a: { a: 'ABC', b: 1, c: 'DEFGHI\xff', d: 1234.567, e: null } }],
};

// the MongoDB driver benchmark spec's BSON micro-benchmark documents (canonical Extended JSON)
const SPEC = ['flat_bson', 'deep_bson', 'full_bson'];
const SPEC_DIRS = [path.join(__dirname, 'data')];

const GENERATED = {
    'large': { title: 'one ~1.2 MB document: mixed types, unicode strings (seed 1)',
        make: () => [generate.largeDocument(1)] },
    'batch1000': { title: '1,000 small mixed-type documents per op (seed 2)',
        make: () => generate.smallDocuments(2, 1000), batch: true },
};

const NAMES = Object.keys(README).concat(SPEC, Object.keys(GENERATED));

function loadSpec(name) {
    for (const dir of SPEC_DIRS) {
        const file = path.join(dir, name + '.json');
        if (fs.existsSync(file)) return bson.EJSON.parse(fs.readFileSync(file, 'utf8'), { relaxed: false });
    }
    throw new Error(name + '.json not found in ' + SPEC_DIRS.join(' or '));
}

const cache = {};
function load(name) {
    if (cache[name]) return cache[name];
    let ds;
    if (README[name]) {
        ds = { group: 'readme', title: README[name][0], docs: [README[name][1]] };
    } else if (SPEC.includes(name)) {
        ds = { group: 'spec', title: 'driver benchmark spec ' + name + '.json', docs: [loadSpec(name)] };
    } else if (GENERATED[name]) {
        const gen = GENERATED[name];
        ds = { group: 'generated', title: gen.title, docs: gen.make(), batch: !!gen.batch };
    } else {
        throw new Error('unknown data set ' + name);
    }
    ds.name = name;
    ds.batch = !!ds.batch;
    return (cache[name] = ds);
}

// drop a loaded data set (the memory child frees each once measured)
function forget(name) {
    delete cache[name];
}

module.exports = { NAMES, load, forget };
