'use strict';

// index.d.ts against bson@7's bson.d.ts, export by export and member by member,
// through the TypeScript compiler API (test/support/declaration-diff.js): kind,
// generic parameters, @deprecated tags, and each member's type, optionality and
// readonly-ness. A difference is allowed only where it is compatible (a member
// only qbson has, on a class; a parameter wider; a result narrower: checked by
// compiling) and listed in docs/differences.md's "Type declarations" table, and
// every row of that table must still be a difference.

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { compare, compatibility } = require('./support/declaration-diff');

const ROOT = path.join(__dirname, '..');
const BSON_TYPES = path.join(ROOT, 'node_modules', 'bson', 'bson.d.ts');
const QBSON_TYPES = path.join(ROOT, 'index.d.ts');

// The keys in the first column of docs/differences.md's "Type declarations" table.
function listedDifferences() {
    const text = fs.readFileSync(path.join(ROOT, 'docs', 'differences.md'), 'utf8');
    const section = /^## Type declarations\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text);
    assert.ok(section, 'docs/differences.md has no "## Type declarations" section');
    const keys = [];
    for (const line of section[1].split('\n')) {
        if (!line.startsWith('| `')) continue;
        const first = line.split('|')[1];
        for (const m of first.matchAll(/`([^`]+)`/g)) keys.push(m[1]);
    }
    return keys;
}

describe('index.d.ts against bson.d.ts', function () {
    for (const nodeTypes of [true, false]) {
        const setting = nodeTypes ? 'with @types/node' : 'without @types/node';
        let diffs;
        let verdicts;

        it(`${setting}: every difference is compatible with programs written for bson`, function () {
            diffs = compare(BSON_TYPES, QBSON_TYPES, { nodeTypes });
            verdicts = compatibility(BSON_TYPES, QBSON_TYPES, diffs, { nodeTypes });
            const incompatible = diffs.filter((d) => verdicts.get(d.key) !== '')
                .map((d) => ({ key: d.key, bson: d.theirs, qbson: d.ours, why: verdicts.get(d.key) }));
            assert.deepStrictEqual(incompatible, []);
        });

        it(`${setting}: the differences are exactly those docs/differences.md lists`, function () {
            const found = [...new Set(diffs.map((d) => d.key))].sort();
            const listed = [...new Set(listedDifferences())].sort();
            assert.deepStrictEqual({ unlisted: found.filter((k) => !listed.includes(k)), stale: listed.filter((k) => !found.includes(k)) },
                { unlisted: [], stale: [] });
        });
    }

    it('the comparison sees bson\'s whole surface: its 32 runtime names and their members', function () {
        const bsonNames = Object.keys(require('bson')).filter((n) => n !== 'default');
        const { describeFile } = require('./support/declaration-diff');
        const described = describeFile(BSON_TYPES);
        for (const name of bsonNames) assert.ok(described.has(name), `${name} not among bson.d.ts's exports`);
        assert.ok(described.get('Timestamp').get('Timestamp.prototype.add').includes('@deprecated'));
        assert.ok(described.get('Long').size > 90, 'Long\'s members');
    });

    it('a made-up incompatible change is caught: a narrower parameter, a missing @deprecated, a member added to an interface', function () {
        const os = require('os');
        const text = fs.readFileSync(QBSON_TYPES, 'utf8')
            .replace('read(position: number, length: number): Uint8Array;', 'read(position: number, length: 1): Uint8Array;')
            .replace('/** @deprecated The old generic binary subtype; write SUBTYPE_DEFAULT. */\n', '')
            .replace('    __id?: string;\n', '    __id?: string;\n    extra: number;\n');
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-decl-'));
        try {
            const file = path.join(dir, 'index.d.ts');
            fs.writeFileSync(file, text);
            const diffs = compare(BSON_TYPES, file);
            const verdicts = compatibility(BSON_TYPES, file, diffs);
            for (const key of ['Binary.prototype.read', 'Binary.SUBTYPE_BYTE_ARRAY', 'ObjectIdLike.extra']) {
                assert.ok(verdicts.has(key), `${key} not found as a difference`);
                assert.notStrictEqual(verdicts.get(key), '', `${key} judged compatible`);
            }
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
