'use strict';

// qbson dump --fields and qbson stat --field: what they print, worked out from
// full decodes of the same documents, and their errors.

const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const qbson = require('..');
const P = require('./support/paths');

const BIN = path.join(__dirname, '..', 'bin', 'qbson');
const DOCS = [
    { _id: 1, level: 'info', ctx: { ip: '1.2.3.4', method: 'GET' }, items: [{ price: 1.5, n: 1 }, { price: 2 }, 7] },
    { _id: 2, level: 'warn', ctx: { method: 'PUT' } },
    { _id: 3, level: 'info', n: qbson.Long.fromString('9007199254740993') },
    { _id: 4, level: null, ctx: 'not a document' },
    { _id: 5 },
];

function run(args, input) {
    const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('qbson dump --fields and stat --field', function () {
    let dir;
    let file;
    before(function () {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-fields-'));
        file = path.join(dir, 'logs.bson');
        fs.writeFileSync(file, Buffer.concat(DOCS.map((d) => qbson.encode(d))));
    });
    after(function () {
        fs.rmSync(dir, { recursive: true, force: true });
    });

    it('dump --fields prints each document projected, as canonical Extended JSON', function () {
        const fields = ['level', 'ctx.method', 'items.price'];
        const r = run(['dump', '-q', '--fields', fields.join(','), file]);
        assert.strictEqual(r.code, 0, r.stderr);
        const lines = r.stdout.trim().split('\n');
        assert.strictEqual(lines.length, DOCS.length);
        lines.forEach((line, i) => {
            const bytes = qbson.encode(DOCS[i]);
            const expected = P.project(qbson.decode(bytes, { promoteValues: false }), fields.map((f) => f.split('.')));
            assert.strictEqual(line, qbson.EJSON.stringify(expected, { relaxed: false }), `document ${i}`);
        });
    });

    it('dump --fields --relaxed, and refuses an empty path or --type=debug', function () {
        assert.strictEqual(run(['dump', '-q', '--relaxed', '--fields', '_id', file]).stdout.split('\n')[0], '{"_id":1}');
        for (const args of [['--fields', 'a,,b'], ['--fields', ''], ['--fields', 'a', '--type=debug']]) {
            const r = run(['dump', '-q', ...args, file]);
            assert.strictEqual(r.code, 2, r.stderr);
        }
    });

    it('dump --fields reads past damage it does not touch, and names the offset of damage it does', function () {
        const bytes = qbson.encode({ a: 1, b: 'tail' });
        bytes[bytes.length - 3] = 0xff; // invalid UTF-8 in b
        const ok = run(['dump', '-q', '--fields', 'a', '-'], Buffer.concat([bytes, bytes]));
        assert.strictEqual(ok.code, 0, ok.stderr);
        assert.strictEqual(ok.stdout, '{"a":{"$numberInt":"1"}}\n'.repeat(2));
        const bad = run(['dump', '-q', '--fields', 'b', '-'], Buffer.concat([qbson.encode({ b: 'x' }), bytes]));
        assert.strictEqual(bad.code, 1);
        assert.ok(/UTF-8.* at offset 32\b/.test(bad.stderr), bad.stderr);
    });

    it('stat --field counts presence, types, min, max and frequent values', function () {
        const r = run(['stat', '-q', '--json', '--field', 'level', file]);
        assert.strictEqual(r.code, 0, r.stderr);
        const field = JSON.parse(r.stdout).field;
        assert.deepStrictEqual(field, {
            path: 'level',
            present: 4,
            missing: 1,
            types: { string: 3, null: 1 },
            // null sorts below every string
            min: null,
            max: 'warn',
            distinct: 3,
            top: [{ value: 'info', count: 2 }, { value: 'warn', count: 1 }, { value: null, count: 1 }],
        });
        const ids = JSON.parse(run(['stat', '-q', '--json', '--field', '_id', file]).stdout).field;
        assert.deepStrictEqual([ids.min, ids.max, ids.present], [{ $numberInt: '1' }, { $numberInt: '5' }, 5]);
        const nested = JSON.parse(run(['stat', '-q', '--json', '--field', 'items.0.price', file]).stdout).field;
        assert.deepStrictEqual([nested.present, nested.max], [1, { $numberDouble: '1.5' }]);
    });

    it('stat --field orders values of every type as MongoDB sorts them', function () {
        const values = [
            new qbson.MaxKey(), 'b', 'a', 3, 2.5, qbson.Long.fromString('9007199254740993'), qbson.Long.fromString('9007199254740992'),
            new qbson.Decimal128('1.5'), new Date(5), new Date(1), true, false, new qbson.ObjectId('000000000000000000000002'),
            new qbson.ObjectId('000000000000000000000001'), new qbson.Timestamp({ t: 2, i: 0 }), new qbson.Timestamp({ t: 1, i: 9 }),
            null, new qbson.MinKey(), { d: 1 }, [1], new qbson.Binary(Buffer.from('x')), new qbson.BSONRegExp('x', 'i'),
            new qbson.Code('c'), new qbson.Code('c', { s: 1 }), new qbson.BSONSymbol('s'), NaN,
        ];
        const bytes = Buffer.concat(values.map((v) => qbson.encode({ v })));
        const types = (list) => JSON.parse(run(['stat', '-q', '--json', '--field', 'v', '-'], Buffer.concat(list.map((v) => qbson.encode({ v })))).stdout).field;
        const all = JSON.parse(run(['stat', '-q', '--json', '--field', 'v', '-'], bytes).stdout).field;
        assert.strictEqual(all.present, values.length);
        assert.deepStrictEqual(Object.keys(all.types).sort(), ['array', 'binData', 'bool', 'date', 'decimal', 'double', 'int', 'javascript',
            'javascriptWithScope', 'long', 'maxKey', 'minKey', 'null', 'object', 'objectId', 'regex', 'string', 'symbol', 'timestamp']);
        assert.deepStrictEqual([all.min, all.max], [{ $minKey: 1 }, { $maxKey: 1 }]);
        const within = (list) => {
            const f = types(list);
            return [f.min, f.max];
        };
        assert.deepStrictEqual(within([3, 2.5, NaN, qbson.Long.fromString('9007199254740993'), new qbson.Decimal128('1.5')]),
            [{ $numberDouble: 'NaN' }, { $numberLong: '9007199254740993' }]);
        assert.deepStrictEqual(within([qbson.Long.fromString('9007199254740993'), qbson.Long.fromString('9007199254740992')]),
            [{ $numberLong: '9007199254740992' }, { $numberLong: '9007199254740993' }]);
        assert.deepStrictEqual(within(['b', 'a', new qbson.BSONSymbol('c')]), ['a', { $symbol: 'c' }]);
        assert.deepStrictEqual(within([new Date(5), new Date(1)]), [{ $date: { $numberLong: '1' } }, { $date: { $numberLong: '5' } }]);
        assert.deepStrictEqual(within([true, false]), [false, true]);
        assert.deepStrictEqual(within([new qbson.ObjectId('000000000000000000000002'), new qbson.ObjectId('000000000000000000000001')]),
            [{ $oid: '000000000000000000000001' }, { $oid: '000000000000000000000002' }]);
        assert.deepStrictEqual(within([new qbson.Timestamp({ t: 2, i: 0 }), new qbson.Timestamp({ t: 1, i: 9 })]),
            [{ $timestamp: { t: 1, i: 9 } }, { $timestamp: { t: 2, i: 0 } }]);
        // documents, arrays and the other types are counted, not ordered
        assert.deepStrictEqual(within([{ d: 1 }, [1]]), [null, null]);
    });

    it('stat --field prints its section in the text report', function () {
        const r = run(['stat', '-q', '--field', 'ctx.method', file]);
        assert.strictEqual(r.code, 0, r.stderr);
        assert.ok(r.stdout.includes('field ctx.method:\n  present:       2\n  missing:       3\n'), r.stdout);
        assert.strictEqual(run(['stat', '-q', '--field', '', file]).code, 2);
    });
});
