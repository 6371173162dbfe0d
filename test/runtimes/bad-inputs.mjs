// Bad input, one call each, that qbson must refuse with a BSONError. Node's
// outcomes are recorded when test/runtimes/build.mjs bundles the conformance
// run; every other runtime must give the same ones. `compare` narrows what must
// match where the runtime decides (how deep its call stack goes).

const GOOD = { a: { b: 'hello' } };

// a document nested `depth` levels under key 'a', written byte by byte
function deepBytes(depth) {
    const out = new Uint8Array(5 + 8 * depth);
    const view = new DataView(out.buffer);
    for (let i = 0; i <= depth; i++) {
        const start = 7 * i;
        view.setInt32(start, 5 + 8 * (depth - i), true);
        if (i < depth) out.set([0x03, 0x61, 0x00], start + 4);
    }
    return out;
}

function deepObject(depth) {
    let doc = {};
    for (let i = 0; i < depth; i++) doc = { a: doc };
    return doc;
}

function edited(q, edit) {
    const bytes = Uint8Array.from(q.encode(GOOD));
    edit(bytes, new DataView(bytes.buffer));
    return bytes;
}

const STACK = ['name', 'code'];

export const BAD_INPUTS = [
    { name: 'decode: a document cut short', run: (q) => q.decode(q.encode(GOOD).subarray(0, 10)) },
    { name: 'decode: a string length past its document', run: (q) => q.decode(edited(q, (b, v) => v.setInt32(15, 100, true))) },
    { name: 'decode: a string with no NUL at its end', run: (q) => q.decode(edited(q, (b) => (b[b.length - 3] = 0x21))) },
    { name: 'decode: a string of invalid UTF-8', run: (q) => q.decode(edited(q, (b) => (b[19] = 0xff))) },
    { name: 'decode: an unknown type byte', run: (q) => q.decode(edited(q, (b) => (b[4] = 0x2a))) },
    { name: 'decode: nesting beyond maxDepth', run: (q) => q.decode(deepBytes(600)) },
    { name: 'decode: nesting beyond the call stack', run: (q) => q.decode(deepBytes(200000), { maxDepth: 1e7 }), compare: STACK },
    { name: 'decodeAll: bytes after the last document', run: (q) => q.decodeAll(Uint8Array.of(...q.encode(GOOD), 1, 2)) },
    { name: 'get: a path through corrupt bytes', run: (q) => q.get(edited(q, (b, v) => v.setInt32(15, 100, true)), 'a.b') },
    {
        name: 'encode: a circular structure',
        run: (q) => {
            const c = {};
            c.self = c;
            return q.encode({ x: c });
        },
    },
    { name: 'encode: a key with a NUL byte', run: (q) => q.encode({ a: { 'b\u0000': 1 } }) },
    { name: 'encode: checkKeys and a key starting with $', run: (q) => q.encode({ a: [{ $bad: 1 }] }, { checkKeys: true }) },
    { name: 'encode: nesting beyond maxDepth', run: (q) => q.encode(deepObject(600)) },
    { name: 'encode: nesting beyond the call stack', run: (q) => q.encode(deepObject(200000), { maxDepth: 1e7 }), compare: STACK },
    { name: 'encodeInto: a buffer too small', run: (q) => q.encodeInto(GOOD, new Uint8Array(8)) },
    { name: 'calculateObjectSize: nesting beyond the call stack', run: (q) => q.calculateObjectSize(deepObject(200000), { maxDepth: 1e7 }), compare: STACK },
    { name: 'EJSON.parse: a malformed $oid', run: (q) => q.EJSON.parse('{"a": {"$oid": "12"}}') },
    { name: 'EJSON.parse: nesting beyond the call stack', run: (q) => q.EJSON.parse('{"a":'.repeat(100000) + '1' + '}'.repeat(100000), { maxDepth: 1e7 }), compare: STACK },
    { name: 'ObjectId: a hex string of 23 digits', run: (q) => new q.ObjectId('0123456789abcdef0123456') },
    { name: 'Decimal128.fromString: no number', run: (q) => q.Decimal128.fromString('1.2.3') },
];

// what one bad input gives: the thrown error's fields, or that nothing was thrown
export function errorOutcome(q, bad) {
    try {
        bad.run(q);
    } catch (err) {
        const fields = err && typeof err === 'object' ? err : {};
        return {
            isBSONError: err instanceof q.BSONError,
            name: String(fields.name),
            code: fields.code,
            offset: fields.offset,
            path: fields.path,
            message: String(fields.message),
        };
    }
    return { isBSONError: false, name: 'no error', message: 'nothing was thrown' };
}
