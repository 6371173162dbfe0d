'use strict';

// The benchmark data sets.  Each loads lazily into
//   { name, group, title, docs: [doc, ...], batch }
// where a batch data set times all its docs per operation, the others one doc.

const fs = require('fs');
const path = require('path');
const bson = require('bson');
const generate = require('./generate');
const corpus = require('./corpus');

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
    'deepkit_cursor': { title: "@deepkit/bson's own case: a cursor reply, firstBatch of 10,000 {id: i, name: 'Peter', ready: true, priority: 0, tags: ['a', 'b', 'c']}",
        make: () => [generate.cursorReply(undefined, 10000)] },
    'deepkit_item': { title: 'its first item alone', make: () => [generate.cursorItem(null, 0)] },
    'small_doc': { title: 'one small record: an ObjectId, a name, an email, an int, a boolean, a date and two tags',
        make: () => [{ _id: new bson.ObjectId('64b7f0c2a1b2c3d4e5f60718'), name: 'Ada Lovelace', email: 'ada@example.com', age: 36,
            active: true, createdAt: new Date(Date.UTC(2023, 6, 19, 14, 18, 42)), tags: ['admin', 'math'] }] },
    'deepkit_cursor_varied': { title: 'the same reply, its names, tags, booleans and priorities varied (seed 3)',
        make: () => [generate.cursorReply(3, 10000)] },
};

// the shapes applications store (corpus.js), each from its own seed
const CORPUS = {
    'wide_1k_fields': { title: 'one document of 1,000 top-level fields: 12-character random keys, strings and numbers (seed 11)',
        make: () => [corpus.wideDocument(11, 1000)] },
    'wide_10k_fields': { title: 'the same with 10,000 fields (seed 12)', make: () => [corpus.wideDocument(12, 10000)] },
    'wide_100k_fields': { title: 'the same with 100,000 fields (seed 13)', make: () => [corpus.wideDocument(13, 100000)] },
    'geojson_polygons': { title: 'GeoJSON FeatureCollection: 60 Polygons and MultiPolygons of [lon, lat] double pairs, 3-4 array levels (seed 14)',
        make: () => [corpus.featureCollection(14, 60)] },
    'geojson_track': { title: 'GeoJSON LineString of 10,000 [lon, lat] double pairs (seed 15)', make: () => [corpus.track(15, 10000)] },
    'double_array': { title: 'one array of 25,000 doubles (seed 16)', make: () => [corpus.doubleArray(16, 25000)] },
    'int32_array': { title: 'one array of 25,000 int32 of every magnitude (seed 17)', make: () => [corpus.int32Array(17, 25000)] },
    'api_statuses': { title: 'social-media API response: 100 statuses, users of 40 fields, CJK, Hangul, Cyrillic and emoji text (seed 18)',
        make: () => [corpus.apiResponse(18, 100)] },
    'tweet': { title: 'one status of that API, Japanese text, its user cut to 16 fields (seed 19)', make: () => [corpus.tweet(19)] },
    'catalog_by_id': { title: 'event catalog: objects keyed by numeric-string ids, many small arrays and nulls (seed 20)',
        make: () => [corpus.catalog(20, 300, 400)] },
    'log_events': { title: '1,000 log records per op: Dates, ObjectIds, Longs, short strings (seed 21)',
        make: () => corpus.logEvents(21, 1000), batch: true },
    'shape_changes': { title: '1,000 documents per op whose shape changes every time: an ObjectId _id, then 4-12 of 24 fields in any order, of 8 types (seed 24)',
        make: () => corpus.changingShapes(24, 1000), batch: true },
    'two_collections': { title: '1,000 documents per op of two collections read in turn, 100 of each: users and orders, both an ObjectId _id first and 64-127 bytes (seed 25)',
        make: () => corpus.twoCollections(25, 1000, 100), batch: true },
    'id_keyed_maps': { title: '200 documents per op, each with keys of its own: an ObjectId _id, then 20 counters keyed by ids (u and 7 hex digits) (seed 26)',
        make: () => corpus.idKeyedMaps(26, 200, 20), batch: true },
    'sparse_fields': { title: '1,000 user records per op that leave out fields: an ObjectId _id, a name and a date in all, 8 more fields in 5-90% of them, an address whose zip is optional (seed 27)',
        make: () => corpus.sparseFields(27, 1000), batch: true },
    'small_docs_array': { title: 'one document: an array of 5,000 documents of 5 small fields (seed 22)',
        make: () => [corpus.smallDocsArray(22, 5000)] },
    'binary_heavy': { title: 'a stored file: 16 Binary chunks of 16 kB, a thumbnail, 300 records of UUIDs and hashes (seed 23)',
        make: () => [corpus.binaryDocument(23, 16, 16384, 300)] },
};

const NAMES = Object.keys(README).concat(SPEC, Object.keys(GENERATED), Object.keys(CORPUS));

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
    } else if (CORPUS[name]) {
        const gen = CORPUS[name];
        ds = { group: 'corpus', title: gen.title, docs: gen.make(), batch: !!gen.batch };
    } else {
        throw new Error('unknown data set ' + name);
    }
    ds.name = name;
    ds.batch = !!ds.batch;
    ds.json = ds.docs.every(plainJson);
    return (cache[name] = ds);
}

// whether a value holds only what JSON has (so JSON and msgpackr carry the same data as BSON)
function plainJson(v) {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
    if (typeof v === 'number') return isFinite(v);
    if (Array.isArray(v)) return v.every(plainJson);
    if (typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return false;
    return Object.keys(v).every((k) => plainJson(v[k]));
}

// drop a loaded data set (the memory child frees each once measured)
function forget(name) {
    delete cache[name];
}

// measure(name) of each data set named, its documents let go once measured;
// `label` shows which is under way (on stderr)
function measureEach(names, label, measure) {
    return names.map((name) => {
        process.stderr.write(`${label}: ${name}\r`);
        const row = measure(name);
        forget(name);
        return row;
    });
}

module.exports = { NAMES, load, forget, plainJson, measureEach };
