'use strict';

// Turns a decoded value (with qbson's or bson's type classes) into a plain tree
// that assert.deepStrictEqual can compare across the two libraries: every typed
// value becomes {type, ...its content}, numbers keep -0 and NaN apart.
// It needs no Node built-in: test/runtimes/ runs it in browsers and Deno too,
// where a Node Buffer is told apart from a Uint8Array only if Buffer exists.

const NodeBuffer = typeof Buffer === 'function' ? Buffer : null;

function hex(bytes, length) {
    const end = length === undefined ? bytes.length : length;
    let out = '';
    for (let i = 0; i < end; i++) out += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    return out;
}

function normalizeNumber(n) {
    if (Number.isNaN(n)) return 'NaN';
    if (Object.is(n, -0)) return '-0';
    return n;
}

function normalize(value) {
    if (value === null || value === undefined) return value;
    switch (typeof value) {
        case 'number':
            return normalizeNumber(value);
        case 'bigint':
            return { type: 'bigint', value: value.toString() };
        case 'string':
        case 'boolean':
            return value;
        case 'function':
            return { type: 'function', source: value.toString() };
        case 'symbol':
            return { type: 'symbol', value: value.toString() };
    }
    if (Array.isArray(value)) return value.map(normalize);
    if (value instanceof Date) return { type: 'Date', time: normalizeNumber(value.getTime()) };
    if (value instanceof RegExp) return { type: 'RegExp', source: value.source, flags: value.flags };
    if (NodeBuffer !== null && NodeBuffer.isBuffer(value)) return { type: 'Buffer', hex: hex(value) };
    if (value instanceof Uint8Array) return { type: 'Uint8Array', hex: hex(value) };
    if (value instanceof Map) return { type: 'Map', entries: [...value].map(([k, v]) => [k, normalize(v)]) };
    switch (value._bsontype) {
        case 'ObjectId':
            return { type: 'ObjectId', hex: value.toHexString() };
        case 'Long':
            return { type: 'Long', low: value.low, high: value.high, unsigned: value.unsigned };
        case 'Timestamp':
            return { type: 'Timestamp', low: value.low, high: value.high };
        case 'Int32':
            return { type: 'Int32', value: normalizeNumber(value.value) };
        case 'Double':
            return { type: 'Double', value: normalizeNumber(value.value) };
        case 'Decimal128':
            return { type: 'Decimal128', hex: hex(value.bytes) };
        case 'Binary':
            return { type: 'Binary', subtype: value.sub_type, hex: hex(value.buffer, value.position) };
        case 'Code':
            return { type: 'Code', code: String(value.code), scope: value.scope == null ? null : normalize(value.scope) };
        case 'BSONRegExp':
            return { type: 'BSONRegExp', pattern: value.pattern, options: value.options };
        case 'BSONSymbol':
            return { type: 'BSONSymbol', value: value.value };
        case 'DBRef':
            return { type: 'DBRef', collection: value.collection, oid: normalize(value.oid), db: value.db, fields: normalize(value.fields) };
        case 'MinKey':
        case 'MaxKey':
            return { type: value._bsontype };
        case 'DBPointer':
            return { type: 'DBPointer', namespace: value.namespace, oid: normalize(value.oid) };
        case 'Undefined':
            return { type: 'Undefined' };
    }
    const out = {};
    for (const key of Object.keys(value)) {
        // keep __proto__ as an own key in the copy too
        Object.defineProperty(out, key, { value: normalize(value[key]), enumerable: true, writable: true, configurable: true });
    }
    return { type: 'Object', keys: Object.keys(value), value: out };
}

module.exports = { normalize, hex };
