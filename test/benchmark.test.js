'use strict';

// The benchmark harness: runs `benchmark/run.js --smoke` and checks that it runs and that
// every library's verification verdict is as expected.  Speeds are not checked.

const assert = require('assert');
const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const bson = require('bson');
const verify = require('../benchmark/verify');
const datasets = require('../benchmark/datasets');
const corpus = require('../benchmark/corpus');
const mixed = require('../benchmark/mixed');
const report = require('../benchmark/report');
const instructions = require('../benchmark/instructions');
const fastPaths = require('../benchmark/fast-paths');
const { applyFilter, parseArgs } = require('../benchmark/run');

const RUN = path.join(__dirname, '..', 'benchmark', 'run.js');
const LIBRARIES = ['qbson', 'bson', 'bson-ext', 'buffalo', 'deepkit-generic', 'deepkit-jit', 'msgpackr', 'JSON', 'JSON-bytes'];

// verdicts other than 'ok': library -> data set -> { encode, decode }
const EXPECTED_NOT_OK = {
    // buffalo has no MinKey/MaxKey (full_bson does not encode, and decodes them as null),
    // and decodes every int64 to its own Long where bson gives a number
    buffalo: {
        full_bson: { encode: 'n/a', decode: 'differs' },
        large: { decode: 'differs' },
        batch1000: { decode: 'differs' },
        log_events: { decode: 'differs' },
    },
    // deepkit throws on MinKey/MaxKey (and Code, Decimal128...) and writes them as sub-documents;
    // its Binary is subtype 0 or a UUID only
    'deepkit-generic': {
        full_bson: { encode: 'differs', decode: 'n/a' },
        binary_heavy: { encode: 'differs', decode: 'differs' },
    },
    // its typed JIT also writes a type's keys in the order the type declares them, and reads a
    // field declared a Date (the type that holds every document) as one where a document has a number
    'deepkit-jit': {
        full_bson: { encode: 'differs', decode: 'n/a' },
        shape_changes: { encode: 'differs', decode: 'differs' },
        // a record holding both prefs and deletedAt: the type declares deletedAt first
        sparse_fields: { encode: 'differs' },
        binary_heavy: { encode: 'differs', decode: 'differs' },
    },
};

describe('benchmark', function () {
    it('names the bson it measures, not the bson@4 that bson-ext brings into benchmark/native', function () {
        const { packageVersion } = require('../benchmark/libraries');
        const root = path.join(__dirname, '..', 'node_modules', 'bson', 'package.json');
        assert.strictEqual(packageVersion('bson'), JSON.parse(fs.readFileSync(root, 'utf8')).version);
    });

    describe('fast-paths.js', function () {
        // each edit still applies to lib/ exactly once, and the copy gives lib/'s output
        const docs = ['tweet', 'deepkit_item', 'flat_bson'].flatMap((name) => datasets.load(name).docs);
        const wide = { values: Array.from({ length: 40 }, (_, i) => i * 1.5), ids: [1, 2, 3] };
        for (let i = 0; i < 20; i++) wide['field' + i] = 'x'.repeat(i * 10) + '\u00e9';
        docs.push(wide);
        for (const name of Object.keys(fastPaths.PATCHES)) {
            it(`"${name}" applies to lib/ and gives lib/'s output`, function () {
                const dir = fastPaths.patchedCopy(name);
                try {
                    const off = require(dir);
                    const full = require('..');
                    for (let round = 0; round < 40; round++) {
                        for (const doc of docs) {
                            const bytes = full.encode(doc);
                            assert.deepStrictEqual(Buffer.from(off.encode(doc)), Buffer.from(bytes));
                            assert.strictEqual(verify.compare(off.decode(bytes), full.decode(bytes)), null);
                        }
                    }
                } finally {
                    fs.rmSync(dir, { recursive: true, force: true });
                }
            });
        }
    });

    describe('timing.measure', function () {
        it('gives every run of an op of a few nanoseconds a rate by wall clock, as by CPU time', function () {
            const timing = require('../benchmark/timing');
            const box = { n: 0 };
            const [entry] = timing.measure([{ op: () => { box.n++; } }], { warmup: 0.02, sample: 0.01, samples: 5, clock: 'wall' });
            assert.strictEqual(entry.wallRates.length, 5);
            assert.strictEqual(entry.cpuRates.length, 5);
            for (const rate of entry.wallRates) assert.ok(rate > 0 && Number.isFinite(rate), 'rate ' + rate);
            assert.ok(entry.opsPerSec > 0 && Number.isFinite(entry.opsPerSec));
        });
    });

    describe('verify.compare', function () {
        it('finds the first difference, with its path', function () {
            const d = verify.compare({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] });
            assert.deepStrictEqual(d, { path: '.a[1].b', a: 'x', b: 'y' });
            assert.strictEqual(verify.compare({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] }), null);
        });

        it('tells numbers, key order, Dates and bytes apart', function () {
            assert.ok(verify.compare({ a: 1 }, { a: '1' }));
            assert.ok(verify.compare({ a: 0 }, { a: -0 }));
            assert.strictEqual(verify.compare({ a: NaN }, { a: NaN }), null);
            assert.ok(verify.compare({ a: 1, b: 2 }, { b: 2, a: 1 }));
            assert.ok(verify.compare(new Date(1), new Date(2)));
            assert.deepStrictEqual(verify.compare(Buffer.from([1, 2]), new Uint8Array([1, 3])), { path: '[1]', a: 2, b: 3 });
        });

        it('compares typed values by _bsontype and value, whatever their class', function () {
            class OtherLong { get _bsontype() { return 'Long'; } constructor(low, high) { this.low = low; this.high = high; this.unsigned = false; } }
            assert.strictEqual(verify.compare(bson.Long.fromBits(5, 6), new OtherLong(5, 6)), null);
            assert.ok(verify.compare(bson.Long.fromBits(5, 6), new OtherLong(5, 7)));
            assert.ok(verify.compare(bson.Long.fromBits(5, 6), 25769803781));
            const id = new bson.ObjectId('0123456789abcdef01234567');
            assert.strictEqual(verify.compare(id, { _bsontype: 'ObjectID', toHexString: () => id.toHexString() }), null);
            assert.ok(verify.compare(new bson.Binary(Buffer.from('ab'), 0), new bson.Binary(Buffer.from('ab'), 4)));
            assert.ok(verify.compare(new bson.Int32(1), new bson.Double(1)));
        });

        it('uses a library\'s own canon() for classes without _bsontype', function () {
            const canon = (v) => (v instanceof Map ? { type: 'ObjectId', value: v.get('hex') } : undefined);
            const id = new bson.ObjectId('0123456789abcdef01234567');
            assert.strictEqual(verify.compare(id, new Map([['hex', id.toHexString()]]), null, canon), null);
        });
    });

    describe('verify.compareBytes', function () {
        it('reports the offset and the value path of the first difference', function () {
            const msg = verify.compareBytes(bson.serialize({ a: 1, b: 2 }), bson.serialize({ a: 1, b: 3 }));
            assert.match(msg, /^at \.b<Int32> bson has 2, got 3; bytes differ at offset 14 \(length 19 vs 19\)/);
            assert.match(verify.compareBytes(bson.serialize({ a: 1 }), bson.serialize({ a: 1.5 })), /^at \.a bson has new Int32\(1\), got new Double\(1\.5\)/);
            assert.strictEqual(verify.compareBytes(bson.serialize({ a: 1 }), bson.serialize({ a: 1 })), null);
        });
    });

    describe('deepkit types (deepkit.js)', function () {
        const deepkit = require('../benchmark/deepkit');
        const { stringifyType, isMongoIdType, isUUIDType } = require('@deepkit/type');
        const text = (docs) => stringifyType(deepkit.inferType(docs)).replace(/\s+/g, ' ');

        it('types every document of a data set: keys in their order, optional where some lack them, unions', function () {
            assert.strictEqual(text([{ a: 1, b: 'x', c: [1, 'y'] }, { a: null, d: new Date(0), b: 'z' }]),
                '{ a: number | null; d?: Date; b: string; c?: Array<number | string>; }');
        });

        it('types an object keyed by ids, or of over 256 keys, by an index signature', function () {
            assert.strictEqual(text([{ byId: { 12: { n: 1 }, 7: { n: 2, m: true } } }]), '{byId: {[index: string]: { n: number; m?: boolean; }}}');
            const wide = {};
            for (let i = 0; i < 257; i++) wide['k' + i] = i % 2 ? 'x' : 1;
            assert.strictEqual(text([wide]), '{[index: string]: number | string}');
        });

        it('types ObjectId, UUID, Long and bytes as deepkit declares them, what it has no type for as any', function () {
            const type = deepkit.inferType([{ id: new bson.ObjectId(), u: new bson.Binary(Buffer.alloc(16), 4), l: bson.Long.fromNumber(3),
                b: new bson.Binary(Buffer.alloc(3), 0), i: new bson.Int32(3), k: new bson.MaxKey(), t: new bson.Timestamp({ t: 1, i: 2 }) }]);
            assert.strictEqual(stringifyType(type).replace(/\s+/g, ' '), '{ id: string; u: string; l: bigint; b: Uint8Array; i: number; k: any; t: any; }');
            assert.ok(isMongoIdType(type.types[0].type) && isUUIDType(type.types[1].type));
        });

        it("turns deepkit's decoded forms into bson's only where bson's decode has that type", function () {
            const ref = bson.deserialize(bson.serialize({ id: new bson.ObjectId('0123456789abcdef01234567'), s: '0123456789abcdef01234567',
                n: bson.Long.fromNumber(5), big: bson.Long.fromString('9007199254740993') }));
            const out = deepkit.fromDeepkit({ id: '0123456789abcdef01234567', s: '0123456789abcdef01234567', n: 5n, big: 9007199254740993n }, ref);
            assert.strictEqual(verify.compare(ref, out), null);
            assert.ok(verify.compare({ n: 5 }, deepkit.fromDeepkit({ n: 6n }, { n: 5 })));
            assert.ok(verify.compare({ s: 'x' }, deepkit.fromDeepkit({ s: 5n }, { s: 'x' })));
        });
    });

    describe('corpus generators', function () {
        const GENERATORS = {
            wideDocument: (seed) => [corpus.wideDocument(seed, 50)],
            featureCollection: (seed) => [corpus.featureCollection(seed, 3)],
            track: (seed) => [corpus.track(seed, 20)],
            doubleArray: (seed) => [corpus.doubleArray(seed, 20)],
            int32Array: (seed) => [corpus.int32Array(seed, 20)],
            apiResponse: (seed) => [corpus.apiResponse(seed, 3)],
            tweet: (seed) => [corpus.tweet(seed)],
            catalog: (seed) => [corpus.catalog(seed, 5, 5)],
            logEvents: (seed) => corpus.logEvents(seed, 5),
            smallDocsArray: (seed) => [corpus.smallDocsArray(seed, 5)],
            binaryDocument: (seed) => [corpus.binaryDocument(seed, 2, 64, 3)],
        };
        const bytesOf = (docs) => Buffer.concat(docs.map((doc) => bson.serialize(doc)));
        // the BSON type of every value, as bson decodes it without promoting
        const raw = (doc) => bson.deserialize(bson.serialize(doc), { promoteValues: false });

        for (const name of Object.keys(GENERATORS)) {
            it(name + ' gives the same documents for the same seed, other ones for another', function () {
                const make = GENERATORS[name];
                assert.ok(bytesOf(make(7)).equals(bytesOf(make(7))));
                assert.ok(!bytesOf(make(7)).equals(bytesOf(make(8))));
            });
        }

        it('wide documents: 12-character keys, strings and numbers alternately', function () {
            const doc = corpus.wideDocument(1, 1000);
            const keys = Object.keys(doc);
            assert.strictEqual(keys.length, 1000);
            assert.ok(keys.every((k) => /^[A-Za-z0-9]{12}$/.test(k)));
            assert.ok(keys.every((k, i) => typeof doc[k] === (i % 2 ? 'number' : 'string')));
        });

        it('GeoJSON: [lon, lat] pairs of doubles, 3 array levels in Polygons and 4 in MultiPolygons', function () {
            const { features } = raw(corpus.featureCollection(3, 20));
            const depth = (v) => (Array.isArray(v) ? 1 + depth(v[0]) : 0);
            for (const { geometry } of features) {
                assert.strictEqual(depth(geometry.coordinates), geometry.type === 'Polygon' ? 3 : 4);
                const pairs = geometry.type === 'Polygon' ? geometry.coordinates.flat() : geometry.coordinates.flat(2);
                assert.ok(pairs.every((p) => p.length === 2 && p.every((x) => x._bsontype === 'Double')));
            }
            assert.ok(features.some((f) => f.geometry.type === 'MultiPolygon') && features.some((f) => f.geometry.type === 'Polygon'));
            assert.ok(raw(corpus.track(3, 100)).geometry.coordinates.every((p) => p.length === 2 && p[1]._bsontype === 'Double'));
        });

        it('numeric arrays: all doubles, or all int32 of every magnitude with no -0', function () {
            assert.ok(raw(corpus.doubleArray(3, 1000)).values.every((v) => v._bsontype === 'Double'));
            const ints = raw(corpus.int32Array(3, 1000)).values;
            assert.ok(ints.every((v) => v._bsontype === 'Int32'));
            const values = corpus.int32Array(3, 1000).values;
            assert.ok(values.some((v) => v < -1e9) && values.some((v) => v > 1e9) && values.some((v) => Math.abs(v) < 100));
            assert.ok(!values.some((v) => Object.is(v, -0)));
        });

        it('API responses: statuses with users of 40 fields and non-Latin text', function () {
            const { statuses } = corpus.apiResponse(3, 30);
            assert.strictEqual(statuses.length, 30);
            assert.ok(statuses.every((s) => Object.keys(s.user).length === 40 && Object.keys(s).length >= 23));
            const text = statuses.map((s) => s.text + s.user.description).join('');
            for (const script of [/\p{Script=Han}/u, /\p{Script=Hangul}/u, /\p{Script=Cyrillic}/u, /\p{Extended_Pictographic}/u]) {
                assert.match(text, script);
            }
            const tweet = bson.serialize(corpus.tweet(19)).length;
            assert.ok(tweet > 1200 && tweet < 2000, 'a tweet of about 1.5 kB: ' + tweet);
        });

        it('catalogs: objects keyed by numeric-string ids, small arrays and nulls', function () {
            const doc = corpus.catalog(3, 10, 10);
            assert.strictEqual(Object.keys(doc.events).length, 10);
            assert.ok(Object.keys(doc.events).every((k) => /^[1-9]\d{8}$/.test(k) && doc.events[k].id === Number(k)));
            assert.ok(doc.performances.every((p) => p.name === null && Array.isArray(p.prices)));
        });

        it('log records: Dates, ObjectIds, Longs beyond 2^53 and short strings', function () {
            const docs = corpus.logEvents(3, 50);
            assert.ok(docs.every((d) => d.ts instanceof Date && d._id._bsontype === 'ObjectId' && d.requestId._bsontype === 'Long'));
            assert.ok(docs.some((d) => !d.requestId.lessThan(2 ** 53) || d.requestId.isNegative()));
        });

        it('binary-heavy documents hold Binary values of several subtypes', function () {
            const doc = corpus.binaryDocument(3, 2, 1000, 4);
            assert.ok(doc.chunks.every((c) => c._bsontype === 'Binary' && c.length() === 1000));
            assert.deepStrictEqual(doc.keys.map((k) => k.uuid.sub_type), [4, 4, 4, 4]);
        });

        it('every data set says whether it is JSON-representable', function () {
            assert.strictEqual(datasets.plainJson({ a: [1, 'x', null, true, { b: 2.5 }] }), true);
            assert.strictEqual(datasets.plainJson({ a: new Date(0) }), false);
            assert.strictEqual(datasets.plainJson({ a: bson.Long.fromNumber(1) }), false);
            assert.strictEqual(datasets.load('api_statuses').json, true);
            assert.strictEqual(datasets.load('log_events').json, false);
        });
    });

    describe('reporting', function () {
        // timing rows of qbson, bson, msgpackr and JSON at the given ops/s, both directions the same
        const rows = (dataset, speeds) => Object.keys(speeds).flatMap((lib) => ['encode', 'decode'].map((direction) =>
            ({ dataset, direction, lib, verdict: 'ok', skipped: false, opsPerSec: speeds[lib] })));
        const results = {
            datasets: [{ name: 'fast', bsonBytes: 100, json: true }, { name: 'slow', bsonBytes: 100, json: true },
                { name: 'typed', bsonBytes: 100, json: false }],
            timing: [].concat(rows('fast', { qbson: 400, bson: 100, msgpackr: 300, JSON: 200, 'JSON-bytes': 150 }),
                rows('slow', { qbson: 120, bson: 100, msgpackr: 200, JSON: 200, 'JSON-bytes': 150 }),
                rows('typed', { qbson: 250, bson: 100, msgpackr: 300, JSON: 50, 'JSON-bytes': 40 })),
        };

        it('gives qbson ÷ bson, msgpackr, JSON.parse and JSON.parse of bytes per data set, and the targets each misses', function () {
            const text = report.comparisonTable(results, false);
            assert.match(text, /^fast .* 4\.00× +4\.00× +1\.33× +2\.00× +2\.67× *$/m);
            assert.match(text, /^slow .* 1\.20× +1\.20× +0\.60× +0\.60× +0\.80× +encode, decode, < msgpackr, < 0\.8 JSON\.parse$/m);
            assert.match(text, /^typed .* 2\.50× +2\.50× +0\.83× \* +- +- *$/m, 'JSON.parse only where JSON carries the same values');
        });

        it('lists every JSON-representable data set and direction where a peer is ahead, and no other', function () {
            const mixed = { datasets: results.datasets.concat({ name: 'mid', bsonBytes: 100, json: true }),
                timing: results.timing.concat(rows('mid', { qbson: 300, bson: 100, msgpackr: 250, JSON: 400, 'JSON-bytes': 250 })) };
            const text = report.behindTable(mixed, false);
            const lines = text.trim().split('\n');
            assert.strictEqual(lines[1].replace(/ +/g, ' '), 'data set direction ÷ msgpackr ÷ JSON (string) ÷ JSON (bytes)');
            assert.deepStrictEqual(lines.slice(3).map((l) => l.replace(/ +/g, ' ')), [
                'slow encode 0.60× < 0.60× < 0.80× <', 'slow decode 0.60× < 0.60× < 0.80× <',
                'mid encode 1.20× 0.75× < 1.20×', 'mid decode 1.20× 0.75× < 1.20×']);
            const ahead = { datasets: [results.datasets[0], results.datasets[2]], timing: results.timing };
            assert.match(report.behindTable(ahead, false), /^qbson is ahead of msgpackr and JSON on every JSON-representable data set/);
        });

        it('sums the targets up: geometric means and the data sets below each', function () {
            const lines = report.targetLines(results);
            assert.strictEqual(lines[0], 'geometric mean of qbson ÷ bson: encode 2.29× (target 2.50×, over 3 data sets); ' +
                'decode 2.29× (target 2.20×, over 3 data sets)');
            assert.strictEqual(lines[1], 'encode below 1.50× bson: slow 1.20×');
            assert.strictEqual(lines[3], 'decode slower than msgpackr (JSON-representable data sets, 2 compared): slow 0.60×');
            assert.strictEqual(lines[4], 'decode below 0.80× JSON.parse (JSON-representable data sets, 2 compared): slow 0.60×');
            assert.strictEqual(lines[5], 'decode slower than JSON.parse(buf.toString(\'utf8\')) (JSON-representable data sets, ' +
                '2 compared): slow 0.80×');
        });

        it('names the data sets where qbson allocates more than bson', function () {
            const mem = (lib, bytesPerOp) => ({ dataset: 'fast', direction: 'decode', lib, verdict: 'ok', bytesPerOp });
            assert.strictEqual(report.memoryLine({ datasets: results.datasets, memory: [mem('qbson', 2000), mem('bson', 1000)] }),
                'qbson allocates more per operation than bson on: fast decode 2.00 kB vs 1.00 kB');
            assert.match(report.memoryLine({ datasets: results.datasets, memory: [mem('qbson', 10), mem('bson', 1000)] }), /: none$/);
        });

        it('gives the median of each start-up figure, qbson ÷ bson, the geometric mean over the data sets and the targets missed', function () {
            const samples = [];
            const add = (lib, what, dataset, ...ms) => ms.forEach((x) => samples.push({ lib, what, dataset, seconds: x / 1e3 }));
            add('qbson', 'require', 'a', 10, 30); add('qbson', 'require', 'b', 20, 1000);   // median of all four: 25 ms
            add('bson', 'require', 'a', 20, 20); add('bson', 'require', 'b', 20, 20);
            add('qbson', 'import', '', 11); add('bson', 'import', '', 10);
            add('qbson', 'encode', 'a', 1, 2, 9); add('bson', 'encode', 'a', 4);      // 0.5×
            add('qbson', 'encode', 'b', 8); add('bson', 'encode', 'b', 1);            // 8×
            for (const what of ['decode', 'process', 'process code']) for (const ds of ['a', 'b']) { add('qbson', what, ds, 3); add('bson', what, ds, 3); }
            const start = { rounds: 3, datasets: ['a', 'b'], missing: ['c'], samples, empty: [40e-3, 50e-3, 45e-3], errors: [] };
            assert.strictEqual(report.startMedian(start, 'qbson', 'require'), 25e-3);
            const text = report.startTable(start, false);
            assert.match(text, /^require +25\.0 ms +20\.0 ms +1\.25× +missed$/m);
            assert.match(text, /^import +11\.0 ms +10\.0 ms +1\.10× +met$/m);
            assert.match(text, /^first encode +a +2\.00 ms +4\.00 ms +0\.50× +met$/m);
            assert.match(text, /^first encode +geometric mean +4\.00 ms +2\.00 ms +2\.00× +missed$/m);
            assert.match(text, /^short process, spawn to exit +b +3\.00 ms +3\.00 ms +1\.00×$/m);
            assert.deepStrictEqual(report.startLines(start), [
                'qbson ÷ bson from a fresh process: require 1.25×, import 1.10×, first encode 2.00×, first decode 1.00×, ' +
                    'short process, spawn to exit 1.00×; above 1.10×: require, first encode b, first encode geometric mean',
                'an empty node process takes 45.0 ms from spawn to exit (median of 3)',
                'not measured, not a data set of this benchmark: c']);
        });
    });

    describe('the values-at-decode-time section (value-mapping.js)', function () {
        const { convert } = require('../benchmark/value-mapping');

        it("the baseline walk converts ObjectIds and Dates in plain objects and arrays, in place, and nothing else", function () {
            const id = new (require('..').ObjectId)('0123456789abcdef01234567');
            const long = require('..').Long.fromNumber(2 ** 60);
            const doc = { id, at: [new Date(0), { deeper: id }], n: 1, long, s: 'x' };
            const inner = doc.at;
            assert.strictEqual(convert(doc), doc);
            assert.strictEqual(doc.at, inner);
            assert.deepStrictEqual(doc, { id: '0123456789abcdef01234567', at: ['1970-01-01T00:00:00.000Z', { deeper: '0123456789abcdef01234567' }], n: 1, long, s: 'x' });
        });

        it('prints the rows and the geometric mean against the target', function () {
            const out = childProcess.execFileSync(process.execPath, [path.join(__dirname, '..', 'benchmark', 'value-mapping.js'), '--quick', '--filter', 'int,log_events'],
                { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
            assert.match(out, /^log_events +\S+ kB +2702 /m);
            assert.match(out, /geometric means: decode with values [\d.]+× qbson decode \+ walk over every data set \(target ≥ 1\.5×; ceiling [\d.]+×\)/);
        });
    });

    describe('the published report (docs/benchmarks.md)', function () {
        const DOC = path.join(__dirname, '..', 'docs', 'benchmarks.md');
        const between = (text) => text.slice(text.indexOf(report.REPORT_START) + report.REPORT_START.length, text.indexOf(report.REPORT_END));

        it('replaces only what lies between the markers, and refuses a document without them once each', function () {
            const doc = 'prose\n\n' + report.REPORT_START + '\n\nold\n\n' + report.REPORT_END + '\n\nmore prose\n';
            assert.strictEqual(report.replaceReport(doc, '### new\n\ntable\n'),
                'prose\n\n' + report.REPORT_START + '\n\n### new\n\ntable\n\n' + report.REPORT_END + '\n\nmore prose\n');
            assert.throws(() => report.replaceReport('prose\n', 'x'), /must hold the line/);
            assert.throws(() => report.replaceReport(report.REPORT_END + report.REPORT_START, 'x'), /must hold the line/);
            assert.throws(() => report.replaceReport(doc + doc, 'x'), /must hold the line/);
        });

        it('holds one full run\'s Markdown report, whose geometric means the README quotes', function () {
            const text = fs.readFileSync(DOC, 'utf8');
            const generated = between(text).trim();
            assert.ok(generated.startsWith('### qbson benchmark\n'), 'the report starts with its header');
            assert.match(generated, /^mode full: /m);
            assert.match(generated, /\nsink -?\d+; ran [\d.]+ s \(.*\)$/);
            const m = /^- geometric mean of qbson ÷ bson: encode ([\d.]+×) .*; decode ([\d.]+×) /m.exec(generated);
            assert.ok(m, 'the geometric means are in the report');
            const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
            const summary = readme.split(/^## Benchmarks$/m)[1].split(/^## /m)[0];
            assert.ok(summary.includes('geometric mean ' + m[1]) && summary.includes('geometric mean ' + m[2]),
                'the README\'s summary quotes encode ' + m[1] + ' and decode ' + m[2]);
            assert.ok(summary.includes('](docs/benchmarks.md)'), 'the README links to the report');
        });
    });

    describe('mixed mode', function () {
        const names = datasets.NAMES;

        it('shuffles the data sets by the seed alone', function () {
            const order = mixed.shuffle(names, 42);
            assert.deepStrictEqual(order, mixed.shuffle(names, 42));
            assert.deepStrictEqual(order.slice().sort(), names.slice().sort());
            assert.notDeepStrictEqual(order, names);
            assert.notDeepStrictEqual(mixed.shuffle(names, 43), order);
            assert.deepStrictEqual(names, datasets.NAMES, 'its argument is left as it was');
        });

        const row = (dataset, lib, opsPerSec, extra) => Object.assign({ dataset, direction: 'decode', lib, verdict: 'ok',
            skipped: false, opsPerSec }, extra);

        it('gives each mixed rate as a fraction of the alone rate, NaN where either was not timed', function () {
            const alone = [row('a', 'qbson', 200), row('b', 'qbson', 100), row('c', 'qbson', 100)];
            const mixedRows = [row('a', 'qbson', 150), row('b', 'qbson', 100, { verdict: 'differs' }), row('c', 'qbson', 120),
                row('d', 'qbson', 10)];
            const f = mixed.fractions(alone, mixedRows);
            assert.deepStrictEqual(f.map((r) => r.fraction), [0.75, NaN, 1.2, NaN]);
            assert.deepStrictEqual(f[0], { dataset: 'a', direction: 'decode', lib: 'qbson', alone: 200, mixed: 150, fraction: 0.75 });
        });

        it('reports the fractions in the mixed order, and the data sets below 90%', function () {
            const alone = [row('a', 'qbson', 200), row('b', 'qbson', 100), row('a', 'bson', 100), row('b', 'bson', 100)];
            const timed = [row('b', 'qbson', 95), row('a', 'qbson', 100), row('b', 'bson', 100), row('a', 'bson', 100)];
            const results = { mixed: { order: ['b', 'a'], fractions: mixed.fractions(alone, timed) } };
            const text = mixed.fractionTables(results, ['qbson', 'bson'], false);
            assert.match(text, /decode: ops\/s in the mixed run as % of alone\n#  data set  qbson  bson\n.*\n1  b +95% +100%\n2  a +50% +100%/);
            assert.deepStrictEqual(mixed.fractionLines(results, ['qbson', 'bson']), [
                'qbson keeps ≥ 90% of its alone rate on encode 0 of 0 (geometric mean -); decode 1 of 2 (geometric mean 69%), below: a 50%',
                'bson keeps ≥ 90% of its alone rate on encode 0 of 0 (geometric mean -); decode 2 of 2 (geometric mean 100%)',
            ]);
        });

        it('runs end to end: alone in fresh processes, then mixed in the printed order', function (done) {
            const file = path.join(os.tmpdir(), 'qbson-benchmark-mixed-' + process.pid + '.json');
            const args = [RUN, '--smoke', '--mixed', '--seed', '7', '--filter', 'qbson,int,float,tweet', '--json', file];
            childProcess.execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (err, out) => {
                if (err) return done(err);
                const res = JSON.parse(fs.readFileSync(file, 'utf8'));
                fs.unlinkSync(file);
                const order = mixed.shuffle(['int', 'float', 'tweet'], 7);
                assert.deepStrictEqual(res.mixed.order, order);
                assert.deepStrictEqual(res.datasets.map((d) => d.name), order);
                assert.ok(out.includes('(seed 7, --seed to repeat it): ' + order.join(', ')));
                assert.strictEqual(res.alone.length, 3 * 2 * 2, 'alone: 3 data sets, 2 directions, qbson and bson');
                assert.strictEqual(res.mixed.fractions.length, 12);
                assert.ok(res.mixed.fractions.every((f) => f.fraction > 0), 'every cell has a fraction');
                assert.match(out, /qbson keeps ≥ 90% of its alone rate on encode \d of 3/);
                assert.deepStrictEqual([res.memory, res.cold], [[], []], 'no memory or cold start in the mixed mode');
                done();
            });
        });
    });

    describe('instruction counter inputs', function () {
        it('hands generated data sets to its children as BSON files that decode to the same documents', function () {
            const dir = instructions.writeCache(['tweet', 'log_events', 'binary_heavy', 'int']);
            try {
                // binary_heavy's UUIDs come back as another class, and int is not generated: both are generated in the child
                assert.deepStrictEqual(fs.readdirSync(dir).sort(), ['log_events.bson', 'tweet.bson']);
                for (const set of ['tweet', 'log_events', 'binary_heavy', 'int']) {
                    const docs = datasets.load(set).docs;
                    const encodeInputs = instructions.inputsFor('encode', set, dir);
                    assert.strictEqual(encodeInputs.length, docs.length);
                    assert.ok(encodeInputs.every((doc, i) => instructions.sameDocument(docs[i], doc)), set);
                    const decodeInputs = instructions.inputsFor('decode', set, dir);
                    assert.ok(decodeInputs.every((buf, i) => Buffer.isBuffer(buf) && buf.equals(bson.serialize(docs[i]))), set);
                }
                assert.ok(!instructions.sameDocument({ a: new bson.Binary(Buffer.alloc(16), 4) },
                    { a: new bson.UUID(Buffer.alloc(16)) }), 'the same bytes in another class');
            } finally {
                fs.rmSync(dir, { recursive: true, force: true });
            }
        });
    });

    describe('options', function () {
        it('parses the command line', function () {
            const opts = parseArgs(['--quick', '--filter', 'qbson,flat', '--markdown', '--json', 'x.json']);
            assert.strictEqual(opts.mode, 'quick');
            assert.deepStrictEqual(opts.filter, ['qbson', 'flat']);
            assert.strictEqual(opts.markdown, true);
            assert.strictEqual(opts.json, 'x.json');
            assert.throws(() => parseArgs(['--bogus']), /unknown option/);
            assert.deepStrictEqual([parseArgs(['--mixed', '--seed', '12']).mixed, parseArgs(['--mixed', '--seed', '12']).seed], [true, 12]);
            assert.strictEqual(parseArgs([]).mixed, false);
            assert.throws(() => parseArgs(['--seed', 'x']), /--seed takes a whole number/);
            assert.deepStrictEqual([parseArgs(['--update', 'd.md']).update, parseArgs(['--update', 'd.md']).markdown], ['d.md', true]);
            assert.strictEqual(parseArgs([]).update, null);
            assert.deepStrictEqual([parseArgs([]).size, parseArgs(['--no-size']).size], [true, false]);
        });

        it('--filter picks data sets and libraries by substring, an exact name only itself', function () {
            assert.deepStrictEqual(applyFilter(['qbson', 'nested']), { datasets: ['nested-array', 'nested-object'], libs: ['qbson', 'bson'] });
            assert.deepStrictEqual(applyFilter(['_bson']).datasets, ['flat_bson', 'deep_bson', 'full_bson']);
            assert.deepStrictEqual(applyFilter(['bson']), { datasets: datasets.NAMES, libs: ['bson'] });
            assert.deepStrictEqual(applyFilter([]).libs, LIBRARIES);
            assert.deepStrictEqual(applyFilter(['deepkit']), { datasets: ['deepkit_cursor', 'deepkit_item', 'deepkit_cursor_varied'],
                libs: ['bson', 'deepkit-generic', 'deepkit-jit'] });
            assert.throws(() => applyFilter(['nosuchthing']), /matches no data set or library/);
        });
    });

    describe('smoke run', function () {
        let stdout;
        let results;

        before(function (done) {
            const file = path.join(os.tmpdir(), 'qbson-benchmark-' + process.pid + '.json');
            childProcess.execFile(process.execPath, [RUN, '--smoke', '--json', file], { maxBuffer: 1 << 24 }, (err, out) => {
                if (err) return done(err);
                stdout = out;
                results = JSON.parse(fs.readFileSync(file, 'utf8'));
                fs.unlinkSync(file);
                done();
            });
        });

        it('--update writes the Markdown report it prints between the document\'s markers', function () {
            const doc = path.join(os.tmpdir(), 'qbson-benchmark-' + process.pid + '.md');
            fs.writeFileSync(doc, 'before\n' + report.REPORT_START + '\nold\n' + report.REPORT_END + '\nafter\n');
            try {
                const run = childProcess.spawnSync(process.execPath, [RUN, '--smoke', '--filter', 'qbson,int', '--no-memory', '--no-cold',
                    '--update', doc], { encoding: 'utf8', maxBuffer: 1 << 24 });
                assert.strictEqual(run.status, 0, run.stderr);
                assert.ok(run.stdout.startsWith('### qbson benchmark\n'), 'Markdown on standard output');
                assert.match(run.stdout, /^#### encode: rate \(bson = 100/m);
                assert.strictEqual(fs.readFileSync(doc, 'utf8'),
                    'before\n' + report.REPORT_START + '\n\n' + run.stdout.trim() + '\n\n' + report.REPORT_END + '\nafter\n');
            } finally {
                fs.unlinkSync(doc);
            }
        });

        it('--update refuses a document without the markers before it runs anything', function () {
            const bare = path.join(os.tmpdir(), 'qbson-benchmark-bare-' + process.pid + '.md');
            fs.writeFileSync(bare, 'no markers\n');
            try {
                const run = childProcess.spawnSync(process.execPath, [RUN, '--smoke', '--update', bare], { encoding: 'utf8' });
                assert.strictEqual(run.status, 1);
                assert.match(run.stderr, /must hold the line/);
                assert.strictEqual(run.stdout, '');
                assert.strictEqual(fs.readFileSync(bare, 'utf8'), 'no markers\n');
            } finally {
                fs.unlinkSync(bare);
            }
        });

        it('prints the header and every table', function () {
            assert.match(stdout, /^node \d+\.\d+\.\d+, V8 \S+, /m);
            for (const name of ['qbson', 'bson', 'bson-ext', 'buffalo', 'msgpackr', 'qtimeit']) assert.ok(stdout.includes(name + ' '), name);
            for (const title of ['encode: rate (bson = 100', 'encode: ops/s', 'encode: MB/s', 'decode: rate (bson = 100',
                'decode: ops/s', 'decode: MB/s', 'heap bytes allocated per op', 'first and warm calls on flat_bson',
                'qbson against bson from a fresh process, the median of 1 processes each', 'bundle size: esbuild',
                'qbson ÷ others, ops/s', 'geometric mean of qbson ÷ bson: encode', 'decode slower than msgpackr',
                'decode below 0.80× JSON.parse',
                'decode slower than JSON.parse(buf.toString(\'utf8\'))', 'qbson allocates more per operation than bson on', 'qbson ÷ bson from a fresh process: require']) {
                assert.ok(stdout.includes(title), title);
            }
            assert.match(stdout, /where qbson is behind msgpackr or JSON|qbson is ahead of msgpackr and JSON on every/);
            assert.match(stdout, new RegExp('^decode: rate \\(bson = 100.*\\ndata set +bson size +' + LIBRARIES.join(' +') + '$', 'm'));
            assert.match(stdout, /sink \d+/);
        });

        it('covers every data set and library', function () {
            assert.deepStrictEqual(results.datasets.map((d) => d.name), datasets.NAMES);
            assert.deepStrictEqual(results.libraries.map((l) => l.name), LIBRARIES);
            const large = results.datasets.find((d) => d.name === 'large');
            assert.ok(large.bsonBytes >= 1e6 && large.bsonBytes <= 3e6, 'large is 1-3 MB: ' + large.bsonBytes);
            assert.strictEqual(results.datasets.find((d) => d.name === 'batch1000').docs, 1000);
        });

        it('loads qbson', function () {
            const qbson = results.libraries.find((l) => l.name === 'qbson');
            assert.ok(qbson.available, 'qbson did not load: ' + qbson.reason);
        });

        it('gives every library the expected verdict on every data set', function () {
            const extBuilt = results.libraries.find((l) => l.name === 'bson-ext').available;
            const wrong = [];
            for (const row of results.timing) {
                let expected = (EXPECTED_NOT_OK[row.lib] && EXPECTED_NOT_OK[row.lib][row.dataset] || {})[row.direction] || 'ok';
                if (row.lib === 'bson-ext' && !extBuilt) expected = 'n/a';
                if (row.verdict !== expected) wrong.push(row.lib + ' ' + row.dataset + ' ' + row.direction + ': ' + row.verdict + ' ' + row.reason);
            }
            assert.deepStrictEqual(wrong, []);
        });

        it('explains every verdict that is not ok', function () {
            for (const row of results.timing.filter((r) => r.verdict !== 'ok')) assert.ok(row.reason, row.lib + ' ' + row.dataset);
            assert.match(stdout, /buffalo full_bson decode: ≠ at \.\w+ bson gives new MaxKey\(\), buffalo gives null/);
        });

        it('times every verified cell of the small data sets, relative to bson', function () {
            for (const row of results.timing.filter((r) => r.verdict === 'ok' && !r.skipped)) {
                assert.ok(row.opsPerSec > 0 && row.mbPerSec > 0 && row.rate > 0, row.lib + ' ' + row.dataset + ' ' + row.direction);
                if (row.lib === 'bson') assert.strictEqual(row.rate, 100);
            }
            assert.ok(results.timing.some((r) => r.lib === 'qbson' && r.opsPerSec > 0));
        });

        it('measures memory and cold start of qbson and bson', function () {
            for (const lib of ['qbson', 'bson']) {
                const mem = results.memory.filter((r) => r.lib === lib && !r.skipped);
                assert.ok(mem.length > 0 && mem.every((r) => r.verdict === 'ok' && r.bytesPerOp >= 0 && r.gcPercent >= 0), lib + ' memory');
                const cold = results.cold.filter((r) => r.lib === lib);
                assert.strictEqual(cold.length, 2);
                assert.ok(cold.every((r) => r.verdict === 'ok' && r.first > 0 && r.warm > 0 && r.requireSeconds > 0), lib + ' cold start');
            }
            assert.match(stdout, /library +require +encode 1st +2nd +warm +1st\/warm +decode 1st/);
        });

        it('times require, import, the first calls and a short process of qbson and bson in fresh processes, with their ratios', function () {
            const start = results.start;
            assert.deepStrictEqual(start.errors, []);
            assert.strictEqual(start.rounds, 1);
            assert.ok(start.datasets.includes('flat_bson') && start.datasets.includes('tweet'), start.datasets.join(', '));
            assert.ok(start.missing.every((name) => !datasets.NAMES.includes(name)));
            const whats = ['require', 'import', 'encode', 'decode', 'process', 'process code'];
            for (const lib of ['qbson', 'bson']) {
                for (const what of whats) {
                    const samples = start.samples.filter((s) => s.lib === lib && s.what === what);
                    // require is timed in each process of a first call: two per data set
                    const expected = what === 'import' ? 1 : (what === 'require' ? 2 : 1) * start.datasets.length;
                    assert.strictEqual(samples.length, expected, lib + ' ' + what);
                    assert.ok(samples.every((s) => s.seconds > 0 && s.seconds < 60), lib + ' ' + what);
                }
                // the whole process holds its own code's time
                for (const ds of start.datasets) {
                    const [whole, own] = ['process', 'process code'].map((w) => start.samples.find((s) => s.lib === lib && s.what === w && s.dataset === ds));
                    assert.ok(whole.seconds > own.seconds, lib + ' ' + ds);
                }
            }
            assert.strictEqual(start.empty.length, 1);
            assert.match(stdout, /^first encode +geometric mean +[\d.]+ [mµ]?s +[\d.]+ [mµ]?s +[\d.]+× +(met|missed)$/m);
            assert.match(stdout, /^short process, spawn to exit +flat_bson +[\d.]+ [mµ]?s +[\d.]+ [mµ]?s +[\d.]+×$/m);
            assert.match(stdout, /qbson ÷ bson from a fresh process: require [\d.]+×, import [\d.]+×, first encode [\d.]+× \(flat_bson [\d.]+×\)/);
        });

        it('prints the bundle sizes of qbson\'s programs beside bson\'s', function () {
            const { PROGRAMS, BUDGETS } = require('../scripts/sizes');
            assert.deepStrictEqual(results.size.map((r) => r.name), Object.keys(PROGRAMS));
            for (const r of results.size) {
                assert.strictEqual(r.budget, BUDGETS[r.name]);
                assert.ok(r.gzipped > 10000 && r.gzipped < r.minified && r.bson.gzipped > 10000 && r.inputs > 1, r.name);
            }
            assert.match(stdout, /^encode \+ decode +[\d.]+ KB +[\d.]+ KB +[\d.]+ KB +serialize \+ deserialize +[\d.]+ KB +[\d.]+ KB +[\d.]+× +≤ [\d.]+ KB (met|missed)$/m);
        });
    });
});
