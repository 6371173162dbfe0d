'use strict';

// UTF-8 text (lib/utf8.js), the decoder's key cache (lib/key-cache.js) and the
// encoder's key table (lib/key-table.js) against Node's own UTF-8 (Buffer) on
// seeded random input.

const assert = require('assert');
const { isUtf8 } = require('buffer');
const childProcess = require('child_process');
const path = require('path');
const { encode, decode } = require('..');
const { utf8Length, writeUtf8, writeCString, readUtf8, COLD_STRINGS } = require('../lib/utf8');
const { readKey } = require('../lib/key-cache');
const { KeyCursor, writeKey, openKeyTable, keyTableSize } = require('../lib/key-table');

function random(seed) {
    return () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
}
// bytes near the UTF-8 boundaries turn up often, so edge cases are not left to luck
const EDGE_BYTES = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
const EDGE_UNITS = [0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0xffff];

// The first COLD_STRINGS strings and keys a process decodes take the native method (lib/utf8.js):
// the tests below are of the JavaScript paths, so they begin past them, in whatever order they run.
function passColdStrings() {
    const bytes = Buffer.from('cold');
    for (let i = 0; i < COLD_STRINGS; i++) readKey(bytes, 0, 4, true);
    const doc = encode({ s: Array.from({ length: COLD_STRINGS }, () => 'cold') });
    decode(doc);
}

// In a fresh process: documents holding a seeded set of byte strings as keys and as string
// values, decoded (validating and not) while the process is cold, then again past COLD_STRINGS
// strings and keys; each decode's result or error, and what Buffer makes of each string.
function coldAndWarm() {
    const child = `
        const { decode } = require(${JSON.stringify(path.join(__dirname, '..'))});
        const { COLD_STRINGS } = require(${JSON.stringify(path.join(__dirname, '..', 'lib', 'utf8'))});
        let seed = 3;
        const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
        const texts = ['', 'a', 'name', 'a fairly long ASCII string of more than 24 characters', 'поле', '日本語のキー', '🙂x'];
        const samples = texts.map((t) => Buffer.from(t));
        samples.push(Buffer.from('61c0af62', 'hex'), Buffer.from('61eda08062', 'hex'), Buffer.from('e282', 'hex'));
        while (samples.length < 40) samples.push(Buffer.from(Array.from({ length: 1 + Math.floor(rnd() * 30) }, () => 1 + Math.floor(rnd() * 255))));
        // { <key>: <value> }
        const docOf = (key, value) => {
            const body = Buffer.concat([Buffer.from([2]), key, Buffer.from([0]), Buffer.alloc(4), value, Buffer.from([0, 0])]);
            body.writeInt32LE(value.length + 1, key.length + 2);
            const doc = Buffer.concat([Buffer.alloc(4), body]);
            doc.writeInt32LE(doc.length, 0);
            return doc;
        };
        // the key of a document read, or the value, or the error
        const outcome = (f) => { try { return f(); } catch (e) { return e.name + ': ' + e.message; } };
        const both = (doc, part) => [false, true].map((lax) => outcome(() => Object[part](decode(doc, lax ? { validation: { utf8: false } } : undefined))[0]));
        // each document of a shape of its own, so that the decoder reads it (no reader of its shape)
        const v = Buffer.from('v');
        const read = (phase) => samples.map((b, i) => [...both(docOf(b, v), 'keys'), ...both(docOf(Buffer.from(phase + i), b), 'values')]);
        const cold = read('c');
        for (let i = 0; i < COLD_STRINGS; i++) decode(docOf(Buffer.from('f' + i), v));
        const warm = read('w');
        const buffer = samples.map((b) => [b.toString('utf8'), b.toString('utf8')]);
        console.log(JSON.stringify({ strings: samples.length * 4, cold, warm, buffer }));`;
    return JSON.parse(childProcess.execFileSync(process.execPath, ['-e', child]).toString());
}

describe('utf8', function () {
    before(passColdStrings);

    it('the first strings and keys of a process, read natively, decode as later ones and as Buffer reads them', function () {
        const { strings, cold, warm, buffer } = coldAndWarm();
        assert.ok(strings < COLD_STRINGS, `${strings} strings fit in the first ${COLD_STRINGS}`);
        assert.deepStrictEqual(cold, warm);
        const invalid = [];
        warm.forEach(([key, keyReplaced, value, valueReplaced], i) => {
            assert.deepStrictEqual([keyReplaced, valueReplaced], buffer[i]);
            if (key !== buffer[i][0]) invalid.push(i);
            else assert.deepStrictEqual(value, buffer[i][1]);
        });
        // the three malformed samples and those of the random ones that are, refused as a key and as a value
        assert.ok(invalid.length >= 3, JSON.stringify(invalid));
        for (const i of invalid) {
            assert.match(cold[i][0], /invalid UTF-8 in key/);
            assert.match(cold[i][2], /invalid UTF-8 in string/);
        }
    });

    it('readUtf8 and readKey match Buffer.toString and isUtf8 on 100,000 random byte strings', function () {
        const rnd = random(7);
        for (let n = 0; n < 100000; n++) {
            const len = Math.floor(rnd() * 40);
            const bytes = Buffer.alloc(len);
            for (let i = 0; i < len; i++) bytes[i] = rnd() < 0.5 ? EDGE_BYTES[Math.floor(rnd() * EDGE_BYTES.length)] : Math.floor(rnd() * 256);
            const expected = bytes.toString('utf8');
            const valid = isUtf8(bytes);
            const hex = bytes.toString('hex');
            assert.strictEqual(readUtf8(bytes, 0, len, false), expected, hex);
            assert.strictEqual(readUtf8(bytes, 0, len, true), valid ? expected : undefined, hex);
            if (!bytes.includes(0)) {
                assert.strictEqual(readKey(bytes, 0, len, false), expected, hex);
                assert.strictEqual(readKey(bytes, 0, len, true), valid ? expected : undefined, hex);
            }
        }
    });

    it('readUtf8 matches Buffer.toString and isUtf8 on 20,000 texts of up to 1,200 bytes, a fifth of them damaged', function () {
        const rnd = random(11);
        // code points from each UTF-8 length, Latin-1 and the surrogate and noncharacter edges
        const pick = [
            () => 0x20 + Math.floor(rnd() * 0x5f),
            () => 0xa0 + Math.floor(rnd() * 0x60),
            () => 0x400 + Math.floor(rnd() * 0x100),
            () => 0x3040 + Math.floor(rnd() * 0x6000),
            () => 0x1f300 + Math.floor(rnd() * 0x300),
            () => EDGE_UNITS[Math.floor(rnd() * EDGE_UNITS.length)],
        ];
        for (let n = 0; n < 20000; n++) {
            const kinds = 1 + Math.floor(rnd() * 3);
            const chosen = Array.from({ length: kinds }, () => pick[Math.floor(rnd() * pick.length)]);
            let text = '';
            const chars = Math.floor(rnd() * (rnd() < 0.8 ? 40 : 400));
            for (let i = 0; i < chars; i++) text += String.fromCodePoint(chosen[Math.floor(rnd() * kinds)]());
            const body = Buffer.from(text);
            if (rnd() < 0.2 && body.length > 0) body[Math.floor(rnd() * body.length)] = EDGE_BYTES[Math.floor(rnd() * EDGE_BYTES.length)] || 0x80;
            // inside a larger buffer, at an odd place
            const at = Math.floor(rnd() * 5);
            const bytes = Buffer.concat([Buffer.alloc(at, 0x41), body, Buffer.from('xyz')]);
            const end = at + body.length;
            const expected = body.toString('utf8');
            const hex = body.toString('hex');
            assert.strictEqual(readUtf8(bytes, at, end, false), expected, hex);
            assert.strictEqual(readUtf8(bytes, at, end, true), isUtf8(body) ? expected : undefined, hex);
        }
    });

    it('ASCII strings and keys of every length up to 48 bytes, each byte value at each place', function () {
        for (let len = 0; len <= 48; len++) {
            for (let c = 1; c < 0x80; c++) {
                const bytes = Buffer.alloc(len, 0x61);
                bytes[(c * 7) % Math.max(len, 1)] = c;
                if (len === 0) bytes.fill(0);
                const expected = bytes.toString('latin1');
                assert.strictEqual(readUtf8(bytes, 0, len, true), expected);
                if (len > 0) {
                    assert.strictEqual(readKey(bytes, 0, len, true), expected);
                }
            }
        }
    });

    it('a key that is not ASCII leaves no half-written key in the slot it shares', function () {
        // same length and first, middle and last byte: one slot of readKey's cache
        const key = (text) => Buffer.from(text, 'latin1');
        assert.strictEqual(readKey(key('aXcYe'), 0, 5, false), 'aXcYe');
        // 'aZc' is copied into the slot before the byte 0xc3 sends it to the UTF-8 reader
        assert.strictEqual(readKey(key('aZc\xc3e'), 0, 5, false), 'aZc\ufffde');
        assert.strictEqual(readKey(key('aZcYe'), 0, 5, false), 'aZcYe');
    });

    it('keys that are not ASCII are kept when well-formed, and a malformed one is never served from the cache', function () {
        const keys = ['поле', 'ключ_12', 'ünïcödé', '鍵', '日本語のキー', '🙂x', 'a🙂b🙂c🙂d🙂e', 'ключ_значение_ab'];
        for (let round = 0; round < 3; round++) {
            for (const k of keys) {
                const bytes = Buffer.from('##' + k + '##');
                assert.strictEqual(readKey(bytes, 2, bytes.length - 2, true), k);
            }
        }
        // an overlong encoding of '/' (c0 af) and a lone surrogate (ed a0 80), twice each
        // with validation off then on: replaced the first way, refused the second, every time
        for (const hex of ['61c0af62', '61eda08062']) {
            const bytes = Buffer.from(hex, 'hex');
            for (let round = 0; round < 2; round++) {
                assert.strictEqual(readKey(bytes, 0, bytes.length, false), bytes.toString('utf8'));
                assert.strictEqual(readKey(bytes, 0, bytes.length, true), undefined);
            }
        }
    });

    it('readKey gives each of 150,000 distinct ASCII keys back, round after round, far more than its cache holds', function () {
        const rnd = random(5);
        const keys = [];
        for (let i = 0; i < 150000; i++) {
            let k = '';
            const len = 1 + Math.floor(rnd() * (i % 3 === 0 ? 64 : 16));
            while (k.length < len) k += String.fromCharCode(0x20 + Math.floor(rnd() * 95));
            keys.push(k);
        }
        const bytes = keys.map((k) => Buffer.from(k, 'latin1'));
        const wrong = [];
        for (let round = 0; round < 4; round++) {
            for (let i = 0; i < keys.length; i++) {
                if (readKey(bytes[i], 0, bytes[i].length, true) !== keys[i]) wrong.push(round + ': ' + keys[i]);
            }
        }
        assert.deepStrictEqual(wrong, []);
    });

    it('writeUtf8 and utf8Length match Buffer.from on 50,000 random strings, lone surrogates included', function () {
        const rnd = random(11);
        const out = Buffer.alloc(1024);
        for (let n = 0; n < 50000; n++) {
            const len = Math.floor(rnd() * 100);
            let str = '';
            for (let i = 0; i < len; i++) {
                str += String.fromCharCode(rnd() < 0.5 ? EDGE_UNITS[Math.floor(rnd() * EDGE_UNITS.length)] : Math.floor(rnd() * 0x10000));
            }
            const expected = Buffer.from(str, 'utf8');
            const end = writeUtf8(out, 3, str);
            assert.strictEqual(out.subarray(3, end).toString('hex'), expected.toString('hex'));
            assert.strictEqual(utf8Length(str), expected.length);
        }
    });

    it('writeCString refuses a NUL anywhere, short or long, ASCII or not', function () {
        const out = Buffer.alloc(1024);
        for (const s of ['\u0000', 'a\u0000', 'é\u0000', 'x'.repeat(100) + '\u0000', 'é'.repeat(10) + '\u0000b']) {
            assert.strictEqual(writeCString(out, 0, s), -1, JSON.stringify(s));
        }
        assert.strictEqual(writeCString(out, 0, 'é'), 3);
        assert.strictEqual(out.subarray(0, 3).toString('hex'), 'c3a900');
    });

    describe('writeKey', function () {
        const out = Buffer.alloc(1024);
        const view = new DataView(out.buffer, out.byteOffset, out.length);
        // one place in the key sequence for the tests on the shared table, never restarted
        const sharedCursor = new KeyCursor();
        // the shared table open, as after a process's first encode (this file may run first)
        before(() => openKeyTable());
        function randomKey(rnd) {
            const len = 1 + Math.floor(rnd() * 40);
            let str = '';
            for (let i = 0; i < len; i++) {
                const unit = rnd() < 0.3 ? EDGE_UNITS[Math.floor(rnd() * EDGE_UNITS.length)] : 0x20 + Math.floor(rnd() * 0x5f);
                str += String.fromCharCode(unit);
            }
            return str;
        }
        function assertWritesKey(key, pos) {
            const expected = Buffer.from(key + '\u0000', 'utf8');
            const end = writeKey(sharedCursor, out, view, pos, key);
            assert.strictEqual(out.subarray(pos, end).toString('hex'), expected.toString('hex'), JSON.stringify(key));
        }

        // a fresh copy of the module (its table starts empty, as in a new process), and a
        // check that its writeKey writes what Buffer.from writes
        function freshKeyWriter() {
            const modulePath = require.resolve('../lib/key-table');
            const shared = require.cache[modulePath];
            delete require.cache[modulePath];
            const fresh = require('../lib/key-table');
            require.cache[modulePath] = shared;
            // open, as a process's encodes after its first find it: shut, it enters no key
            fresh.openKeyTable();
            const cursor = new fresh.KeyCursor();
            // writes through `by` (cursor unless given)
            function check(key, pos, by) {
                const end = fresh.writeKey(by || cursor, out, view, pos, key);
                assert.strictEqual(out.subarray(pos, end).toString('hex'), Buffer.from(key + '\u0000').toString('hex'), key);
            }
            return { fresh, cursor, check };
        }
        // each test of a fresh writer ends with keys in its table: what it wrote went through it
        function assertEntered(fresh) {
            assert.ok(fresh.keyTableSize() > 0, 'no key entered in the table');
        }

        it('writes what Buffer.from writes, the first time and when the key is known', function () {
            const rnd = random(13);
            const keys = [];
            for (let n = 0; n < 5000; n++) keys.push(randomKey(rnd));
            for (let round = 0; round < 3; round++) {
                for (let n = 0; n < keys.length; n++) {
                    assertWritesKey(keys[n], (n * 7 + round) % 500);
                    // (5,000 keys seen once fill the table unused, which then rests: entered before that)
                    if (round === 0 && n === 100) assert.ok(keyTableSize() > 0, 'no key entered in the table');
                }
            }
        });
        it('refuses a NUL every time, and writes long keys whole', function () {
            for (let round = 0; round < 3; round++) {
                for (const s of ['\u0000', 'a\u0000', 'é\u0000', 'x'.repeat(100) + '\u0000']) {
                    assert.strictEqual(writeKey(sharedCursor, out, view, 0, s), -1, JSON.stringify(s));
                }
                assertWritesKey('k'.repeat(63), 1);
                assertWritesKey('k'.repeat(64), 2);
                assertWritesKey('é'.repeat(40), 3);
            }
        });
        it('writes a repeated sequence of keys exactly, also after the table was emptied and refilled', function () {
            const { fresh, cursor, check } = freshKeyWriter();
            const shape = ['alpha', 'bravo', 'charlie', 'é-key'];
            for (let round = 0; round < 3; round++) {
                fresh.restartKeys(cursor);
                shape.forEach((k, i) => check(k, i * 40));
                // then each of 5,000 keys three times: the table fills with reused keys and
                // is emptied, and later keys take the words that the shape's keys had
                for (let n = 0; n < 5000; n++) {
                    for (let k = 0; k < 3; k++) check('filler' + n, k * 100);
                }
            }
            assertEntered(fresh);
        });
        it('writes each key exactly whether or not it follows the key that followed its predecessor last time', function () {
            // records of one shape, then with fields left out, reordered and renamed, past
            // the first 1,024 keys of an encode, and across encodes
            const rnd = random(19);
            const shape = ['title', 'price', 'count', 'créé', 'tags', 'point', 'x'.repeat(60)];
            const { fresh, cursor, check } = freshKeyWriter();
            for (let round = 0; round < 4; round++) {
                fresh.restartKeys(cursor);
                for (let record = 0; record < 3000; record++) {
                    const keys = round === 0 ? shape : shape.filter(() => rnd() < 0.8).sort(() => rnd() - 0.5);
                    if (round === 3 && rnd() < 0.1) keys.push(shape[0] + record);
                    for (let i = 0; i < keys.length; i++) check(keys[i], (record * 13 + i * 50) % 900);
                }
            }
            assertEntered(fresh);
        });
        it('writes the keys of maps that each have keys of their own exactly, encoded in turn and after changes', function () {
            // each key's place in the sequence holds another map's key (id_keyed_maps), while its
            // predecessor's successor is itself from the last round, until the maps change
            const rnd = random(23);
            const maps = Array.from({ length: 200 }, () => Array.from({ length: 20 }, () => 'u' + Math.floor(rnd() * 0xfffffff).toString(16)));
            const { fresh, cursor, check } = freshKeyWriter();
            for (let round = 0; round < 4; round++) {
                for (const keys of maps) {
                    fresh.restartKeys(cursor);
                    const written = round === 3 ? keys.slice().reverse().concat('u' + round) : keys;
                    written.forEach((k, i) => check(k, (i * 37) % 900));
                }
            }
            assertEntered(fresh);
        });
        it('a nested encode has a cursor of its own and leaves the outer one at its place', function () {
            const { fresh, cursor, check } = freshKeyWriter();
            const outer = ['outerOne', 'outerTwo', 'outerThree', 'outerFour', 'outerFive'];
            const inner = ['innerOne', 'innerTwo', 'innerThree'];
            for (let round = 0; round < 3; round++) {
                fresh.restartKeys(cursor);
                outer.slice(0, 2).forEach((k, i) => check(k, i * 40));
                const nested = new fresh.KeyCursor();
                inner.forEach((k, i) => check(k, 300 + i * 40, nested));
                assert.strictEqual(nested.keyAt, inner.length);
                assert.strictEqual(cursor.keyAt, 2);
                outer.slice(2).forEach((k, i) => check(k, 80 + i * 40));
                assert.strictEqual(cursor.keyAt, outer.length);
            }
            assertEntered(fresh);
        });
        it('writes more than 1,024 keys too long for the table, first thing in a process', function () {
            // none of them enters the table, so the successors' arrays are still to be made
            const { fresh, cursor, check } = freshKeyWriter();
            fresh.restartKeys(cursor);
            for (let n = 0; n < 1100; n++) check('k'.repeat(70) + n, n % 300);
            for (let n = 0; n < 1100; n++) check('key' + (n % 50), n % 300);
            assertEntered(fresh);
        });
        it('stays exact through a long run of keys never seen before, and after it', function () {
            const rnd = random(17);
            const known = ['_id', 'name', 'value', 'é', 'x'.repeat(30)];
            for (let n = 0; n < 300000; n++) {
                assertWritesKey('k' + n.toString(36), n % 200);
                if (n % 1000 === 0) for (const k of known) assertWritesKey(k, Math.floor(rnd() * 500));
            }
            for (let n = 0; n < 20000; n++) assertWritesKey(known[n % known.length], n % 300);
        });
    });
});
