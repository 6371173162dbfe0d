'use strict';

// A writer generated from a schema tree: encode and check in one pass over a plain
// object whose keys come in the order of the schema's properties, writing the
// bytes encode writes. Its values: strings, numbers, booleans, null, bigints,
// plain objects and arrays, Int32, Double, Long, ObjectId and Date. Anything else
// (another key order, a key the schema does not name, a value of another class,
// undefined in an array, a failed check) returns FAIL, and the codec checks with
// the interpreter and encodes with encode. Each key's bytes (type byte, name, NUL)
// enter the source as numbers; nothing from the schema enters as code.
//
// Outputs are views of a slab, as encode's are (lib/encode.js says why): the next
// document goes after the last, and a document that does not fit is written again
// into a slab four times as large.

const { writeInt32LE, writeDoubleLE, writeBigInt64LE, writeInt64FromNumberLE, copyBytes } = require('../bytes');
const C = require('../constants');
const { writeUtf8 } = require('../utf8');
const { writeLongIndexKey, digitGroupTable } = require('../index-keys');
const { writeLeadingNumbers, storesAsInt32, MIN_NUMBER_RUN } = require('../number-runs');
const { allocUnsafeSlow, view } = require('../platform');
const G = require('./generate');

const GROW = Symbol('schema writer needs a larger slab');
const SLAB_SIZE = 64 * 1024;
const VIEW_ALIGNMENT = 8;
// room every element is given before it is written, beyond its string's bytes:
// type, NUL, a 12-byte value and the 4-byte length of a string, and a 10-digit index
const ELEMENT_ROOM = 32;
const MAX_DEPTH = 64;
// properties per generated function, as the reader's
const CHUNK = 16;

const W = {
    GROW,
    // from a chunk of a document's writer: a required key is not where the schema has it
    ORDER: Symbol('keys out of the schema\'s order'),
    i32: writeInt32LE,
    f64: writeDoubleLE,
    big64: writeBigInt64LE,
    date: (buf, pos, d) => writeInt64FromNumberLE(buf, pos, d.getTime()),
    utf8: writeUtf8,
    long(buf, pos, v) {
        writeInt32LE(buf, pos, v.low);
        return writeInt32LE(buf, pos + 4, v.high);
    },
    // the decimal digits of an array index of 10 or more and a NUL at pos (encode's
    // table of 4-digit words; it writes up to 3 bytes past them, in the element's room)
    index: writeLongIndexKey,
    digitGroupTable,
    // a type class instance encode writes itself: this major version of bson's, no toBSON
    own: (v) => v[C.BSON_VERSION_SYMBOL] === C.BSON_MAJOR_VERSION && typeof v.toBSON !== 'function',
    // an ObjectId's 12 bytes as encode writes them: qbson's writeTo, bson's serializeInto, else its id
    oid(buf, pos, v) {
        if (typeof v.writeTo === 'function') return v.writeTo(buf, pos);
        if (typeof v.serializeInto === 'function' && v.serializeInto(buf, pos) === 12) return pos + 12;
        return copyBytes(v.id, 0, 12, buf, pos);
    },
    // a Binary's length, subtype and bytes (not subtype 2 or 9, which the caller leaves to encode)
    bin(buf, pos, v) {
        const len = v.position;
        writeInt32LE(buf, pos, len);
        buf[pos + 4] = v.sub_type;
        return copyBytes(v.buffer, 0, len, buf, pos + 5);
    },
    // the numbers arr holds (every one of them checked by the caller, room made by
    // numbersRoom) as encode writes a run of them; the pos after them
    numbers(view, pos, arr) {
        numberTarget.view = view;
        pos = writeLeadingNumbers(numberTarget, pos, arr);
        numberTarget.view = null;
        return pos;
    },
    numbersWritten: () => numberTarget.numbersWritten,
    // the bytes n numbers take in an array, ints of them int32s, and what the word stores write past them
    numbersRoom(n, ints) {
        let keys = 0;
        for (let low = 0, high = 10, digits = 1; low < n; low = high, high *= 10, digits++) keys += (Math.min(n, high) - low) * (digits + 1);
        return n + keys + 8 * n - 4 * ints + NUMBER_SLACK;
    },
    isInt32: storesAsInt32,
    alloc: allocUnsafeSlow,
    dataView: (buf) => new DataView(buf.buffer, buf.byteOffset, buf.length),
    view: (buf, start, length) => view(buf.buffer, buf.byteOffset + start, length),
    SLAB_SIZE,
    VIEW_ALIGNMENT,
};

// what writeLeadingNumbers writes to: the slab's view, with room made beforehand
const numberTarget = { view: null, numbersWritten: 0, ensure() {} };
// the bytes writeLeadingNumbers' word stores may write past the last number
const NUMBER_SLACK = 8;

// code writing a property's key after the type byte at p, p moved past its NUL
function propertyKey(key) {
    return (i) => {
        let code = '';
        key.forEach((byte, j) => {
            code += `${i}buf[p + ${j + 1}] = ${byte};\n`;
        });
        return code + `${i}buf[p + ${key.length + 1}] = 0;\n${i}p += ${key.length + 2};\n`;
    };
}

// an array element's key: its index k
const indexKey = (i) => `${i}if (k < 10) {\n${i}    buf[p + 1] = 48 + k;\n${i}    buf[p + 2] = 0;\n${i}    p += 3;\n${i}} else p = W.index(buf, dv, p + 1, k);\n`;

// code writing v (present) as an element: its type byte at p, its key (writeKey), its
// value; `keyRoom` bounds the key's bytes. F when v is not what the writer takes or
// fails a check, W.GROW when the slab is too small.
function writeValue(g, node, depth, writeKey, keyRoom, i) {
    const allows = (t) => node.types === null || node.types.has(t);
    const j = i + '    ';
    const residual = (ind) => `${ind}if (!H.checkValue(${g.constant(node)}, v)) return F;\n`;
    const head = (type, ind) => `${ind}buf[p] = ${type};\n${writeKey(ind)}`;
    // enum and the logical keywords on values that have no inline checks
    const plainChecks = (ind) => (node.enum !== null || G.hasLogical(node) ? residual(ind) : '');
    const number = (type, x, ind) => {
        if (!allows(type)) return `${ind}return F;\n`;
        const checks = G.needsResidual(node, type) ? residual(ind) : G.numberChecks(g, node, ind, x) + G.enumCheck(g, node, type, ind, x);
        return checks + head(type === 'int' ? 16 : 1, ind) +
            (type === 'int' ? `${ind}dv.setInt32(p, ${x}, true);\n${ind}p += 4;\n` : `${ind}dv.setFloat64(p, ${x}, true);\n${ind}p += 8;\n`);
    };
    const long = (write, ind) => {
        if (!allows('long')) return `${ind}return F;\n`;
        return (G.needsResidual(node, 'long') || node.enum !== null ? residual(ind) : '') + head(18, ind) + `${ind}p = ${write};\n`;
    };
    const simple = (type, typeByte, write, ind) => {
        if (!allows(type)) return `${ind}return F;\n`;
        return plainChecks(ind) + head(typeByte, ind) + write;
    };
    let code = `${i}if (p + ${ELEMENT_ROOM + keyRoom} > buf.length) return W.GROW;\n`;
    code += `${i}if (typeof v === 'string') {\n`;
    if (!allows('string')) code += `${j}return F;\n`;
    else {
        code += G.needsResidual(node, 'string') ? residual(j) : G.stringChecks(g, node, j) + G.enumCheck(g, node, 'string', j);
        code += `${j}if (p + ${ELEMENT_ROOM + keyRoom} + 3 * v.length > buf.length) return W.GROW;\n`;
        code += head(2, j) + `${j}l = W.utf8(buf, p + 4, v);\n${j}buf[l] = 0;\n${j}W.i32(buf, p, l - p - 3);\n${j}p = l + 1;\n`;
    }
    // a number is an int32 when it is an integer in int32 range and not -0, else a double (encode's rule)
    code += `${i}} else if (typeof v === 'number') {\n${j}if ((v | 0) === v && (v !== 0 || 1 / v > 0)) {\n`;
    code += number('int', 'v', j + '    ') + `${j}} else {\n` + number('double', 'v', j + '    ') + `${j}}\n`;
    code += `${i}} else if (typeof v === 'boolean') {\n` + simple('bool', 8, `${j}buf[p] = v ? 1 : 0;\n${j}p += 1;\n`, j);
    code += `${i}} else if (v === null) {\n` + simple('null', 10, '', j);
    code += `${i}} else if (typeof v === 'bigint') {\n` + long('W.big64(buf, p, v)', j);
    code += `${i}} else if (typeof v !== 'object' || typeof v.toBSON === 'function') {\n${j}return F;\n`;
    // the type classes encode writes here too
    const k = j + '    ';
    code += `${i}} else if ((t = v._bsontype) !== undefined) {\n${j}if (!W.own(v)) return F;\n`;
    code += `${j}if (t === "Int32") {\n` + number('int', 'v.value', k);
    code += `${j}} else if (t === "Double") {\n` + number('double', 'v.value', k);
    code += `${j}} else if (t === "Long") {\n` + long('W.long(buf, p, v)', k);
    code += `${j}} else if (t === "ObjectId") {\n` + simple('objectId', 7, `${k}p = W.oid(buf, p, v);\n`, k);
    code += `${j}} else if (t === "Binary" && v.sub_type !== 2 && v.sub_type !== 9) {\n`;
    code += allows('binData') ? `${k}if (p + ${ELEMENT_ROOM + keyRoom} + v.position > buf.length) return W.GROW;\n` : '';
    code += simple('binData', 5, `${k}p = W.bin(buf, p, v);\n`, k);
    code += `${j}} else return F;\n`;
    code += `${i}} else if (v instanceof Date) {\n` + simple('date', 9, `${j}p = W.date(buf, p, v);\n`, j);
    code += `${i}} else if (H.isArray(v)) {\n`;
    if (!allows('array') || !G.arrayInline(node) || depth >= MAX_DEPTH) code += `${j}return F;\n`;
    else code += head(4, j) + `${j}p = ${arrayWriter(g, node, depth + 1)}(v, p);\n${j}if (typeof p !== 'number') return p;\n`;
    code += `${i}} else if (H.proto(v) === H.OP) {\n`;
    if (!allows('object') || !G.objectInline(node) || G.freeForm(node) || depth >= MAX_DEPTH) code += `${j}return F;\n`;
    else code += head(3, j) + `${j}p = ${objectWriter(g, node, depth + 1)}(v, p);\n${j}if (typeof p !== 'number') return p;\n`;
    code += `${i}} else return F;\n`;
    return code;
}

// a function (o, p) -> the position after the document o written at p, F or W.GROW
function objectWriter(g, node, depth) {
    const sig = `w${G.signature(g, node)}`;
    if (g.readers.has(sig)) return g.readers.get(sig);
    g.visit(depth);
    const fn = g.name('w');
    g.readers.set(sig, fn);
    const props = node.properties || [];
    const required = new Set(node.required || []);
    if (props.length > G.MAX_GENERATED_FIELDS) {
        // wide documents are checked by the interpreter and written by encode (see H.wide)
        g.functions.push(`function ${fn}(o, p) {\n    return F;\n}\n`);
        return fn;
    }
    let body = `function ${fn}(o, p) {\n    const ks = H.keys(o), start = p;\n    let j = 0, v, t, l;\n    p += 4;\n`;
    for (const name of required) if (!props.some((x) => x.name === name)) body += '    return F;\n';
    // keys out of the schema's order: the document written again from its start by the unordered writer
    const other = props.length > 1 && props.length <= G.MAX_UNORDERED ? `${unorderedWriter(g, node, depth, props, required)}(o, ks, start)` : 'F';
    const property = (prop, outOfOrder) => {
        const name = JSON.stringify(prop.name);
        const key = G.utf8Bytes(prop.name);
        let code = `    if (j < ks.length && ks[j] === ${name}) {\n        v = o[${name}];\n        j++;\n`;
        code += `        if (v === undefined) {\n${required.has(prop.name) ? '            return F;\n' : ''}        } else {\n`;
        code += writeValue(g, prop.node, depth, propertyKey(key), key.length, '            ');
        return code + `        }\n    }${required.has(prop.name) ? ` else return ${outOfOrder};` : ''}\n`;
    };
    if (props.length <= CHUNK) {
        for (const prop of props) body += property(prop, other);
    } else {
        // CHUNK properties to a function, as the reader reads them (V8 optimizes none of
        // one function for flat_bson's 145): each returns p, or F or W.GROW, and leaves
        // the key index in the writer's `at`
        for (let from = 0; from < props.length; from += CHUNK) {
            const chunk = g.name('y');
            let code = `function ${chunk}(o, ks, p) {\n    let j = at, v, t, l;\n`;
            for (const prop of props.slice(from, from + CHUNK)) code += property(prop, 'W.ORDER');
            g.functions.push(code + '    at = j;\n    return p;\n}\n');
            body += `    at = j;\n    p = ${chunk}(o, ks, p);\n    if (p === W.ORDER) return ${other};\n    if (typeof p !== 'number') return p;\n    j = at;\n`;
        }
    }
    body += `    if (j !== ks.length) return ${other};\n` + CLOSE_DOCUMENT;
    g.functions.push(body);
    return fn;
}

// the end of a document begun at start: its NUL and its length
const CLOSE_DOCUMENT = '    if (p + 1 > buf.length) return W.GROW;\n    buf[p] = 0;\n    W.i32(buf, start, p + 1 - start);\n    return p + 1;\n}\n';

// a function (o, ks, start) -> the position after the document o, whose keys ks are
// not in the schema's order, written at start (F or W.GROW): one switch on each key,
// elements in o's order as encode writes them (api_statuses' statuses come in two key
// orders; every one went to the checker and encode)
function unorderedWriter(g, node, depth, props, required) {
    const fn = g.name('wu');
    let body = `function ${fn}(o, ks, start) {\n    let p = start + 4, v, t, l, n = 0;\n    for (let j = 0; j < ks.length; j++) {\n        v = o[ks[j]];\n        switch (ks[j]) {\n`;
    for (const prop of props) {
        const key = G.utf8Bytes(prop.name);
        body += `            case ${JSON.stringify(prop.name)}:\n                if (v === undefined) break;\n`;
        if (required.has(prop.name)) body += '                n++;\n';
        body += writeValue(g, prop.node, depth, propertyKey(key), key.length, '                ') + '                break;\n';
    }
    body += '            default:\n                return F;\n        }\n    }\n';
    body += `    if (n !== ${props.filter((p) => required.has(p.name)).length}) return F;\n` + CLOSE_DOCUMENT;
    g.functions.push(body);
    return fn;
}

// An array of MIN_NUMBER_RUN or more plain numbers, where its items may be doubles or
// int32s checked at most for their bounds: every number checked first, then all
// written as encode writes a run of them (a range of keys at a time). double_array's
// codec.encode took 30% more instructions element by element (4.78M against 3.67M).
// An array that holds anything else goes through the loop after, from its start.
function numberRun(g, items) {
    const takes = G.numberItems(items);
    if (takes === null) return '';
    const i = '            ';
    // l counts the int32s, for the room the run takes
    let code = `    if (arr.length >= ${MIN_NUMBER_RUN}) {\n        l = 0;\n        for (; k < arr.length; k++) {\n            v = arr[k];\n            if (typeof v !== 'number') break;\n`;
    if (!takes.double) code += `${i}if (!W.isInt32(v)) return F;\n${i}l++;\n`;
    else if (!takes.int) code += `${i}if (W.isInt32(v)) return F;\n`;
    else code += `${i}if (W.isInt32(v)) l++;\n`;
    if (items !== null) code += G.numberChecks(g, items, i);
    code += `        }\n        if (k === arr.length) {\n            if (p + W.numbersRoom(k, l) > buf.length) return W.GROW;\n`;
    code += '            p = W.numbers(dv, p, arr);\n            k = W.numbersWritten();\n        } else k = 0;\n    }\n';
    return code;
}

function arrayWriter(g, node, depth) {
    const sig = `x${G.signature(g, node)}`;
    if (g.readers.has(sig)) return g.readers.get(sig);
    g.visit(depth);
    const fn = g.name('x');
    g.readers.set(sig, fn);
    let body = `function ${fn}(arr, p) {\n    const start = p;\n    let v, t, l, k = 0;\n    p += 4;\n`;
    if (node.maxItems !== null) body += `    if (arr.length > ${node.maxItems}) return F;\n`;
    if (node.minItems !== null) body += `    if (arr.length < ${node.minItems}) return F;\n`;
    body += numberRun(g, node.items) + '    for (; k < arr.length; k++) {\n        v = arr[k];\n        if (v === undefined) return F;\n';
    body += writeValue(g, node.items !== null ? node.items : G.ANY, depth, indexKey, 12, '        ');
    body += '    }\n    if (p + 1 > buf.length) return W.GROW;\n    buf[p] = 0;\n    W.i32(buf, start, p + 1 - start);\n    return p + 1;\n}\n';
    g.functions.push(body);
    return fn;
}

// (doc) -> its bytes, or FAIL
function generateWriter(root) {
    if (root.types !== null && !root.types.has('object')) return null;
    if (!G.objectInline(root) || G.freeForm(root) || (root.properties !== null && root.properties.length > G.MAX_GENERATED_FIELDS)) return null;
    const g = new G.Generator();
    const fn = objectWriter(g, root, 0);
    if (g.tooBig) return null;
    // the slab, a DataView over it, the key index between chunks, and whether a write is under
    // way (a getter that encodes with the same codec gets encode instead of this slab)
    const source = `const F = H.FAIL;\nlet buf = W.alloc(W.SLAB_SIZE), dv = W.dataView(buf), base = 0, at = 0, busy = false;\n${g.functions.join('\n')}\n` +
        'return function write(o) {\n' +
        '    if (busy || H.proto(o) !== H.OP || typeof o.toBSON === \'function\' || typeof o._bsontype === \'string\') return F;\n' +
        '    busy = true;\n' +
        '    let p;\n' +
        `    try {\n        p = ${fn}(o, base);\n` +
        '        while (p === W.GROW) {\n            buf = W.alloc(buf.length * 4);\n            dv = W.dataView(buf);\n            base = 0;\n            p = ' + fn + '(o, 0);\n        }\n' +
        '    } finally {\n        busy = false;\n    }\n' +
        '    if (p === F) return F;\n' +
        '    const out = W.view(buf, base, p - base);\n' +
        '    base = p + W.VIEW_ALIGNMENT - 1 - ((p + W.VIEW_ALIGNMENT - 1) % W.VIEW_ALIGNMENT);\n' +
        // the next document is given at least the room this one took: a slab is replaced by
        // one four times that size, as encode's (binary_heavy's 300 kB documents were written
        // three times each, into slabs of 64 kB, 256 kB, then 1 MB)
        '    if (buf.length - base < Math.max(out.length, W.SLAB_SIZE / 4)) {\n        buf = W.alloc(Math.max(W.SLAB_SIZE, 4 * out.length));\n        dv = W.dataView(buf);\n        base = 0;\n    }\n' +
        '    return out;\n};\n';
    digitGroupTable();
    const make = G.compileSource('H, W, K', source);
    if (make === null) return null;
    const write = make(G.H, W, g.constants);
    write.source = source;
    return write;
}

module.exports = { generateWriter };
