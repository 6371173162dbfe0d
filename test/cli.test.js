'use strict';

// The qbson command, run as a real process on a generated file of several megabytes.

const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const qbson = require('..');
const { run } = require('./support/run-async');

const BIN = path.join(__dirname, '..', 'bin', 'qbson');

// Runs qbson with args; stdin gets `input` (a Buffer, written in pieces of
// `pieceSize` bytes) or nothing. Resolves to { code, stdout (Buffer), stderr }.
function qbsonRun(args, opts) {
    opts = opts || {};
    return new Promise((resolve, reject) => {
        // stdinFile: standard input is that file itself, as with `< FILE`
        const stdin = opts.stdinFile === undefined ? 'pipe' : fs.openSync(opts.stdinFile, 'r');
        const child = spawn(process.execPath, [BIN, ...args], { stdio: [stdin, 'pipe', 'pipe'], cwd: opts.cwd });
        if (typeof stdin === 'number') fs.closeSync(stdin);
        const out = [];
        const err = [];
        child.stdout.on('data', (c) => out.push(c));
        child.stderr.on('data', (c) => err.push(c));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }));
        if (child.stdin === null) return;
        // the child may stop reading early (bad input): that is not the test's failure
        child.stdin.on('error', () => {});
        if (opts.input === undefined) {
            child.stdin.end();
        } else if (opts.pieceSize) {
            writeInPieces(child.stdin, opts.input, opts.pieceSize);
        } else {
            child.stdin.end(opts.input);
        }
    });
}

async function writeInPieces(stream, buf, size) {
    for (let i = 0; i < buf.length; i += size) {
        if (!stream.write(buf.subarray(i, i + size))) await new Promise((resolve) => stream.once('drain', resolve));
    }
    stream.end();
}

// Pipes `qbson a...` into `qbson b...`; resolves to both results.
function qbsonPipe(argsA, argsB) {
    return new Promise((resolve, reject) => {
        const a = spawn(process.execPath, [BIN, ...argsA], { stdio: ['ignore', 'pipe', 'pipe'] });
        const b = spawn(process.execPath, [BIN, ...argsB], { stdio: ['pipe', 'pipe', 'pipe'] });
        a.stdout.pipe(b.stdin);
        const results = {};
        let open = 2;
        function finish(name, child) {
            const out = [];
            const err = [];
            child.stdout.on('data', (c) => out.push(c));
            child.stderr.on('data', (c) => err.push(c));
            child.on('error', reject);
            child.on('close', (code) => {
                results[name] = { code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() };
                if (--open === 0) resolve(results);
            });
        }
        finish('a', a);
        finish('b', b);
    });
}

// an async test, awaited through run()
function itAsync(name, test) {
    it(name, run(test));
}

// bsondump's status line on stderr: its timestamp, a tab, the count
const OBJECTS_FOUND = (n) => new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}[+-]\\d{4}\\t${n} objects found\\n$`);

function assertSameBytes(actual, expected) {
    if (actual.equals(expected)) return;
    let i = 0;
    while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
    assert.fail(`bytes differ at offset ${i} (got ${actual.length} bytes, expected ${expected.length})`);
}

// --- a seeded generator of documents with every BSON type, the deprecated ones too ---

function mulberry32(seed) {
    let a = seed;
    return function () {
        a = (a + 0x6d2b79f5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

function generateDocuments(seed, count) {
    const rnd = mulberry32(seed);
    const int = (n) => Math.floor(rnd() * n);
    const bytes = (n) => {
        const b = Buffer.alloc(n);
        for (let i = 0; i < n; i++) b[i] = int(256);
        return b;
    };
    const words = ['alpha', 'beta', 'δέλτα', '日本語', 'emoji 😀', 'quote " back \\ slash', 'tab\tnewline\n', ''];
    const str = () => words[int(words.length)] + int(1000);
    function value(depth) {
        switch (int(depth > 3 ? 24 : 27)) {
            case 0:
                return int(2 ** 31) - 2 ** 30;
            case 1:
                return new qbson.Double([1, -0, 0.1, 1e300, Infinity, -Infinity, NaN, 3][int(8)] * (rnd() < 0.5 ? 1 : rnd()));
            case 2:
                return qbson.Long.fromBits(int(2 ** 32) | 0, int(2 ** 32) | 0);
            case 3:
                return str();
            case 4:
                return new qbson.ObjectId(bytes(12));
            case 5:
                return new Date(int(4e12) - 1e12);
            case 6:
                return rnd() < 0.5;
            case 7:
                return null;
            case 8:
                return new qbson.Binary(bytes(int(40)), [0, 1, 3, 5, 6, 0x80][int(6)]);
            case 9:
                return new qbson.UUID(bytes(16));
            case 10:
                return new qbson.BSONRegExp('^a.*b' + int(10), ['', 'i', 'imsx', 'ms'][int(4)]);
            case 11:
                return new qbson.Timestamp({ t: int(2 ** 32), i: int(2 ** 32) });
            case 12:
                return qbson.Decimal128.fromString(['1.5', '-0', '1E+10', 'NaN', 'Infinity', '123456789012345678901234567890', '0.000001'][int(7)]);
            case 13:
                return new qbson.MinKey();
            case 14:
                return new qbson.MaxKey();
            case 15:
                return new qbson.Code('function () { return ' + int(100) + '; }');
            case 16:
                return new qbson.Code('x + y', { x: int(10), y: str() });
            case 17:
                return new qbson.BSONSymbol(str());
            case 18:
                return new qbson.Int32(int(100));
            case 19:
                return rnd() * 1e6;
            case 20:
                return new qbson.DBRef('coll' + int(5), new qbson.ObjectId(bytes(12)), rnd() < 0.5 ? 'db' : undefined);
            case 21:
                return str().repeat(int(20));
            case 22:
                return new qbson.BSONUndefined();
            case 23:
                return new qbson.DBPointer('db.coll' + int(5), new qbson.ObjectId(bytes(12)));
            case 24: {
                const o = {};
                const n = int(6);
                for (let i = 0; i < n; i++) o['k' + i + str()] = value(depth + 1);
                return o;
            }
            case 25: {
                const a = [];
                const n = int(6);
                for (let i = 0; i < n; i++) a.push(value(depth + 1));
                return a;
            }
            default:
                return { nested: value(depth + 1), list: [value(depth + 1), value(depth + 1)] };
        }
    }
    const docs = [];
    for (let i = 0; i < count; i++) {
        const doc = { _id: new qbson.ObjectId(bytes(12)), n: i };
        const fields = 3 + int(10);
        for (let f = 0; f < fields; f++) doc['f' + f] = value(0);
        // now and then a large document, so some span the command's read chunks
        if (i % 15 === 0) doc.big = new qbson.Binary(bytes(20000 + int(30000)));
        docs.push(doc);
    }
    return docs;
}

// --- what stat should say, worked out from decoded values ---

function typeNameOf(v) {
    if (v === null) return 'null';
    if (typeof v === 'string') return 'string';
    if (typeof v === 'boolean') return 'bool';
    if (v instanceof Date) return 'date';
    if (Array.isArray(v)) return 'array';
    const names = {
        Int32: 'int',
        Double: 'double',
        Long: 'long',
        ObjectId: 'objectId',
        Binary: 'binData',
        BSONRegExp: 'regex',
        Timestamp: 'timestamp',
        Decimal128: 'decimal',
        MinKey: 'minKey',
        MaxKey: 'maxKey',
        BSONSymbol: 'symbol',
        DBRef: 'object',
        DBPointer: 'dbPointer',
        Undefined: 'undefined',
    };
    if (v._bsontype === 'Code') return v.scope == null ? 'javascript' : 'javascriptWithScope';
    if (v._bsontype !== undefined) return names[v._bsontype];
    return 'object';
}

function expectedStats(docs) {
    const types = {};
    let deepest = 0;
    function count(doc, depth) {
        if (depth > deepest) deepest = depth;
        let entries;
        if (doc._bsontype === 'DBRef') {
            entries = [['$ref', doc.collection], ['$id', doc.oid]];
            if (doc.db !== undefined) entries.push(['$db', doc.db]);
            entries.push(...Object.entries(doc.fields));
        } else {
            entries = Object.entries(doc);
        }
        for (const [, v] of entries) {
            const name = typeNameOf(v);
            types[name] = (types[name] || 0) + 1;
            if (name === 'object' || name === 'array') count(v, depth + 1);
            else if (name === 'javascriptWithScope') count(v.scope, depth + 1);
        }
    }
    for (const d of docs) count(d, 1);
    return { types, deepest };
}

// Runs tasks (functions returning promises) at most `width` at a time.
async function runAll(tasks, width) {
    let next = 0;
    async function worker() {
        while (next < tasks.length) await tasks[next++]();
    }
    await Promise.all(Array.from({ length: width }, worker));
}

describe('qbson command', function () {
    const COUNT = 1500;
    // the file is cut short in the document CUT; the first HEAD documents, a
    // smaller file, get a bad type byte in document BAD_TYPE or a bad length in BAD_LENGTH
    const CUT = 1200;
    const HEAD = 300;
    const BAD_TYPE = 150;
    const BAD_LENGTH = 222;
    const USAGE_ERRORS = [
        [['frobnicate'], /unknown command 'frobnicate'/],
        [['dump', '--bogus', 'x.bson'], /--bogus/],
        [['dump', 'a.bson', 'b.bson'], /one FILE/],
        [['load', '-o'], /argument missing/],
        [['stat', '--max-document-size', 'lots', 'x.bson'], /--max-document-size/],
        [['validate', '--canonical', 'x.bson'], /--canonical/],
        [['--bogus'], /--bogus/],
        [['help', 'frobnicate'], /no help/],
    ];
    const COMMAND_NAMES = ['dump', 'load', 'stat', 'validate'];
    const PROGRAM_HELP = [['--help'], ['-h'], ['help']];
    const COMMAND_HELP = [['dump', '--help'], ['load', '-h'], ['stat', '--help'], ['validate', '--help'], ['help', 'load']];
    let dir;
    let file;
    let bytes;
    let docs;
    let offsets;
    let sizes;
    // what each run of the command gave: { code, stdout, stderr }, by name
    const runs = {};
    const paths = {};

    function damaged(name, edit, count) {
        const copy = Buffer.from(count === undefined ? bytes : bytes.subarray(0, offsets[count]));
        const result = edit(copy) || copy;
        const p = path.join(dir, name);
        fs.writeFileSync(p, result);
        paths[name] = p;
        return p;
    }

    // Every run happens here, a few at a time, outside the per-test time limit;
    // the tests below check what they gave.
    before(function (done) {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-cli-'));
        file = path.join(dir, 'data.bson');
        const encoded = generateDocuments(20240601, COUNT).map((d) => qbson.encode(d));
        bytes = Buffer.concat(encoded);
        fs.writeFileSync(file, bytes);
        offsets = [];
        sizes = encoded.map((e) => e.length);
        let pos = 0;
        for (const e of encoded) {
            offsets.push(pos);
            pos += e.length;
        }
        docs = qbson.decodeAll(bytes, { promoteValues: false, bsonRegExp: true, preserveDeprecated: true });
        const largestInHead = Math.max(...sizes.slice(0, HEAD));
        const head = damaged('head.bson', () => {}, HEAD);
        const small = bytes.subarray(0, offsets[200]);
        const good = '{"a": {"$numberInt": "1"}}\n';
        paths.badJson = path.join(dir, 'bad.json');
        fs.writeFileSync(paths.badJson, good + '\n' + good + '{"a": }\n' + good);
        paths.loaded = path.join(dir, 'loaded.bson');
        paths.missing = path.join(dir, 'no-such.bson');
        const cut = damaged('cut.bson', (b) => b.subarray(0, offsets[CUT] + 3));
        const badType = damaged('badtype.bson', (b) => {
            b[offsets[BAD_TYPE] + 4] = 0x42;
        }, HEAD);
        const badLengths = [-7, 3, 0x7fffffff].map((len) =>
            damaged(`length${len}.bson`, (b) => {
                b.writeInt32LE(len, offsets[BAD_LENGTH]);
            }, HEAD)
        );

        const record = (name, args, opts) => async () => {
            runs[name] = await qbsonRun(args, opts);
        };
        const tasks = [
            async () => {
                runs.roundTrip = await qbsonPipe(['dump', '--canonical', file], ['load']);
                // what went through the pipe, again, in odd pieces and to a file
                runs.canonical = runs.roundTrip.a;
                runs.loadOut = await qbsonRun(['load', '-o', paths.loaded], { input: runs.canonical.stdout, pieceSize: 4099 });
            },
            record('relaxed', ['dump', '--relaxed', '-'], { input: bytes, pieceSize: 65537 }),
            record('validate', ['validate', file]),
            record('validateStdin', ['validate', '-'], { input: bytes, pieceSize: 7919 }),
            record('validateCut', ['validate', cut]),
            record('validateBadType', ['validate', badType]),
            ...badLengths.map((p, i) => record(`validateBadLength${i}`, ['validate', p])),
            record('validateMaxOk', ['validate', '--max-document-size', String(largestInHead), head]),
            record('validateMaxLow', ['validate', '--max-document-size', String(largestInHead - 1), head]),
            record('statJson', ['stat', '--json', file]),
            record('statText', ['stat', file]),
            record('statEmpty', ['stat', '--json', '-'], { input: Buffer.alloc(0) }),
            record('statBadType', ['stat', badType]),
            record('dumpCut', ['dump', cut]),
            async () => {
                runs.pretty = await qbsonRun(['dump', '--pretty', '--canonical', '-'], { input: small });
                runs.prettyBack = await qbsonRun(['load'], { input: runs.pretty.stdout, pieceSize: 1000 });
            },
            async () => {
                const n = 50;
                const dumped = await qbsonRun(['dump', '--canonical', '-'], { input: bytes.subarray(0, offsets[n]) });
                const lines = dumped.stdout.toString().trim().split('\n');
                runs.array = await qbsonRun(['load', '--array'], { input: Buffer.from(`[\n${lines.join(',\n')}\n]\n`), pieceSize: 333 });
                runs.arrayEmpty = await qbsonRun(['load', '--array'], { input: Buffer.from(' [ ] ') });
            },
            record('loadPlain', ['load'], {
                input: Buffer.from('{"a": 1, "b": 2.5, "c": 4294967296, "d": "x", "e": [true, null], "f": {"$numberLong": "7"}}\n'),
            }),
            record('loadBadJson', ['load', paths.badJson]),
            record('loadNumber', ['load'], { input: Buffer.from('{"a": 1}\n42\n') }),
            record('loadArrayNoFlag', ['load'], { input: Buffer.from('[{"a": 1}]') }),
            record('loadUnfinished', ['load'], { input: Buffer.from('{"a": 1}\n{"b": "}"\n') }),
            record('loadArrayNoComma', ['load', '--array'], { input: Buffer.from('[{"a": 1} {"b": 2}]') }),
            async () => {
                const child = spawn(process.execPath, [BIN, 'dump', file], { stdio: ['ignore', 'pipe', 'pipe'] });
                let stderr = '';
                child.stderr.on('data', (c) => (stderr += c));
                child.stdout.once('data', () => child.stdout.destroy());
                const code = await new Promise((resolve) => child.on('close', resolve));
                runs.earlyExit = { code, stderr };
            },
            ...USAGE_ERRORS.map(([args], i) => record(`usage${i}`, args)),
            record('noArgs', []),
            record('missing', ['validate', paths.missing]),
            record('version', ['--version']),
            ...PROGRAM_HELP.map((args) => record(`help ${args.join(' ')}`, args)),
            ...COMMAND_HELP.map((args) => record(`help ${args.join(' ')}`, args)),
        ];
        runAll(tasks, 3).then(() => done(), done);
    });

    after(function () {
        fs.rmSync(dir, { recursive: true, force: true });
    });

    it('works on a generated file of several megabytes', function () {
        assert.ok(bytes.length > 3 * 1024 * 1024, `${bytes.length} bytes`);
        assert.strictEqual(docs.length, COUNT);
        // some documents are far larger than others, and reads of the file split them
        assert.ok(Math.max(...sizes) > 20000);
    });

    describe('validate', function () {
        it('prints ok and the count for a good file', function () {
            const r = runs.validate;
            assert.strictEqual(r.stderr, '');
            assert.strictEqual(r.stdout.toString(), `ok ${COUNT} documents\n`);
            assert.strictEqual(r.code, 0);
        });

        it('reads standard input arriving in odd pieces', function () {
            const r = runs.validateStdin;
            assert.strictEqual(r.stderr, '');
            assert.strictEqual(r.stdout.toString(), `ok ${COUNT} documents\n`);
            assert.strictEqual(r.code, 0);
        });

        it('reports a truncated tail with the offset of the cut document', function () {
            const r = runs.validateCut;
            assert.strictEqual(r.code, 1);
            assert.strictEqual(r.stdout.toString(), '');
            assert.ok(r.stderr.startsWith(`qbson validate: ${paths['cut.bson']}: `), r.stderr);
            assert.ok(r.stderr.includes(`at offset ${offsets[CUT]}`), r.stderr);
            assert.ok(r.stderr.includes(`after ${CUT} good documents`), r.stderr);
        });

        it('reports a bad byte inside a document at its offset in the file', function () {
            const r = runs.validateBadType;
            assert.strictEqual(r.code, 1);
            assert.ok(r.stderr.includes(paths['badtype.bson']), r.stderr);
            assert.ok(r.stderr.includes('unknown BSON type 0x42'), r.stderr);
            assert.ok(r.stderr.includes(`at offset ${offsets[BAD_TYPE] + 4} `), r.stderr);
        });

        it('reports an impossible length at the document that declares it', function () {
            [-7, 3, 0x7fffffff].forEach((len, i) => {
                const r = runs[`validateBadLength${i}`];
                assert.strictEqual(r.code, 1, r.stderr);
                assert.ok(r.stderr.includes(`length ${len}`), r.stderr);
                assert.ok(r.stderr.includes(`at offset ${offsets[BAD_LENGTH]}`), r.stderr);
            });
        });

        it('takes --max-document-size', function () {
            assert.strictEqual(runs.validateMaxOk.code, 0, runs.validateMaxOk.stderr);
            const r = runs.validateMaxLow;
            assert.strictEqual(r.code, 1);
            assert.ok(/exceeds the limit of \d+ bytes \(--max-document-size raises it\) at offset \d+/.test(r.stderr), r.stderr);
            assert.ok(!r.stderr.includes('maxDocumentSize'), r.stderr);
        });
    });

    describe('stat', function () {
        it('counts documents, sizes, nesting and types', function () {
            const r = runs.statJson;
            assert.strictEqual(r.code, 0, r.stderr);
            assert.strictEqual(r.stderr, '');
            const report = JSON.parse(r.stdout.toString());
            const expected = expectedStats(docs);
            assert.strictEqual(report.file, file);
            assert.strictEqual(report.documents, COUNT);
            assert.strictEqual(report.bytes, bytes.length);
            assert.strictEqual(report.smallest, Math.min(...sizes));
            assert.strictEqual(report.largest, Math.max(...sizes));
            assert.strictEqual(report.mean, Math.round((bytes.length / COUNT) * 10) / 10);
            assert.strictEqual(report.deepestNesting, expected.deepest);
            assert.deepStrictEqual(report.types, expected.types);
            assert.strictEqual(report.elements, Object.values(expected.types).reduce((a, b) => a + b, 0));
        });

        it('prints a readable report', function () {
            const r = runs.statText;
            assert.strictEqual(r.code, 0, r.stderr);
            const text = r.stdout.toString();
            assert.ok(new RegExp(`^documents:\\s+${COUNT}$`, 'm').test(text), text);
            assert.ok(new RegExp(`^bytes:\\s+${bytes.length}$`, 'm').test(text), text);
            assert.ok(/^deepest nesting:\s+\d+$/m.test(text), text);
            assert.ok(/^types:\n(  \w+\s+\d+\n)+$/m.test(text), text);
        });

        it('reports an empty input', function () {
            const r = runs.statEmpty;
            assert.strictEqual(r.code, 0, r.stderr);
            const report = JSON.parse(r.stdout.toString());
            assert.strictEqual(report.documents, 0);
            assert.strictEqual(report.smallest, null);
            assert.deepStrictEqual(report.types, {});
        });

        it('fails on damage with the file and offset', function () {
            const r = runs.statBadType;
            assert.strictEqual(r.code, 1);
            assert.strictEqual(r.stdout.toString(), '');
            assert.ok(r.stderr.startsWith(`qbson stat: ${paths['badtype.bson']}: `), r.stderr);
            assert.ok(r.stderr.includes(`at offset ${offsets[BAD_TYPE] + 4} `), r.stderr);
        });
    });

    describe('dump and load', function () {
        it('dump --canonical | load gives back the file byte for byte', function () {
            const { a, b } = runs.roundTrip;
            assert.strictEqual(a.code, 0, a.stderr);
            assert.strictEqual(b.code, 0, b.stderr);
            assert.ok(OBJECTS_FOUND(COUNT).test(a.stderr), a.stderr);
            assert.strictEqual(b.stderr, '');
            assertSameBytes(b.stdout, bytes);
        });

        it('dump --relaxed prints relaxed Extended JSON, one document a line', function () {
            const r = runs.relaxed;
            assert.strictEqual(r.code, 0, r.stderr);
            assert.ok(OBJECTS_FOUND(COUNT).test(r.stderr), r.stderr);
            const lines = r.stdout.toString().split('\n');
            assert.strictEqual(lines.pop(), '');
            assert.strictEqual(lines.length, COUNT);
            for (const i of [0, 1, 999, COUNT - 1]) {
                const doc = JSON.parse(lines[i]);
                assert.strictEqual(doc.n, i);
                assert.strictEqual(doc._id.$oid, docs[i]._id.toHexString());
            }
        });

        it('dump --canonical keeps every number typed', function () {
            const r = runs.canonical;
            assert.strictEqual(r.code, 0, r.stderr);
            const lines = r.stdout.toString().split('\n');
            assert.strictEqual(lines.length, COUNT + 1);
            assert.deepStrictEqual(JSON.parse(lines[0]).n, { $numberInt: '0' });
        });

        it('load reads standard input in odd pieces and writes -o FILE', function () {
            const r = runs.loadOut;
            assert.strictEqual(r.code, 0, r.stderr);
            assert.strictEqual(r.stdout.length, 0);
            assertSameBytes(fs.readFileSync(paths.loaded), bytes);
        });

        it('dump --pretty spreads documents over lines, and load reads them back', function () {
            const r = runs.pretty;
            assert.strictEqual(r.code, 0, r.stderr);
            const text = r.stdout.toString();
            assert.ok(text.startsWith('{\n\t"_id": {\n\t\t"$oid": '), text.slice(0, 40));
            const back = runs.prettyBack;
            assert.strictEqual(back.code, 0, back.stderr);
            assertSameBytes(back.stdout, bytes.subarray(0, offsets[200]));
        });

        it('load --array reads a JSON array of documents', function () {
            const r = runs.array;
            assert.strictEqual(r.code, 0, r.stderr);
            assertSameBytes(r.stdout, bytes.subarray(0, offsets[50]));
            assert.strictEqual(runs.arrayEmpty.code, 0, runs.arrayEmpty.stderr);
            assert.strictEqual(runs.arrayEmpty.stdout.length, 0);
        });

        it('load takes plain JSON: integers as int32 or int64, others as double', function () {
            const r = runs.loadPlain;
            assert.strictEqual(r.code, 0, r.stderr);
            const expected = qbson.encode({
                a: 1,
                b: 2.5,
                c: qbson.Long.fromNumber(4294967296),
                d: 'x',
                e: [true, null],
                f: qbson.Long.fromNumber(7),
            });
            assertSameBytes(r.stdout, expected);
        });

        it('dump of a damaged tail prints every document before it, then fails with the offset', function () {
            const r = runs.dumpCut;
            assert.strictEqual(r.code, 1);
            const [found, error] = r.stderr.split(/(?<=\n)/);
            assert.ok(OBJECTS_FOUND(CUT).test(found), r.stderr);
            assert.ok(error.startsWith(`qbson dump: ${paths['cut.bson']}: `), r.stderr);
            assert.ok(r.stderr.includes(`at offset ${offsets[CUT]}`), r.stderr);
            const lines = r.stdout.toString().split('\n');
            assert.strictEqual(lines.pop(), '');
            assert.strictEqual(lines.length, CUT);
            assert.deepStrictEqual(JSON.parse(lines[CUT - 1]).n, { $numberInt: String(CUT - 1) });
        });

        it('load reports bad JSON with the file, line and byte offset, keeping what came before', function () {
            const r = runs.loadBadJson;
            const good = '{"a": {"$numberInt": "1"}}\n';
            assert.strictEqual(r.code, 1);
            assert.ok(r.stderr.startsWith(`qbson load: ${paths.badJson}: `), r.stderr);
            assert.ok(r.stderr.includes(`at offset ${2 * good.length + 1} (line 4)`), r.stderr);
            assertSameBytes(r.stdout, Buffer.concat([qbson.encode({ a: 1 }), qbson.encode({ a: 1 })]));
        });

        it('load reports text that is not a document, and an unfinished one', function () {
            let r = runs.loadNumber;
            assert.strictEqual(r.code, 1);
            assert.ok(r.stderr.includes("found '4' at offset 9 (line 2)"), r.stderr);
            r = runs.loadArrayNoFlag;
            assert.strictEqual(r.code, 1);
            assert.ok(r.stderr.includes('--array'), r.stderr);
            r = runs.loadUnfinished;
            assert.strictEqual(r.code, 1);
            assert.ok(r.stderr.includes('input ends inside the document that starts at offset 9 (line 2)'), r.stderr);
            r = runs.loadArrayNoComma;
            assert.strictEqual(r.code, 1);
            assert.ok(r.stderr.includes("expected ',' or ']'"), r.stderr);
        });

        it('a reader that goes away early is no failure', function () {
            assert.strictEqual(runs.earlyExit.stderr, '');
            assert.strictEqual(runs.earlyExit.code, 0);
        });
    });

    describe('usage', function () {
        it('exits 2 on a usage error, saying what is wrong', function () {
            USAGE_ERRORS.forEach(([args, pattern], i) => {
                const r = runs[`usage${i}`];
                assert.strictEqual(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
                assert.ok(pattern.test(r.stderr), r.stderr);
                assert.ok(/^[^\n]+ \(see 'qbson( \w+)? --help'\)\n$/.test(r.stderr), r.stderr);
                assert.strictEqual(r.stdout.length, 0);
            });
        });

        it('with no arguments prints the program help to stderr and exits 2', function () {
            assert.strictEqual(runs.noArgs.code, 2);
            assert.ok(runs.noArgs.stderr.startsWith('Usage: qbson <command>'), runs.noArgs.stderr);
        });

        it('exits 1 on a missing file, naming it', function () {
            assert.strictEqual(runs.missing.code, 1);
            assert.strictEqual(runs.missing.stderr, `qbson validate: ${paths.missing}: no such file or directory\n`);
        });

        it('--help for the program and for each command', function () {
            for (const args of PROGRAM_HELP) {
                const r = runs[`help ${args.join(' ')}`];
                assert.strictEqual(r.code, 0);
                const text = r.stdout.toString();
                assert.ok(text.startsWith('Usage: qbson <command>'), text);
                for (const c of COMMAND_NAMES) assert.ok(text.includes(`  ${c} [FILE|-]`), text);
            }
            for (const args of COMMAND_HELP) {
                const c = args[0] === 'help' ? args[1] : args[0];
                const r = runs[`help ${args.join(' ')}`];
                assert.strictEqual(r.code, 0);
                assert.strictEqual(r.stderr, '');
                assert.ok(r.stdout.toString().startsWith(`Usage: qbson ${c} [options] [FILE|-]`), r.stdout.toString());
            }
            const dumpHelp = runs['help dump --help'].stdout.toString();
            for (const o of ['--canonical', '--pretty', '--out', '--quiet']) assert.ok(dumpHelp.includes(o), o);
        });

        it('--version prints the package version', function () {
            assert.strictEqual(runs.version.code, 0);
            assert.strictEqual(runs.version.stdout.toString(), `qbson ${require('../package.json').version}\n`);
        });
    });
});

describe('qbson load: cutting JSON text into documents', function () {
    const { JSONObjectSplitter } = require('../lib/cli/json-values');

    function split(chunks, opts) {
        const splitter = new JSONObjectSplitter(opts);
        const out = [];
        for (const c of chunks) splitter.push(c, out);
        splitter.end();
        const docs = [];
        for (let i = 0; i < out.length; i += 3) docs.push({ text: out[i].toString(), offset: out[i + 1], line: out[i + 2] });
        return docs;
    }

    // strings holding quotes, backslash runs of both parities, brackets and braces
    const objects = [
        '{"a": "x\\"}y", "b": "\\\\", "c": "\\\\\\"{", "d": ["[", "]", {"e": "}"}]}',
        '{\n  "pretty": {\n    "k": "v\\\\"\n  },\n  "n": [1, 2]\n}',
        '{}',
        '{"s": "\\u00e9 é 日本 😀", "t": "\\\\\\\\"}',
    ];
    const text = Buffer.from(`\ufeff${objects[0]}\n${objects[1]}\n\n  ${objects[2]}${objects[3]}\r\n`);
    const expected = [];
    {
        let from = 0;
        for (const o of objects) {
            const offset = text.indexOf(o, from);
            expected.push({ text: o, offset, line: text.subarray(0, offset).toString().split('\n').length });
            from = offset + Buffer.byteLength(o);
        }
    }

    it('finds each document, its offset and its line, however the text is cut', function () {
        assert.deepStrictEqual(split([text]), expected);
        for (let i = 0; i <= text.length; i++) {
            for (let j = i; j <= text.length; j += 3) {
                const docs = split([text.subarray(0, i), text.subarray(i, j), text.subarray(j)]);
                if (JSON.stringify(docs) !== JSON.stringify(expected)) assert.deepStrictEqual(docs, expected, `cut at ${i}, ${j}`);
            }
        }
        const bytes = [];
        for (let i = 0; i < text.length; i++) bytes.push(text.subarray(i, i + 1));
        assert.deepStrictEqual(split(bytes), expected);
    });

    it('in array mode, finds the elements of one array', function () {
        const array = Buffer.from(` [ ${objects.join(' ,\n')} ]\n`);
        const docs = split([array], { array: true });
        assert.deepStrictEqual(
            docs.map((d) => d.text),
            objects
        );
        for (let i = 0; i <= array.length; i++) {
            const cut = split([array.subarray(0, i), array.subarray(i)], { array: true });
            assert.deepStrictEqual(cut, docs, `cut at ${i}`);
        }
    });

    it('refuses text longer than the limit while gathering it', function () {
        const splitter = new JSONObjectSplitter({ maxObjectSize: 100 });
        splitter.push(Buffer.from('{"a": "'), []);
        assert.throws(() => splitter.push(Buffer.from('x'.repeat(200)), []), /longer than 100 bytes at offset 0 \(line 1\)/);
    });
});

// --- bsondump's own test data (test/fixtures/bsondump, from mongo-tools) ---

const FIXTURES = path.join(__dirname, 'fixtures', 'bsondump');
const fixture = (name) => path.join(FIXTURES, name);

function documentsOf(buf) {
    const docs = [];
    for (let pos = 0; pos < buf.length; pos += buf.readInt32LE(pos)) docs.push(buf.subarray(pos, pos + buf.readInt32LE(pos)));
    return docs;
}

// a document's bytes from its elements' bytes (type, key, value)
function rawDocument(...elements) {
    const body = Buffer.concat(elements.map(([type, key, value]) => Buffer.concat([Buffer.from([type]), Buffer.from(key, 'latin1'), Buffer.from([0]), value])));
    const doc = Buffer.alloc(body.length + 5);
    doc.writeInt32LE(doc.length, 0);
    body.copy(doc, 4);
    return doc;
}

function rawString(bytes) {
    const b = Buffer.alloc(bytes.length + 5);
    b.writeInt32LE(bytes.length + 1, 0);
    Buffer.from(bytes).copy(b, 4);
    return b;
}

describe('qbson dump speaks bsondump', function () {
    // every expected output in bsondump's test data, next to the file it is made from
    const EXPECTED = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.json') && fs.existsSync(fixture(f.replace(/\.json$/, '.bson'))));
    const BAD_FILES = ['bad_cstring.bson', 'bad_type.bson', 'invalid_field_name.bson', 'partial_file.bson', 'random_bytes.bson'];

    itAsync('prints byte for byte what bsondump is expected to print', async function () {
        assert.ok(EXPECTED.length >= 1);
        for (const name of EXPECTED) {
            const expected = fs.readFileSync(fixture(name));
            const bson = fixture(name.replace(/\.json$/, '.bson'));
            // the three ways bsondump's tests give it the file
            for (const args of [['dump', bson], ['dump', '--bsonFile', bson], ['dump', '-']]) {
                const r = await qbsonRun(args, args[1] === '-' ? { stdinFile: bson } : {});
                assert.strictEqual(r.code, 0, r.stderr);
                assertSameBytes(r.stdout, expected);
                assert.ok(OBJECTS_FOUND(documentsOf(fs.readFileSync(bson)).length).test(r.stderr), r.stderr);
            }
        }
    });

    itAsync('dump | load gives back every file that passes validate, byte for byte', async function () {
        const outcome = {};
        for (const name of fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.bson'))) {
            const dumped = await qbsonRun(['dump', '-q', fixture(name)]);
            if (dumped.code !== 0) continue;
            const back = await qbsonRun(['load'], { input: dumped.stdout });
            assert.strictEqual(back.code, 0, back.stderr);
            const valid = (await qbsonRun(['validate', fixture(name)])).code === 0;
            outcome[name] = { valid, same: back.stdout.equals(fs.readFileSync(fixture(name))) };
        }
        assert.deepStrictEqual(outcome, {
            'all_in_one_doc.bson': { valid: true, same: true },
            'all_types.bson': { valid: true, same: true },
            'broken_array.bson': { valid: false, same: false },
            'deep_nested.bson': { valid: true, same: true },
            'sample.bson': { valid: true, same: true },
        });
    });

    itAsync('--outFile writes the same bytes as standard output', async function () {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-outfile-'));
        try {
            const out = path.join(dir, 'out.json');
            const r = await qbsonRun(['dump', '--outFile', out, '--bsonFile', fixture('sample.bson')]);
            assert.strictEqual(r.code, 0, r.stderr);
            assertSameBytes(fs.readFileSync(out), fs.readFileSync(fixture('sample.json')));
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    itAsync('writes every type as the Go driver does (bsondump TestBsondumpAllTypesJSON)', async function () {
        // bson.MarshalExtJSON(doc, canonical) of the test's document, which all_in_one_doc.bson holds
        const expected = {
            double: { $numberDouble: '2.0' },
            string: 'hi',
            doc: { x: { $numberInt: '1' } },
            arr: [{ $numberInt: '1' }, { $numberInt: '2' }],
            binary: { $binary: { base64: '//8=', subType: '00' } },
            oid: { $oid: '507f1f77bcf86cd799439011' },
            bool: true,
            date: { $date: { $numberLong: '978312200000' } },
            code: { $code: 'hi', $scope: { x: { $numberInt: '1' } } },
            ts: { $timestamp: { t: 1, i: 2 } },
            int32: { $numberInt: '5' },
            int64: { $numberLong: '6' },
            dec: { $numberDecimal: '1.2E+10' },
            minkey: { $minKey: 1 },
            maxkey: { $maxKey: 1 },
            regex: { $regularExpression: { pattern: '^abc', options: 'imx' } },
            symbol: { $symbol: 'i am a symbol' },
            undefined: { $undefined: true },
            dbpointer: { $dbPointer: { $ref: 'some.namespace', $id: { $oid: '507f1f77bcf86cd799439011' } } },
            null: null,
        };
        const r = await qbsonRun(['dump', '--type=json', fixture('all_in_one_doc.bson')]);
        assert.strictEqual(r.code, 0, r.stderr);
        assert.ok(OBJECTS_FOUND(1).test(r.stderr), r.stderr);
        const text = r.stdout.toString();
        assert.strictEqual(text, JSON.stringify(expected) + '\n');
    });

    itAsync('--type=debug gives each field its type and size (bsondump TestBsondumpAllTypesDebug)', async function () {
        const r = await qbsonRun(['dump', '--type=debug', fixture('all_types.bson')]);
        assert.strictEqual(r.code, 0, r.stderr);
        const text = r.stdout.toString();
        assert.strictEqual(text.split('--- new object ---').length - 1, 22);
        for (const t of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 18, -1, 127]) assert.ok(new RegExp(`type:\\s+${t} `).test(text), `type ${t}`);
        // the layout, worked out from the first document's bytes
        const first = documentsOf(fs.readFileSync(fixture('all_types.bson')))[0];
        const doc = qbson.decode(first);
        const lines = text.split('\n');
        assert.strictEqual(lines[0], '--- new object ---');
        assert.strictEqual(lines[1], `\tsize : ${first.length}`);
        assert.strictEqual(lines[2], '\t\t_id');
        assert.strictEqual(lines[3], `\t\t\ttype:    7 size: ${1 + 4 + 12}`);
        assert.strictEqual(lines[4], '\t\ttype');
        assert.strictEqual(lines[5], `\t\t\ttype:    2 size: ${1 + 5 + 4 + Buffer.byteLength(doc.type) + 1}`);
        // nested documents three tabs further in
        assert.ok(/\n\t\t\t--- new object ---\n\t\t\t\tsize : \d+\n\t\t\t\t\t0\n\t\t\t\t\t\ttype:    1 size: 11\n/.test(text), text);
    });

    itAsync('handles deep nesting in both output types (bsondump TestBsondumpDeepNested)', async function () {
        for (const type of ['json', 'debug']) {
            const r = await qbsonRun(['dump', `--type=${type}`, fixture('deep_nested.bson')]);
            assert.strictEqual(r.code, 0, r.stderr);
            assert.ok(r.stdout.length > 1000);
        }
    });

    itAsync('--objcheck fails on each damaged file and passes broken_array (bsondump TestBsondumpBadFiles)', async function () {
        for (const name of BAD_FILES) {
            for (const args of [['dump', '--objcheck', fixture(name)], ['dump', '--objcheck', '--type=debug', fixture(name)]]) {
                const r = await qbsonRun(args);
                assert.strictEqual(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
                assert.ok(r.stderr.includes(`qbson dump: ${fixture(name)}: `), r.stderr);
            }
        }
        for (const args of [['dump', '--objcheck', fixture('broken_array.bson')], ['dump', '--objcheck', '--type=debug', fixture('broken_array.bson')]]) {
            const r = await qbsonRun(args);
            assert.strictEqual(r.code, 0, r.stderr);
        }
    });

    itAsync('--pretty indents with tabs as bsondump does', async function () {
        const r = await qbsonRun(['dump', '--pretty', fixture('sample.bson')]);
        assert.strictEqual(r.code, 0, r.stderr);
        // Go's json.Indent(..., "\t") lays JSON out as JSON.stringify(..., '\t') does
        const lines = fs.readFileSync(fixture('sample.json'), 'utf8').trim().split('\n');
        const expected = lines.map((line) => JSON.stringify(JSON.parse(line), null, '\t') + '\n').join('');
        assert.strictEqual(r.stdout.toString(), expected);
    });

    itAsync('writes doubles in Go form, escapes U+2028/U+2029, keeps stored key order and duplicates', async function () {
        const { formatDouble } = require('../lib/cli/bsondump-json');
        const cases = [
            [1, '1.0'],
            [-0, '-0.0'],
            [2.5, '2.5'],
            [123456, '123456.0'],
            [1e6, '1E+06'],
            [1e-7, '1E-07'],
            [0.0001, '0.0001'],
            [0.00001, '1E-05'],
            [1.2345678921232e18, '1.2345678921232E+18'],
            [-1.2345678921232e18, '-1.2345678921232E+18'],
            [123456789, '1.23456789E+08'],
            [5e-324, '5E-324'],
            [1.7976931348623157e308, '1.7976931348623157E+308'],
            [Infinity, 'Infinity'],
            [-Infinity, '-Infinity'],
            [NaN, 'NaN'],
        ];
        for (const [x, text] of cases) assert.strictEqual(formatDouble(x), text, String(x));
        const double = Buffer.alloc(8);
        double.writeDoubleLE(1e6);
        const doc = rawDocument([0x02, 'b', rawString(Buffer.from('line\u2028para\u2029end'))], [0x01, '1', double], [0x02, 'b', rawString(Buffer.from('again'))]);
        const r = await qbsonRun(['dump', '-'], { input: doc });
        assert.strictEqual(r.code, 0, r.stderr);
        assert.strictEqual(r.stdout.toString(), '{"b":"line\\u2028para\\u2029end","1":{"$numberDouble":"1E+06"},"b":"again"}\n');
        const relaxed = await qbsonRun(['dump', '--relaxed', '-'], { input: doc });
        assert.strictEqual(relaxed.stdout.toString(), '{"b":"line\\u2028para\\u2029end","1":1E+06,"b":"again"}\n');
        // dates: exact past 2^53; relaxed gives ISO text for years 1970 to 9999, milliseconds only when not zero
        const date = (ms) => {
            const b = Buffer.alloc(8);
            b.writeBigInt64LE(ms);
            return b;
        };
        const dates = rawDocument([0x09, 'big', date(9007199254740993n)], [0x09, 'old', date(-1n)], [0x09, 'y2k', date(946684800000n)], [0x09, 'ms', date(946684800120n)]);
        const canonical = await qbsonRun(['dump', '-'], { input: dates });
        assert.strictEqual(canonical.stdout.toString(), '{"big":{"$date":{"$numberLong":"9007199254740993"}},"old":{"$date":{"$numberLong":"-1"}},"y2k":{"$date":{"$numberLong":"946684800000"}},"ms":{"$date":{"$numberLong":"946684800120"}}}\n');
        const relaxedDates = await qbsonRun(['dump', '--relaxed', '-'], { input: dates });
        assert.strictEqual(relaxedDates.stdout.toString(), '{"big":{"$date":{"$numberLong":"9007199254740993"}},"old":{"$date":{"$numberLong":"-1"}},"y2k":{"$date":"2000-01-01T00:00:00Z"},"ms":{"$date":"2000-01-01T00:00:00.12Z"}}\n');
    });

    itAsync('takes bsondump options: -v, -vvvv, --verbose, --quiet; refuses --type=fake, two files, FILE with --bsonFile', async function () {
        for (const flag of ['-v', '-vvvv', '--verbose']) {
            const r = await qbsonRun(['dump', flag, fixture('sample.bson')]);
            assert.strictEqual(r.code, 0, r.stderr);
            assert.ok(r.stderr.includes(`${fs.statSync(fixture('sample.bson')).size} bytes, 4 documents`), r.stderr);
        }
        const quiet = await qbsonRun(['dump', '--quiet', fixture('sample.bson')]);
        assert.strictEqual(quiet.code, 0);
        assert.ok(quiet.stdout.toString().includes('I am a string'));
        assert.strictEqual(quiet.stderr, '');
        for (const args of [
            ['dump', '--type=fake', fixture('sample.bson')],
            ['dump', fixture('sample.bson'), fixture('sample.bson')],
            ['dump', '--bsonFile', fixture('sample.bson'), fixture('sample.bson')],
            ['dump', '--noobjcheck', fixture('sample.bson')],
        ]) {
            const r = await qbsonRun(args);
            assert.strictEqual(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        }
    });

    itAsync('answers an unknown option with one line naming the nearest spelling', async function () {
        const cases = [
            [['dump', '--bsonfile', 'x.bson'], "qbson dump: unknown option '--bsonfile' (did you mean --bsonFile?) (see 'qbson dump --help')\n"],
            [['dump', '--outfile=x.json', 'x.bson'], "qbson dump: unknown option '--outfile' (did you mean --outFile?) (see 'qbson dump --help')\n"],
            [['validate', '--keepgoing', 'x.bson'], "qbson validate: unknown option '--keepgoing' (did you mean --keep-going?) (see 'qbson validate --help')\n"],
            [['dump', '--max-doc-size', '9', 'x.bson'], "qbson dump: unknown option '--max-doc-size' (did you mean --max-document-size?) (see 'qbson dump --help')\n"],
            [['stat', '--zzzzzzzz', 'x.bson'], "qbson stat: unknown option '--zzzzzzzz' (see 'qbson stat --help')\n"],
        ];
        for (const [args, message] of cases) {
            const r = await qbsonRun(args);
            assert.strictEqual(r.code, 2);
            assert.strictEqual(r.stderr, message);
        }
    });
});

describe('qbson never loses data', function () {
    const sample = () => fs.readFileSync(fixture('sample.bson'));
    const tempFilesIn = (d) => fs.readdirSync(d).filter((f) => f.endsWith('.tmp'));

    // a directory of the test's own, removed when it is done
    async function inDir(test) {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-safe-'));
        try {
            await test(dir);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    }

    itAsync('refuses to write over its input, by any name', () => inDir(async (dir) => {
        const input = path.join(dir, 'x.bson');
        fs.writeFileSync(input, sample());
        fs.symlinkSync(input, path.join(dir, 'soft.bson'));
        fs.linkSync(input, path.join(dir, 'hard.bson'));
        const json = path.join(dir, 'x.json');
        fs.writeFileSync(json, fs.readFileSync(fixture('sample.json')));
        const cases = [
            [['dump', '-o', input, input], input],
            [['dump', '--outFile', path.join(dir, 'soft.bson'), input], input],
            [['dump', '-o', path.join(dir, 'hard.bson'), input], input],
            [['dump', '-o', 'x.bson', './x.bson'], input],
            [['load', '-o', json, json], json],
        ];
        for (const [args, file] of cases) {
            const before = fs.readFileSync(file);
            const r = await qbsonRun(args, { cwd: dir });
            assert.strictEqual(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
            assert.ok(/is the input .*refusing to overwrite it/.test(r.stderr), r.stderr);
            assertSameBytes(fs.readFileSync(file), before);
        }
        // standard input that is the output file
        const r = await qbsonRun(['dump', '-o', input], { stdinFile: input });
        assert.strictEqual(r.code, 2, r.stderr);
        assertSameBytes(fs.readFileSync(input), sample());
        assert.deepStrictEqual(tempFilesIn(dir), []);
    }));

    itAsync('leaves the output file as it was when the run fails', () => inDir(async (dir) => {
        const out = path.join(dir, 'out.json');
        fs.writeFileSync(out, 'precious\n');
        const broken = path.join(dir, 'broken.bson');
        fs.writeFileSync(broken, Buffer.concat([sample(), fs.readFileSync(fixture('bad_type.bson'))]));
        let r = await qbsonRun(['dump', '-o', out, broken]);
        assert.strictEqual(r.code, 1);
        assert.strictEqual(fs.readFileSync(out, 'utf8'), 'precious\n');
        const bad = path.join(dir, 'bad.json');
        fs.writeFileSync(bad, '{"a": 1}\n{"a": }\n');
        r = await qbsonRun(['load', '-o', out, bad]);
        assert.strictEqual(r.code, 1);
        assert.strictEqual(fs.readFileSync(out, 'utf8'), 'precious\n');
        // and no new file where there was none
        r = await qbsonRun(['dump', '-o', path.join(dir, 'new.json'), broken]);
        assert.strictEqual(r.code, 1);
        assert.ok(!fs.existsSync(path.join(dir, 'new.json')));
        assert.deepStrictEqual(tempFilesIn(dir), []);
    }));

    itAsync('replaces the output only on success, keeping its mode; writes a device as it is', () => inDir(async (dir) => {
        const out = path.join(dir, 'out.json');
        fs.writeFileSync(out, 'old\n');
        fs.chmodSync(out, 0o640);
        fs.symlinkSync(out, path.join(dir, 'link.json'));
        const r = await qbsonRun(['dump', '-o', path.join(dir, 'link.json'), fixture('sample.bson')]);
        assert.strictEqual(r.code, 0, r.stderr);
        assertSameBytes(fs.readFileSync(out), fs.readFileSync(fixture('sample.json')));
        assert.strictEqual(fs.statSync(out).mode & 0o777, 0o640);
        // the link still points at the file it named
        assert.ok(fs.lstatSync(path.join(dir, 'link.json')).isSymbolicLink());
        assert.deepStrictEqual(tempFilesIn(dir), []);
        const devnull = await qbsonRun(['dump', '-o', '/dev/null', fixture('sample.bson')]);
        assert.strictEqual(devnull.code, 0, devnull.stderr);
        assert.ok(fs.statSync('/dev/null').isCharacterDevice());
    }));
});

describe('qbson --keep-going and --lenient-utf8', function () {
    const sample = fs.readFileSync(fixture('sample.bson'));
    // bad_type.bson's first document: its length intact, a type byte 0xaa in it
    const badType = documentsOf(fs.readFileSync(fixture('bad_type.bson')))[0];
    // four good documents, the damaged one, four good ones
    const salvage = Buffer.concat([sample, badType, sample]);

    itAsync('dump skips a damaged document, reports it, goes on, and exits 1', async function () {
        const r = await qbsonRun(['dump', '--keep-going', '-'], { input: salvage });
        assert.strictEqual(r.code, 1);
        const expected = fs.readFileSync(fixture('sample.json'), 'utf8');
        assert.strictEqual(r.stdout.toString(), expected + expected);
        const lines = r.stderr.split('\n');
        assert.strictEqual(lines[0], `qbson dump: <stdin>: skipped document 5 at offset ${sample.length}: unknown BSON type 0xaa for key 'a' at offset ${sample.length + 21} (byte 21 of the document at offset ${sample.length})`);
        assert.ok(OBJECTS_FOUND(9).test(lines.slice(1).join('\n')), r.stderr);
        // without it, the run ends at the damage, the count of documents printed said first, as bsondump does
        const strict = await qbsonRun(['dump', '-'], { input: salvage });
        assert.strictEqual(strict.code, 1);
        assert.strictEqual(strict.stdout.toString(), expected);
        const [found, error] = strict.stderr.split(/(?<=\n)/);
        assert.ok(OBJECTS_FOUND(4).test(found), strict.stderr);
        assert.ok(error.startsWith('qbson dump: <stdin>: unknown BSON type 0xaa'), strict.stderr);
    });

    itAsync('a salvaged file is written whole; validate and stat report every skip', async function () {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-salvage-'));
        try {
            const out = path.join(dir, 'salvaged.json');
            const r = await qbsonRun(['dump', '--keep-going', '-o', out, '-'], { input: salvage });
            assert.strictEqual(r.code, 1);
            const expected = fs.readFileSync(fixture('sample.json'), 'utf8');
            assert.strictEqual(fs.readFileSync(out, 'utf8'), expected + expected);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
        const v = await qbsonRun(['validate', '--keep-going', '-'], { input: Buffer.concat([salvage, badType]) });
        assert.strictEqual(v.code, 1);
        assert.strictEqual(v.stdout.toString(), '8 good documents, 2 damaged\n');
        assert.strictEqual(v.stderr.split('skipped document').length - 1, 2);
        const s = await qbsonRun(['stat', '--json', '--keep-going', '-'], { input: salvage });
        assert.strictEqual(s.code, 1);
        const report = JSON.parse(s.stdout.toString());
        assert.strictEqual(report.documents, 8);
        assert.strictEqual(report.skipped, 1);
        // the damaged document's elements are not counted
        assert.deepStrictEqual(report.types, { objectId: 8, double: 8, string: 10, timestamp: 4, binData: 4, object: 2 });
    });

    itAsync('damage to the lengths ends a --keep-going run as a last skip', async function () {
        const r = await qbsonRun(['dump', '--keep-going', fixture('partial_file.bson')]);
        assert.strictEqual(r.code, 1);
        assert.strictEqual(r.stdout.toString().split('\n').length - 1, 2);
        assert.ok(r.stderr.includes('the rest cannot be read: stream ends inside a document of 48 bytes'), r.stderr);
    });

    itAsync('--lenient-utf8 writes each byte of malformed UTF-8 as \\ufffd, as bsondump does', async function () {
        // 0xff is never UTF-8; e2 82 starts a three-byte sequence that 'b' cuts short; 'é' is well formed
        const doc = rawDocument([0x02, 's', rawString(Buffer.from([0x61, 0xff, 0xe2, 0x82, 0x62, 0xc3, 0xa9]))]);
        const strict = await qbsonRun(['dump', '-'], { input: doc });
        assert.strictEqual(strict.code, 1);
        assert.ok(/UTF-8/.test(strict.stderr), strict.stderr);
        const lenient = await qbsonRun(['dump', '--lenient-utf8', '-'], { input: doc });
        assert.strictEqual(lenient.code, 0, lenient.stderr);
        assert.strictEqual(lenient.stdout.toString(), '{"s":"a\\ufffd\\ufffd\\ufffdbé"}\n');
    });
});

describe('qbson validate checks array keys', function () {
    itAsync('reports broken_array.bson (keys 0, 1, 9, 3) at the offset of the bad key', async function () {
        const file = fixture('broken_array.bson');
        const bytes = fs.readFileSync(file);
        // the double element keyed '9' inside the array of 1.0, 2.0, 3.0, 4.0
        const keyOffset = bytes.indexOf(Buffer.from([0x01, 0x39, 0x00])) + 1;
        assert.ok(keyOffset > 0);
        const r = await qbsonRun(['validate', file]);
        assert.strictEqual(r.code, 1);
        assert.ok(r.stderr.includes(`array key '9' should be '2' at offset ${keyOffset} `), r.stderr);
        assert.ok(r.stderr.includes('after 11 good documents'), r.stderr);
        // decoding skips array keys by design: dump reads the file, and its round trip renumbers the keys
        const dumped = await qbsonRun(['dump', file]);
        assert.strictEqual(dumped.code, 0, dumped.stderr);
        const back = await qbsonRun(['load'], { input: dumped.stdout });
        assert.strictEqual(back.code, 0, back.stderr);
        assert.ok(!back.stdout.equals(bytes));
        assert.strictEqual(back.stdout.length, bytes.length);
    });

    itAsync('reports an array key that is not UTF-8, in a nested array and in a code scope', async function () {
        const int = Buffer.alloc(4);
        const array = rawDocument([0x10, '0', int], [0x10, '\xff', int]);
        const nested = rawDocument([0x03, 'outer', rawDocument([0x04, 'list', array])]);
        let r = await qbsonRun(['validate', '-'], { input: nested });
        assert.strictEqual(r.code, 1);
        const keyAt = nested.indexOf(Buffer.from([0x10, 0xff, 0x00])) + 1;
        assert.ok(r.stderr.includes(`array key is not valid UTF-8 at offset ${keyAt} `), r.stderr);
        const code = rawString(Buffer.from('f()'));
        const scope = rawDocument([0x04, 'a', rawDocument([0x10, '1', int])]);
        const cws = Buffer.concat([Buffer.alloc(4), code, scope]);
        cws.writeInt32LE(cws.length, 0);
        r = await qbsonRun(['validate', '-'], { input: rawDocument([0x0f, 'c', cws]) });
        assert.strictEqual(r.code, 1);
        assert.ok(r.stderr.includes("array key '1' should be '0'"), r.stderr);
        // well-numbered arrays, an empty one too, are fine
        r = await qbsonRun(['validate', '-'], { input: rawDocument([0x04, 'a', rawDocument()], [0x04, 'b', rawDocument([0x10, '0', int], [0x04, '1', rawDocument([0x10, '0', int])])]) });
        assert.strictEqual(r.code, 0, r.stderr);
        assert.strictEqual(r.stdout.toString(), 'ok 1 documents\n');
    });
});

describe('qbson messages', function () {
    itAsync('a file that is not BSON gets a hint and the flag that raises the limit', async function () {
        const r = await qbsonRun(['validate', fixture('random_bytes.bson')]);
        assert.strictEqual(r.code, 1);
        assert.ok(r.stderr.includes('is this a BSON file?'), r.stderr);
        assert.ok(r.stderr.includes('--max-document-size'), r.stderr);
        assert.ok(!r.stderr.includes('maxDocumentSize'), r.stderr);
    });

    itAsync('says "an ObjectId"', async function () {
        const r = await qbsonRun(['load'], { input: Buffer.from('{"$oid": "507f1f77bcf86cd799439011"}\n') });
        assert.strictEqual(r.code, 1);
        assert.ok(r.stderr.includes('an ObjectId cannot be encoded as a document'), r.stderr);
        assert.ok(!r.stderr.includes('a ObjectId'), r.stderr);
    });

    itAsync('every help line is a whole sentence or phrase', async function () {
        const r = await qbsonRun(['--help']);
        const help = r.stdout.toString();
        assert.ok(help.includes('-h, --help     show this help (each command has its own: qbson dump --help)\n'), help);
        assert.ok(!/for a command's\n/.test(help));
    });
});

describe('qbson progress line', function () {
    const { Progress, fitLine } = require('../lib/cli/progress');
    const { Format } = require('cli-progress');
    const ANSI = /\x1b(\[[0-9;?]*[A-Za-z]|[78])/g;

    // a terminal of the given width that keeps what is written to it
    function fakeTerminal(columns) {
        return {
            isTTY: true,
            columns,
            text: '',
            write(s) {
                this.text += s;
                return true;
            },
            on() {},
            once() {},
            removeListener() {},
        };
    }

    it('fits any width, dropping the bar before the figures', function () {
        const figures = ['45%', '1.23 MiB / 3.45 MiB', '15000 docs', 'ETA 5s', '3000 docs/s'];
        for (let width = 10; width <= 200; width++) {
            const line = fitLine('qbson dump', figures, 0.45, width, Format.BarFormat);
            assert.ok(line.length <= width - 1, `${width}: ${line}`);
        }
        const at80 = fitLine('qbson dump', figures, 0.45, 80, Format.BarFormat);
        // at 80 columns the name gives way to a shorter bar; every figure shows
        assert.strictEqual(at80, '[=======--------] 45% | 1.23 MiB / 3.45 MiB | 15000 docs | ETA 5s | 3000 docs/s');
        const at140 = fitLine('qbson dump', figures, 0.45, 140, Format.BarFormat);
        assert.strictEqual(at140, 'qbson dump [==============----------------] 45% | 1.23 MiB / 3.45 MiB | 15000 docs | ETA 5s | 3000 docs/s');
        // too narrow for the bar: every figure still shows
        const at70 = fitLine('qbson dump', figures, 0.45, 70, Format.BarFormat);
        assert.ok(!at70.includes('['), at70);
        for (const f of figures) assert.ok(at70.includes(f), at70);
        // narrower still: the least useful figures go
        const at40 = fitLine('qbson dump', figures, 0.45, 40, Format.BarFormat);
        assert.ok(at40.includes('45%') && !at40.includes('docs/s'), at40);
    });

    it('renders within 80 columns, shows bytes and documents for an input of unknown size, and gives the cursor back', function () {
        for (const size of [50 * 1024 * 1024, null]) {
            const term = fakeTerminal(80);
            const progress = new Progress('dump', size, true, term);
            progress.update(12 * 1024 * 1024, 123456);
            progress.stop();
            assert.ok(term.text.includes('\x1b[?25l'));
            assert.ok(term.text.lastIndexOf('\x1b[?25h') > term.text.lastIndexOf('\x1b[?25l'));
            const screens = term.text.replace(ANSI, '\n').split(/[\r\n]/).filter((l) => l.trim() !== '');
            assert.ok(screens.length > 0);
            for (const l of screens) assert.ok(l.length <= 79, `${l.length}: ${l}`);
            const last = screens[screens.length - 1];
            assert.ok(last.includes('12.0 MiB') && last.includes('123456 docs'), last);
            if (size === null) assert.ok(!last.includes('%') && !last.includes('['), last);
            else assert.ok(last.includes('24%') && last.includes('ETA') && last.includes('docs/s'), last);
        }
    });

    it('draws nothing when standard error is not a terminal', function () {
        const term = fakeTerminal(80);
        term.isTTY = false;
        const progress = new Progress('dump', 100, true, term);
        progress.update(50, 1);
        progress.stop();
        assert.strictEqual(term.text, '');
    });
});

describe('qbson stopped by a signal', function () {
    const { execFileSync } = require('child_process');
    const hasScript = (() => {
        try {
            execFileSync('script', ['--version'], { stdio: 'ignore' });
            return true;
        } catch (err) {
            return false;
        }
    })();

    async function waitFor(test, what) {
        const until = Date.now() + 20000;
        while (!test()) {
            if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
            await new Promise((resolve) => setTimeout(resolve, 20));
        }
    }

    // Runs `qbson dump -o OUT FIFO` on a terminal (util-linux's script), feeds it
    // four documents and keeps the pipe open, so the bar shows; then stops it.
    async function interrupt(stop) {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-signal-'));
        try {
            const fifo = path.join(dir, 'in.fifo');
            const out = path.join(dir, 'out.json');
            execFileSync('mkfifo', [fifo]);
            const child = spawn('script', ['-qfec', `exec ${process.execPath} ${BIN} dump -o ${out} ${fifo}`, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
            let screen = '';
            child.stdout.on('data', (c) => (screen += c));
            const closed = new Promise((resolve) => child.on('close', resolve));
            const writer = fs.createWriteStream(fifo);
            writer.on('error', () => {});
            writer.write(fs.readFileSync(fixture('sample.bson')));
            await waitFor(() => screen.includes('4 docs'), 'the bar');
            assert.strictEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')).length, 1);
            stop(child);
            const code = await closed;
            writer.destroy();
            return { code, screen, left: fs.readdirSync(dir).filter((f) => f !== 'in.fifo') };
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    }

    itAsync('a failure on a named pipe whose writer has stalled ends the run at once', async function () {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-fifo-'));
        const fifo = path.join(dir, 'in.fifo');
        execFileSync('mkfifo', [fifo]);
        const writer = fs.createWriteStream(fifo);
        writer.on('error', () => {});
        try {
            const started = Date.now();
            const run = qbsonRun(['dump', '-q', fifo]);
            writer.write(fs.readFileSync(fixture('bad_type.bson')));
            // the writer stays open: the damage, not the end of the pipe, ends the run
            const r = await run;
            assert.strictEqual(r.code, 1, r.stderr);
            assert.ok(r.stderr.includes('unknown BSON type 0xaa'), r.stderr);
            assert.ok(Date.now() - started < 10000, `${Date.now() - started} ms`);
        } finally {
            writer.destroy();
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    function nodeUnder(scriptPid) {
        return Number(fs.readFileSync(`/proc/${scriptPid}/task/${scriptPid}/children`, 'utf8').trim().split(' ')[0]);
    }

    for (const [name, stop, status] of [
        ['Ctrl-C', (child) => child.stdin.write('\x03'), 130],
        ['SIGTERM', (child) => process.kill(nodeUnder(child.pid), 'SIGTERM'), 143],
    ]) {
        // util-linux's script gives the command a terminal; without it the case is skipped
        (hasScript ? itAsync : it.skip)(`${name} while the bar shows: the cursor comes back, no file is left, exit ${status}`, async function () {
            const r = await interrupt(stop);
            assert.strictEqual(r.code, status, r.screen);
            const hidden = r.screen.lastIndexOf('\x1b[?25l');
            assert.ok(hidden !== -1, r.screen);
            assert.ok(r.screen.indexOf('\x1b[?25h', hidden) !== -1, JSON.stringify(r.screen));
            assert.deepStrictEqual(r.left, []);
        });
    }
});

describe('qbson dump on mutated documents', function () {
    const { decodeAt } = require('../lib/stream');
    const { toBsondumpJSON } = require('../lib/cli/bsondump-json');
    const { toBsondumpDebug } = require('../lib/cli/bsondump-debug');
    const { checkArrayKeys } = require('../lib/cli/array-keys');

    it('writes JSON that parses for every document the decoder accepts, and throws nothing else', function () {
        const seeds = ['all_types', 'all_in_one_doc', 'sample'].flatMap((f) => documentsOf(fs.readFileSync(fixture(`${f}.bson`))));
        const rnd = mulberry32(19);
        const bytes = [0, 0xff, 0x80, 0x7f, 0x01, 0x02, 0x04, 0x0f, 0x13, 0x22, 0x5c];
        let accepted = 0;
        for (let n = 0; n < 20000; n++) {
            const doc = Buffer.from(seeds[Math.floor(rnd() * seeds.length)]);
            for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) {
                doc[4 + Math.floor(rnd() * (doc.length - 5))] = rnd() < 0.5 ? bytes[Math.floor(rnd() * bytes.length)] : Math.floor(rnd() * 256);
            }
            for (const validation of [undefined, { utf8: false }]) {
                try {
                    decodeAt(doc, 0, { bsonRegExp: true, validation });
                } catch (err) {
                    assert.ok(err instanceof qbson.BSONError, err.stack);
                    continue;
                }
                accepted++;
                for (const opts of [{}, { relaxed: true }, { pretty: true }]) JSON.parse(toBsondumpJSON(doc, opts));
                assert.ok(toBsondumpDebug(doc).startsWith('--- new object ---\n'));
                try {
                    checkArrayKeys(doc, 0, false, 0);
                } catch (err) {
                    assert.ok(err instanceof qbson.BSONError, err.stack);
                }
            }
        }
        assert.ok(accepted > 5000, `${accepted} accepted`);
    });
    it("dump's line writer refuses exactly the documents the decoder refuses, and writes toBsondumpJSON's line for the others", function () {
        const { BsondumpWriter, refused } = require('../lib/bson-to-json');
        const seeds = ['all_types', 'all_in_one_doc', 'sample'].flatMap((f) => documentsOf(fs.readFileSync(fixture(`${f}.bson`))));
        const rnd = mulberry32(23);
        let accepted = 0;
        let refusedCount = 0;
        for (let n = 0; n < 10000; n++) {
            const doc = Buffer.from(seeds[Math.floor(rnd() * seeds.length)]);
            for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) doc[4 + Math.floor(rnd() * (doc.length - 5))] = Math.floor(rnd() * 256);
            for (const lenient of [false, true]) {
                const relaxed = rnd() < 0.5;
                const writer = new BsondumpWriter(relaxed, lenient);
                let decodeError = null;
                try {
                    decodeAt(doc, 0, { bsonRegExp: true, validation: lenient ? { utf8: false } : undefined });
                } catch (err) {
                    decodeError = err;
                }
                try {
                    writer.add(doc, 0, doc.length);
                } catch (err) {
                    assert.ok(refused(err), err.stack);
                    assert.ok(decodeError !== null, `the writer refuses what the decoder takes: ${doc.toString('hex')}`);
                    refusedCount++;
                    continue;
                }
                assert.strictEqual(decodeError, null, `the writer takes what the decoder refuses: ${doc.toString('hex')}`);
                accepted++;
                assert.strictEqual(writer.takeText(), toBsondumpJSON(doc, { relaxed }) + '\n');
            }
        }
        assert.ok(accepted > 2000 && refusedCount > 2000, `${accepted} accepted, ${refusedCount} refused`);
    });
});
