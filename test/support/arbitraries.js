'use strict';

// The generated documents of the property tests against bson@7, built with
// bson's classes: qbson must take them exactly as bson does. Shared by
// test/property.test.js and the conformance run in other runtimes
// (test/runtimes/), so it needs no Node built-in: `toBuffer(uint8Array)` makes
// the runtime's own byte buffer (a Node Buffer where there is one).

// fc: fast-check; bson: the bson module of this runtime
function documentArbitraries(fc, bson, toBuffer) {
    const key = fc.oneof(
        fc.string({ maxLength: 8 }).filter((s) => !s.includes('\u0000')),
        fc.constantFrom('_id', 'a', 'b', '$ref', '$id', '$db', '__proto__', 'constructor', 'é', '日本'),
        // keys checkKeys refuses, except where bson exempts them
        fc.constantFrom('$where', '$oid', '$a', 'a.b.c', '.', 'x.', '$clusterTime'),
        fc.string({ unit: 'binary', maxLength: 6 }).filter((s) => !s.includes('\u0000'))
    );

    const text = fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.string({ minLength: 60, maxLength: 200 })
    );

    const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    const bytes = fc.uint8Array({ maxLength: 40 });

    // Leaves built with bson's classes: qbson must take them exactly as bson does.
    const leaf = fc.oneof(
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.double(),
        fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, Number.MAX_SAFE_INTEGER),
        text,
        fc.boolean(),
        fc.constant(null),
        fc.constant(undefined),
        int64,
        fc.integer({ min: -8.64e15, max: 8.64e15 }).map((t) => new Date(t)),
        fc.constantFrom(/ab+c/, /x/gi, /^\d+$/m, /[é]/, /a/imsu).map((r) => new RegExp(r.source, r.flags)),
        bytes.map((b) => toBuffer(b)),
        bytes,
        fc.uint8Array({ minLength: 12, maxLength: 12 }).map((b) => new bson.ObjectId(b)),
        int64.map((n) => bson.Long.fromBigInt(n)),
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((n) => new bson.Int32(n)),
        fc.double().map((n) => new bson.Double(n)),
        fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => new bson.Decimal128(toBuffer(b))),
        fc.tuple(bytes, fc.constantFrom(0, 1, 2, 3, 5, 6, 7, 8, 0x80)).map(([b, t]) => new bson.Binary(toBuffer(b), t)),
        fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => new bson.UUID(toBuffer(b))),
        fc.tuple(fc.nat(), fc.nat()).map(([t, i]) => new bson.Timestamp({ t: t >>> 0, i: i >>> 0 })),
        text.map((s) => new bson.Code(s)),
        text.filter((s) => !s.includes('\u0000')).map((s) => new bson.BSONSymbol(s)),
        fc.tuple(fc.constantFrom('a.b', '^x$', ''), fc.constantFrom('', 'i', 'mi', 'xsl')).map(([p, o]) => new bson.BSONRegExp(p, o)),
        fc.constant(new bson.MinKey()),
        fc.constant(new bson.MaxKey())
    );

    const { value: docArb } = fc.letrec((tie) => ({
        value: fc.oneof(
            { depthSize: 'small', withCrossShrink: true },
            leaf,
            leaf,
            leaf,
            tie('array'),
            tie('doc'),
            tie('map'),
            tie('toBSON'),
            tie('code'),
            tie('dbref')
        ),
        array: fc.array(tie('value'), { maxLength: 6 }),
        doc: fc.dictionary(key, tie('value'), { maxKeys: 6 }),
        map: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => new Map(entries)),
        // an object standing for whatever its toBSON returns
        toBSON: tie('value').map((value) => ({ toBSON: () => value })),
        code: fc.tuple(text, tie('doc')).map(([c, scope]) => new bson.Code(c, scope)),
        dbref: fc
            .tuple(fc.string({ maxLength: 6 }), leaf, fc.option(fc.string({ maxLength: 4 }), { nil: undefined }), fc.option(tie('doc'), { nil: undefined }))
            // a DBRef field named __proto__ is a documented difference (bson drops it)
            .filter(([, , , fields]) => fields === undefined || !Object.prototype.hasOwnProperty.call(fields, '__proto__'))
            .map(([coll, id, db, fields]) => new bson.DBRef(coll, id === null || id === undefined ? 1 : id, db, fields)),
    }));
    const rootArb = fc.dictionary(key, docArb, { maxKeys: 8 });

    return { rootArb, docArb, leaf };
}

const DECODE_OPTIONS = [
    {},
    { promoteValues: false },
    { promoteLongs: false },
    { useBigInt64: true },
    { bsonRegExp: true },
    { promoteBuffers: true },
];
const ENCODE_OPTIONS = [{}, { ignoreUndefined: false }, { checkKeys: true }];

module.exports = { documentArbitraries, DECODE_OPTIONS, ENCODE_OPTIONS };
