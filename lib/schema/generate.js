'use strict';

// Code generated from a schema tree (lib/schema/keywords.js): a reader that
// decodes and checks a document in one pass over its bytes, and a checker that
// says whether a document about to be encoded surely conforms.
//
// Both are fast paths with one answer each for everything unusual: the reader
// returns FAIL and the checker false, and the codec then runs the interpreter
// (lib/schema/check.js) over decode's own result, which gives the document or the
// error. So the generated code never has to produce an error, only to be right
// when it says yes. The reader says yes to a document whose fields come in the
// order of the schema's properties (or, through a second reader, in another
// order), each of a type it reads (every type but DBPointer), with every check
// met; anything else (a field the schema does not name, a duplicate, bytes decode
// would refuse, a failed check) is FAIL. What it calls at run time is in
// lib/schema/generated-runtime.js; the writer is lib/schema/generate-writer.js.
//
// Nothing from the schema enters the source as code: a key enters as its UTF-8
// bytes (numbers) and, for the object built, as a JSON.stringify literal; limits
// as numbers written by String(); patterns, enum tables and sub-schemas as values
// of the array K the generated functions close over.

const { H, FAIL, TYPE_BYTES, READ_TYPES, WIDE_TYPES } = require('./generated-runtime');

const MAX_DEPTH = require('../constants').DEFAULT_MAX_DEPTH;
const { MAX_FAST_KEYED_FIELDS } = require('../wide-object');

// Nodes nested deeper than this are read by decode: decode's maxDepth (500) is
// then never reached inside generated code.
const MAX_GENERATED_DEPTH = 64;
// Schemas with more nodes than this get no generated code (the source grows with them).
const MAX_GENERATED_NODES = 2000;
// properties per generated function
const CHUNK = 16;
// documents of more properties than this are read by a loop over a table (H.wide), not by generated code
const MAX_GENERATED_FIELDS = 256;
// documents of more properties than this have no unordered reader (lookups are linear)
const MAX_UNORDERED = 64;

// false once the host refuses code from strings (node --disallow-code-generation-from-strings, a CSP without unsafe-eval)
let canCompile = true;

function compileSource(params, body) {
    if (!canCompile) return null;
    try {
        // eslint-disable-next-line no-new-func
        return new Function(params, body);
    } catch (err) {
        if (err instanceof EvalError) {
            canCompile = false;
            return null;
        }
        throw err;
    }
}

function utf8Bytes(str) {
    return [...new TextEncoder().encode(str)];
}

function wellFormed(str) {
    return !/[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/.test(str) && !str.includes('\0');
}

const LOGICAL = ['allOf', 'anyOf', 'oneOf', 'not'];

function hasLogical(node) {
    return LOGICAL.some((k) => node[k] !== null);
}

// the types a node lets through that the reader reads, or null when it lets through one it does not
function readTypes(node) {
    if (node.types === null) return null;
    for (const t of node.types) if (!Object.prototype.hasOwnProperty.call(TYPE_BYTES, t)) return null;
    return [...node.types];
}

// enum as a Set the generated code looks values up in: all strings, or all JS numbers
function enumTable(node) {
    if (node.enum === null) return null;
    if (node.enum.every((v) => typeof v === 'string')) return { kind: 'string', set: new Set(node.enum) };
    if (node.enum.every((v) => typeof v === 'number')) return { kind: 'number', set: new Set(node.enum) };
    return null;
}

// whether the interpreter must also look at a scalar of this type after the inline checks
function needsResidual(node, type) {
    if (hasLogical(node)) return true;
    if (node.enum !== null) {
        const table = enumTable(node);
        if (table === null) return true;
        if (table.kind === 'number' && (type === 'long' || type === 'decimal')) return true;
    }
    if (type === 'decimal' && node.numberKeywords) return true;
    const isNumber = type === 'int' || type === 'double' || type === 'long';
    if (isNumber && node.multipleOf !== null) return true;
    if (isNumber && (node.maximum !== null || node.minimum !== null)) {
        if (type === 'long' || typeof node.maximum === 'bigint' || typeof node.minimum === 'bigint') return true;
    }
    return false;
}

// whether an object node is read by generated code (else by H.slow)
function objectInline(node) {
    if (hasLogical(node) || node.enum !== null || node.patternProperties !== null || node.dependencies !== null) return false;
    if (node.minProperties !== null || node.maxProperties !== null) return false;
    if (node.additionalProperties !== null && node.additionalProperties !== false) return false;
    for (const p of node.properties || []) {
        if (!wellFormed(p.name) || p.name === '$ref' || p.name === '$id' || p.name === '$db') return false;
    }
    return true;
}

// a document that may hold keys its schema does not name: the generated reader
// fails on those, so such documents are read by decode
function freeForm(node) {
    return node.additionalProperties !== false && (node.properties === null || node.properties.length === 0);
}

function arrayInline(node) {
    if (hasLogical(node) || node.enum !== null || node.itemsList !== null || node.uniqueItems) return false;
    return true;
}

// What the generated code of a node depends on, as a string: two nodes with the same
// one (a tweet's user and its retweet's user) share their functions. A node with
// keywords whose values are not plain (enum, the logical ones...) is only itself.
function signature(g, node) {
    if (node === null) return 'null';
    if (g.signatures.has(node)) return g.signatures.get(node);
    let sig;
    if (node.enum !== null || hasLogical(node) || node.patternProperties !== null || node.dependencies !== null || node.itemsList !== null ||
        (node.additionalProperties !== null && node.additionalProperties !== false) || typeof node.maximum === 'bigint' || typeof node.minimum === 'bigint' ||
        node.multipleOf !== null || node.uniqueItems || node.minProperties !== null || node.maxProperties !== null) {
        sig = `#${nodeId(node)}`;
    } else {
        sig = JSON.stringify([
            node.types === null ? null : [...node.types].sort(), node.required, node.additionalProperties === false,
            node.properties === null ? null : node.properties.map((p) => [p.name, signature(g, p.node)]), signature(g, node.items),
            node.maximum === null ? null : String(node.maximum), node.exclusiveMaximum, node.minimum === null ? null : String(node.minimum), node.exclusiveMinimum,
            node.minLength, node.maxLength, node.pattern === null ? null : [node.pattern.source, node.pattern.re.flags], node.minItems, node.maxItems,
        ]);
    }
    g.signatures.set(node, sig);
    return sig;
}

// a number for each node whose code is its own, the same in every reader generated
// from its schema (a learnt key order, lib/schema/key-orders.js, is kept by signature)
const nodeIds = new WeakMap();
let nodeIdCount = 0;
function nodeId(node) {
    if (!nodeIds.has(node)) nodeIds.set(node, nodeIdCount++);
    return nodeIds.get(node);
}

class Generator {
    constructor(orders = null) {
        // the codec's learnt key orders (reader only), or null
        this.orders = orders;
        this.constants = [];
        this.functions = [];
        this.count = 0;
        this.nodes = 0;
        this.tooBig = false;
        this.readers = new Map();
        this.signatures = new Map();
    }

    constant(value) {
        this.constants.push(value);
        return `K[${this.constants.length - 1}]`;
    }

    name(prefix) {
        return `${prefix}${this.count++}`;
    }

    visit(depth) {
        if (++this.nodes > MAX_GENERATED_NODES || depth > MAX_GENERATED_DEPTH) this.tooBig = true;
    }
}

// ---- the reader ----

// Reads the value of type byte t at p (in a document ending at e) into v, checked
// against node; code that returns FAIL when it cannot.
function readValue(g, node, depth, indent) {
    const types = node.types === null ? READ_TYPES : readTypes(node);
    if (types === null) return `${indent}return F;\n`;
    let code = '';
    let first = true;
    for (const type of types) {
        code += `${indent}${first ? '' : '} else '}if (t === ${TYPE_BYTES[type]}) {\n`;
        code += readOfType(g, node, type, depth, indent + '    ');
        first = false;
    }
    code += `${indent}} else return F;\n`;
    return code;
}

function readOfType(g, node, type, depth, i) {
    let code = '';
    switch (type) {
        case 'double':
            code += `${i}if (e - p < 8) return F;\n${i}v = dv === null ? H.f64(b, p) : dv.getFloat64(p, true);\n${i}p += 8;\n`;
            code += numberChecks(g, node, i);
            break;
        case 'int':
            code += `${i}if (e - p < 4) return F;\n${i}v = H.i32(b, p);\n${i}p += 4;\n`;
            code += numberChecks(g, node, i);
            break;
        case 'long':
            code += `${i}if (e - p < 8) return F;\n${i}v = H.long(b, p);\n${i}p += 8;\n`;
            break;
        case 'string':
        case 'symbol':
        case 'javascript':
            code += `${i}if (e - p < 4) return F;\n${i}l = H.i32(b, p);\n`;
            code += `${i}if (l < 1 || l > e - p - 4 || b[p + 3 + l] !== 0) return F;\n`;
            code += `${i}v = H.utf8(b, p + 4, p + 3 + l, true);\n${i}if (v === undefined) return F;\n${i}p += 4 + l;\n`;
            if (type === 'string') code += stringChecks(g, node, i);
            // code is a Code; a symbol is the string decode gives
            if (type === 'javascript') code += `${i}v = H.code(v);\n`;
            break;
        case 'timestamp':
            code += `${i}if (e - p < 8) return F;\n${i}v = H.timestamp(b, p);\n${i}p += 8;\n`;
            break;
        case 'decimal':
            code += `${i}if (e - p < 16) return F;\n${i}v = H.decimal(b, p);\n${i}p += 16;\n`;
            break;
        case 'undefined':
            code += `${i}v = undefined;\n`;
            break;
        case 'javascriptWithScope':
            code += `${i}if (e - p < 4) return F;\n${i}l = H.i32(b, p);\n${i}if (l < 14 || l > e - p) return F;\n`;
            code += `${i}v = H.codeWithScope(b, p, e, ${MAX_DEPTH - depth - 1});\n${i}if (v === F) return F;\n${i}p += l;\n`;
            if (needsResidual(node, type) || node.enum !== null) return code + `${i}return F;\n`;
            break;
        case 'regex':
            code += `${i}l = H.regexEnd(b, p, e);\n${i}if (l < 0) return F;\n${i}v = H.regex(b, p, l);\n${i}if (v === F) return F;\n${i}p = l;\n`;
            // the interpreter sees a BSONRegExp, which this reader does not make: a check on it is the interpreter's
            if (needsResidual(node, type)) return code + `${i}return F;\n`;
            break;
        case 'minKey':
        case 'maxKey':
            code += `${i}v = H.${type}();\n`;
            break;
        case 'object':
        case 'array': {
            code += `${i}if (e - p < 4) return F;\n${i}l = H.i32(b, p);\n${i}if (l < 5 || l > e - p || b[p + l - 1] !== 0) return F;\n`;
            const inline = type === 'object' ? objectInline(node) && !freeForm(node) : arrayInline(node);
            if (inline && depth < MAX_GENERATED_DEPTH) {
                const fn = type === 'object' ? objectReader(g, node, depth + 1) : arrayReader(g, node, depth + 1);
                // a sub-document the generated reader does not take (its keys in another
                // order...) is read by decode and checked by the interpreter, alone
                code += `${i}v = ${fn}(b, p, l, dv);\n${i}if (v === F) v = H.slow(${g.constant(node)}, b, p, l, ${type === 'array'}, ${MAX_DEPTH - depth - 1});\n`;
            } else {
                code += `${i}v = H.slow(${g.constant(node)}, b, p, l, ${type === 'array'}, ${MAX_DEPTH - depth - 1});\n`;
            }
            code += `${i}if (v === F) return F;\n${i}p += l;\n`;
            return code;
        }
        case 'binData':
            code += `${i}if (e - p < 5) return F;\n${i}l = H.i32(b, p);\n${i}if (l < 0 || l > e - p - 5) return F;\n`;
            code += `${i}v = H.bin(b, p, l);\n${i}if (v === F) return F;\n${i}p += 5 + l;\n`;
            break;
        case 'objectId':
            code += `${i}if (e - p < 12) return F;\n${i}v = H.oid(b, p);\n${i}p += 12;\n`;
            break;
        case 'bool':
            code += `${i}if (e - p < 1 || b[p] > 1) return F;\n${i}v = b[p] === 1;\n${i}p += 1;\n`;
            break;
        case 'date':
            code += `${i}if (e - p < 8) return F;\n${i}v = H.date(b, p);\n${i}p += 8;\n`;
            break;
        case 'null':
            code += `${i}v = null;\n`;
            break;
        default:
            throw new Error(`no reader for ${type}`);
    }
    code += enumCheck(g, node, type, i);
    if (needsResidual(node, type)) {
        // the value as decode with promoteValues: false has it, where that differs
        const value = type === 'long' ? 'H.long64(v)' : type === 'undefined' ? 'H.undefinedValue()' : 'v';
        code += `${i}if (!H.check(${g.constant(node)}, ${value}, ${JSON.stringify(type)})) return F;\n`;
    }
    return code;
}

function numberLiteral(n) {
    // Infinity, -Infinity and NaN have no literal; the limits are numbers here (bigints go to the interpreter)
    if (Number.isNaN(n)) return 'NaN';
    if (n === Infinity) return 'Infinity';
    if (n === -Infinity) return '-Infinity';
    return Object.is(n, -0) ? '-0' : String(n);
}

function numberChecks(g, node, i, x = 'v') {
    let code = '';
    if (typeof node.maximum === 'number') {
        // NaN passes maximum and fails minimum (it is below every number)
        code += `${i}if (${x} ${node.exclusiveMaximum ? '>=' : '>'} ${numberLiteral(node.maximum)}) return F;\n`;
    }
    if (typeof node.minimum === 'number') {
        code += `${i}if (!(${x} ${node.exclusiveMinimum ? '>' : '>='} ${numberLiteral(node.minimum)})) return F;\n`;
    }
    return code;
}

function stringChecks(g, node, i) {
    let code = '';
    if (node.maxLength !== null || node.minLength !== null) {
        code += `${i}l = H.cp(v);\n`;
        if (node.maxLength !== null) code += `${i}if (l > ${node.maxLength}) return F;\n`;
        if (node.minLength !== null) code += `${i}if (l < ${node.minLength}) return F;\n`;
    }
    if (node.pattern !== null) {
        const re = g.constant(node.pattern.re);
        code += `${i}${re}.lastIndex = 0;\n${i}if (!${re}.test(v)) return F;\n`;
    }
    return code;
}

function enumCheck(g, node, type, i, x = 'v') {
    const table = enumTable(node);
    if (table === null) return '';
    const isNumber = type === 'int' || type === 'double';
    // a symbol equals the string of its text
    if (table.kind === 'string' ? type === 'string' || type === 'symbol' : isNumber) return `${i}if (!${g.constant(table.set)}.has(${x})) return F;\n`;
    if (table.kind === 'number' && type === 'decimal') return '';
    if (table.kind === 'number' && type === 'long') return '';
    return `${i}return F;\n`;
}

// code reading property k of a document into `into` (a local or w[k]); `missing`:
// the statement for a required one that is not next
function readProperty(g, prop, missing, depth, into) {
    const key = utf8Bytes(prop.name);
    const tests = key.map((byte, j) => `b[p + ${j + 1}] === ${byte}`);
    tests.push(`b[p + ${key.length + 1}] === 0`);
    let code = `    if (p < e && ${tests.join(' && ')}) {\n        t = b[p];\n        p += ${key.length + 2};\n`;
    code += readValue(g, prop.node, depth, '        ');
    code += `        ${into} = v;\n    }`;
    code += missing === null ? '\n' : ` else ${missing}\n`;
    return code;
}

// A function (b, s, len, dv) -> the document at s, or FAIL, for documents whose keys
// are the properties' in another order (api_statuses' statuses come in two): each
// key looked up among the properties' (H.keyIndex), its value read by a switch,
// the object built in the document's order. A key met twice or not a property's is FAIL.
function unorderedReader(g, node, depth, props, required) {
    const fn = g.name('u');
    const keys = g.constant(props.map((p) => Uint8Array.from(utf8Bytes(p.name))));
    const names = g.constant(props.map((p) => p.name));
    let body = `function ${fn}(b, s, len, dv) {\n    const e = s + len - 1;\n    let p = s + 4, t, l, v, x;\n`;
    body += `    const w = new Array(${props.length}).fill(F);\n    const order = [];\n`;
    body += `    while (p < e) {\n        x = H.keyIndex(${keys}, b, p + 1, e);\n        if (x < 0 || w[x] !== F) return F;\n`;
    body += `        t = b[p];\n        p += ${keys}[x].length + 2;\n        switch (x) {\n`;
    props.forEach((prop, k) => {
        body += `            case ${k}:\n${readValue(g, prop.node, depth, '                ')}                break;\n`;
    });
    body += '        }\n        w[x] = v;\n        order.push(x);\n    }\n    if (p !== e) return F;\n';
    props.forEach((prop, k) => {
        if (required.has(prop.name)) body += `    if (w[${k}] === F) return F;\n`;
    });
    if (g.orders !== null) body += `    ${g.constant(g.orders.learner(signature(g, node)))}.learn(${names}, order);\n`;
    body += `    const o = ${newObject(props.length)};\n    for (let k = 0; k < order.length; k++) H.set(o, ${names}[order[k]], w[order[k]]);\n    return o;\n}\n`;
    g.functions.push(body);
    return fn;
}

// The empty object a document of `count` fields is built on key by key: past
// MAX_FAST_KEYED_FIELDS, {} would turn into a dictionary (lib/wide-object.js).
function newObject(count) {
    return count > MAX_FAST_KEYED_FIELDS ? 'new H.Wide()' : '{}';
}

// The statements of a constructor that sets the properties at `present` on `this`, in
// the schema's order (vals(k) names value k; bits, the bit of m that says whether
// an optional one is there, when the constructor takes a mask)
function setProperties(props, present, vals, bits = null) {
    return present.map((k) => {
        const set = props[k].name === '__proto__' ? `H.set(this, "__proto__", ${vals(k)});` : `this[${JSON.stringify(props[k].name)}] = ${vals(k)};`;
        return `    ${bits !== null && bits.has(k) ? `if (m & ${bits.get(k)}) ` : ''}${set}\n`;
    }).join('');
}

// Optional properties past this many are not told apart by a mask (bits of a small integer).
const MAX_MASKED = 30;
// builders kept per object node; documents with other sets of optional properties are built key by key
const MAX_BUILDERS = 16;

// The functions that build an object node's documents, one per set of optional
// properties present (a mask, bit j for the j-th optional one), each by a constructor
// of its own, made when a set is first met: two_collections' users and orders, under one schema of 11 optional
// properties, took 330 µs per 1,000 documents built key by key on {}, and take 231
// (decode's own readers: 230).
class Builders {
    constructor(props, optional, params, vals) {
        this.props = props;
        this.optional = optional;
        this.params = params;
        this.vals = vals;
        this.masks = [];
        this.fns = [];
    }

    // the function that builds documents with the optional properties of mask, or null:
    // a call of one of many, which then constructs with one known constructor (inlined)
    of(mask) {
        const { masks } = this;
        for (let i = 0; i < masks.length; i++) if (masks[i] === mask) return this.fns[i];
        if (masks.length === MAX_BUILDERS) return null;
        const skip = new Set(this.optional.filter((k, j) => (mask & (1 << j)) === 0));
        const present = this.props.map((p, k) => k).filter((k) => !skip.has(k));
        const source = `const KEPT = [];\n${keepOne('Build', this.params, false, this.props)}function Build(${this.params}) {\n${setProperties(this.props, present, this.vals)}${keepTest('Build', this.params, false)}}\n` +
            `Build.prototype = Object.prototype;\nreturn function build(${this.params}) {\n    return new Build(${this.params});\n};\n`;
        const make = compileSource('H', source);
        const build = make === null ? null : make(H);
        if (build !== null) build.source = source;
        masks.push(mask);
        this.fns.push(build);
        return build;
    }
}

// The object of the values read (vals(k) names value k; params, the constructors'
// parameters), keys in the schema's order, built by a constructor: one for every
// property there, else one of a Builders, else (more sets of optional properties than
// it keeps) one that sets the properties present: sparse_fields' 125 sets of keys
// took 1.39 ms per 1,000 documents set key by key on {}, and take 1.05 (decode: 1.01).
// Not object literals: once a large reply's documents have survived a scavenge, V8
// allocates a literal's later objects in the old generation (allocation-site
// pretenuring), where they keep the young strings they hold alive through every
// scavenge; deepkit_cursor_varied's codec.decode then ran at 55-87 operations/s in
// one process in six, against about 480. Constructors have no allocation site, as
// decode's own readers have none.
function buildObject(g, props, required, vals, params) {
    const all = props.map((p, k) => k);
    const optional = all.filter((k) => !required.has(props[k].name));
    const whole = newConstructor(g, setProperties(props, all, vals), params, props);
    if (optional.length === 0) return `    return new ${whole}(${params});\n`;
    let code = `    if (${optional.map((k) => `${vals(k)} !== F`).join(' && ')}) return new ${whole}(${params});\n`;
    if (optional.length <= MAX_MASKED) {
        const mask = optional.map((k, j) => `(${vals(k)} !== F ? ${2 ** j} : 0)`).join(' | ');
        code += `    const m = ${mask};\n    const build = ${g.constant(new Builders(props, optional, params, vals))}.of(m);\n    if (build !== null) return build(${params});\n`;
        if (props.length <= MAX_FAST_KEYED_FIELDS) {
            const bits = new Map(optional.map((k, j) => [k, 2 ** j]));
            return code + `    return new ${newConstructor(g, setProperties(props, all, vals, bits), params, props, true)}(m, ${params});\n`;
        }
    }
    code += `    const o = ${newObject(props.length)};\n`;
    props.forEach((prop, k) => {
        code += `    if (${vals(k)} !== F) H.set(o, ${JSON.stringify(prop.name)}, ${vals(k)});\n`;
    });
    return code + '    return o;\n';
}

// a generated constructor (params, after m where masked) of plain objects, its body the statements given
function newConstructor(g, statements, params, props, masked = false) {
    const fn = g.name('C');
    const all = masked ? `m, ${params}` : params;
    g.functions.push(`${keepOne(fn, params, masked, props)}function ${fn}(${all}) {\n${statements}${keepTest(fn, params, masked)}}\n${fn}.prototype = Object.prototype;\n`);
    return fn;
}

// A constructor's first call (for each set of optional properties m, where masked) makes one
// more object, pushed on KEPT, from stand-ins for its values (params: the values, or w, an
// array of them; lib/stand-in.js says why); ${fn}K has bit m (of 32) once one is kept, or 1.
// The keeping is a function of its own, ${fn}Keep: with it written out in the constructor,
// V8 stopped inlining decode's item constructors (deepkit_cursor +5-7% instructions).
function keepOne(fn, params, masked, props) {
    // properties whose values may be heap numbers are kept as null (lib/stand-in.js)
    const heap = props.map((p, k) => k).filter((k) => mayBeHeapNumber(props[k].node));
    const standIns = params === 'w' ? `H.standIns(w, [${heap.join(', ')}])` : params.split(', ').map((p, k) => (heap.includes(k) ? String(H.HEAP_NUMBER_STAND_IN) : `H.standIn(${p})`)).join(', ');
    const all = masked ? `m, ${params}` : params;
    return `let ${fn}K = 0;\nfunction ${fn}Keep(${all}) {\n    ${fn}K |= ${masked ? '1 << m' : '1'};\n    if (H.canKeep()) KEPT.push(new ${fn}(${masked ? 'm, ' : ''}${standIns}));\n}\n`;
}

// whether a property's values may be numbers V8 holds as heap numbers: doubles, int64s, any type
function mayBeHeapNumber(node) {
    return node.types === null || node.types.has('double') || node.types.has('long');
}

// the constructor's test whether it keeps one more object (keepOne)
function keepTest(fn, params, masked) {
    return `    if ((${fn}K & ${masked ? '(1 << m)' : '1'}) === 0) ${fn}Keep(${masked ? `m, ${params}` : params});\n`;
}

// a function (b, s, len, dv) -> the document at s, or FAIL (dv: a DataView over b, or null). A document of more than
// CHUNK properties is read by functions of CHUNK properties each, which V8 optimizes
// (one function for flat_bson's 145 fields was 71 KB of source and ran 3x slower
// than decode). One node's reader is made once, however often it is read.
function objectReader(g, node, depth) {
    const sig = `o${signature(g, node)}`;
    if (g.readers.has(sig)) return g.readers.get(sig);
    g.visit(depth);
    const fn = g.name('o');
    g.readers.set(sig, fn);
    const props = g.orders === null ? node.properties || [] : g.orders.ordered(signature(g, node), node.properties || []);
    const required = new Set(node.required || []);
    if (props.length > MAX_GENERATED_FIELDS) {
        const table = wideTable(node, depth);
        const name = g.constant(table);
        g.functions.push(`function ${fn}(b, s, len, dv) {\n    return H.wide(${name}, b, s, len, dv);\n}\n`);
        const readers = wideReaders(g, table, props, depth);
        if (readers.length !== 0) g.functions.push(`${name}.readers = [${readers.join(', ')}];\n`);
        return fn;
    }
    let body = `function ${fn}(b, s, len, dv) {\n    const e = s + len - 1;\n    let p = s + 4, t, l, v;\n`;
    // required names that are not properties: the document may hold only properties' keys, so one is missing
    for (const name of required) if (!props.some((p) => p.name === name)) body += '    return F;\n';
    // keys out of the schema's order: the unordered reader
    const other = props.length > 1 && props.length <= MAX_UNORDERED ? `return ${unorderedReader(g, node, depth, props, required)}(b, s, len, dv);` : 'return F;';
    if (props.length <= CHUNK) {
        props.forEach((prop, k) => {
            body += `    let v${k} = F;\n`;
        });
        props.forEach((prop, k) => {
            body += readProperty(g, prop, required.has(prop.name) ? other : null, depth, `v${k}`);
        });
        body += `    if (p !== e) ${other}\n`;
        body += props.length === 0 ? '    return {};\n' : buildObject(g, props, required, (k) => `v${k}`, props.map((p, k) => `v${k}`).join(', '));
    } else {
        body += `    const w = new Array(${props.length}).fill(F);\n`;
        for (let from = 0; from < props.length; from += CHUNK) {
            const chunk = g.name('r');
            let code = `function ${chunk}(b, p, e, w, dv) {\n    let t, l, v;\n`;
            for (let k = from; k < Math.min(from + CHUNK, props.length); k++) {
                code += readProperty(g, props[k], required.has(props[k].name) ? 'return F;' : null, depth, `w[${k}]`);
            }
            code += '    return p;\n}\n';
            g.functions.push(code);
            // a chunk returns where it stopped, or F
            body += `    p = ${chunk}(b, p, e, w, dv);\n    if (p === F) ${other}\n`;
        }
        body += `    if (p !== e) ${other}\n`;
        body += buildObject(g, props, required, (k) => `w[${k}]`, 'w');
    }
    body += '}\n';
    g.functions.push(body);
    return fn;
}

// A document of more properties than MAX_GENERATED_FIELDS is read by H.wide, a loop over
// this table: generated code for wide_1k_fields' 1,000 fields was 580 kB of source, more
// machine code than the document has bytes, and read it at a third of decode's rate.
function wideTable(node, depth) {
    const props = node.properties;
    const required = new Set(node.required || []);
    return {
        keys: props.map((p) => Uint8Array.from(utf8Bytes(p.name))),
        names: props.map((p) => p.name),
        // the type bytes each property takes, as a mask over WIDE_TYPES
        masks: props.map((p) => (p.node.types === null ? -1 : [...p.node.types].reduce((m, t) => (WIDE_TYPES.includes(t) ? m | (1 << WIDE_TYPES.indexOf(t)) : m), 0))),
        nodes: props.map((p) => p.node),
        // whether a value is checked by the interpreter beyond its type
        checked: props.map((p) => p.node.enum !== null || hasLogical(p.node) || p.node.numberKeywords || p.node.stringKeywords),
        missingRequired: [...required].some((name) => !props.some((p) => p.name === name)),
        // each property's index by its name; and the required properties before each index
        index: new Map(props.map((p, i) => [p.name, i])),
        requiredBefore: props.reduce((counts, p) => (counts.push(counts[counts.length - 1] + (required.has(p.name) ? 1 : 0)), counts), [0]),
        maxDepth: MAX_DEPTH - depth - 1,
        // each property's generated reader of a document and of an array, by its index in
        // readers (wideReaders), or -1: read by decode and checked by the interpreter
        objectReader: props.map(() => -1),
        arrayReader: props.map(() => -1),
        readers: [],
    };
}

// The generated readers of a wide document's properties that are documents or arrays,
// as readProperty takes them, each named once (catalog_by_id's 300 events under one
// inferred schema were each decoded, then checked by the interpreter: 45% more
// instructions than decode). Fills table.objectReader and arrayReader with their indexes.
function wideReaders(g, table, props, depth) {
    const names = [];
    const indexOf = (fn) => {
        if (!names.includes(fn)) names.push(fn);
        return names.indexOf(fn);
    };
    if (depth >= MAX_GENERATED_DEPTH) return names;
    props.forEach((prop, i) => {
        const node = prop.node;
        const takes = (type) => node.types === null || node.types.has(type);
        if (takes('object') && objectInline(node) && !freeForm(node)) table.objectReader[i] = indexOf(objectReader(g, node, depth + 1));
        if (takes('array') && arrayInline(node)) table.arrayReader[i] = indexOf(arrayReader(g, node, depth + 1));
    });
    return names;
}

// Which of double and int32 an array's items may be with no check but their bounds
// ({ double, int }), or null for neither (items that are not numbers, or checked more)
function numberItems(items) {
    if (items !== null && (items.enum !== null || hasLogical(items))) return null;
    const takes = (type) => items === null || ((items.types === null || items.types.has(type)) && !needsResidual(items, type));
    const double = takes('double');
    const int = takes('int');
    return double || int ? { double, int } : null;
}

// An array of 128 bytes or more whose items may be doubles or int32s, checked at
// most for their bounds, is first read by the decoder's reader of number arrays: an
// array of exactly its length, its doubles unboxed, in one allocation. Pushed one by
// one, double_array's 25,000 doubles took 41% longer (576 us a decode against 408), in
// the allocations of a large array growing. Shorter arrays stay in the loop:
// geojson_polygons' [lon, lat] pairs take 26% fewer instructions there. Anything else
// in the array: the loop after.
const MIN_NUMBER_RUN_BYTES = 128;
function numbersFirst(items, counts) {
    const takes = numberItems(items);
    if (takes === null) return '';
    let code = `    out = len < ${MIN_NUMBER_RUN_BYTES} ? null : H.nums(b, dv, p, e, ${takes.double ? TYPE_BYTES.double : -1}, ${takes.int ? TYPE_BYTES.int : -1});\n    if (out !== null) {\n`;
    const checks = items === null ? '' : numberChecks(null, items, '            ', 'out[k]');
    if (checks !== '') code += `        for (let k = 0; k < out.length; k++) {\n${checks}        }\n`;
    return code + counts.replace(/^ {4}/gm, '        ') + '        return out;\n    }\n';
}

// the node of an array's items where its schema has no items: any value
const ANY = {
    types: null, enum: null, allOf: null, anyOf: null, oneOf: null, not: null, maximum: null, minimum: null, multipleOf: null, maxLength: null,
    minLength: null, pattern: null, itemsList: null, uniqueItems: false, properties: null, patternProperties: null, dependencies: null,
    minProperties: null, maxProperties: null, additionalProperties: null, required: null, items: null,
};

// The new array of a node's items. A `[]` literal adapts its elements to what it
// holds (doubles stay unboxed, as geojson's [lon, lat] pairs want), but it has an
// allocation site, which V8 may pretenure (buildObject says what that costs): only
// arrays that can hold nothing but numbers come from one (pretenured, they keep no
// string or document alive). The rest come from H.arr, which has no site and whose
// elements are pointers from the start. Items that may be numbers or more: the
// first one's type byte decides.
function newArrayOf(items) {
    const types = items === null ? null : items.types;
    if (types !== null && [...types].every((t) => t === 'double' || t === 'int')) return '[]';
    if (types !== null && !types.has('double') && !types.has('int')) return 'H.arr()';
    return `b[p] === ${TYPE_BYTES.double} || b[p] === ${TYPE_BYTES.int} ? [] : H.arr()`;
}

// a function (b, s, len, dv) -> the array at s, or FAIL
function arrayReader(g, node, depth) {
    const sig = `a${signature(g, node)}`;
    if (g.readers.has(sig)) return g.readers.get(sig);
    g.visit(depth);
    const fn = g.name('a');
    g.readers.set(sig, fn);
    let body = `function ${fn}(b, s, len, dv) {\n    const e = s + len - 1;\n    let p = s + 4, t, l, v, out;\n`;
    const counts = (node.maxItems !== null ? `    if (out.length > ${node.maxItems}) return F;\n` : '') + (node.minItems !== null ? `    if (out.length < ${node.minItems}) return F;\n` : '');
    body += numbersFirst(node.items, counts);
    body += `    out = ${newArrayOf(node.items)};\n`;
    body += '    while (p < e) {\n        t = b[p];\n        p++;\n        while (b[p] !== 0) p++;\n        if (p === e) return F;\n        p++;\n';
    body += readValue(g, node.items !== null ? node.items : ANY, depth, '        ');
    body += '        out.push(v);\n    }\n    if (p !== e) return F;\n' + counts + '    return out;\n}\n';
    g.functions.push(body);
    return fn;
}

// the root: (bytes as a Buffer) -> the document, or FAIL
function generateReader(root, orders = null) {
    if (root.types !== null && !root.types.has('object')) return null;
    if (!objectInline(root) || freeForm(root)) return null;
    const g = new Generator(orders);
    const fn = objectReader(g, root, 0);
    if (g.tooBig) return null;
    const source = `const F = H.FAIL;\nconst KEPT = [];\n${g.functions.join('\n')}\nreturn function read(b) {\n    const len = b.length;\n` +
        `    if (len < 5 || H.i32(b, 0) !== len || b[len - 1] !== 0) return F;\n    return ${fn}(b, 0, len, len >= H.DATA_VIEW_MIN_SIZE ? H.dataView(b) : null);\n};\n`;
    const make = compileSource('H, K', source);
    if (make === null) return null;
    const read = make(H, g.constants);
    read.constants = g.constants;
    read.source = source;
    return read;
}

// ---- the checker, for encode and validate ----

// code for v an instance of a BSON type class (its _bsontype in t): Int32, Double,
// Long and ObjectId checked here, the others by the interpreter
function taggedValue(g, node, allows, numberInline, i) {
    const residual = `${i}if (!H.checkValue(${g.constant(node)}, v)) return false;\n`;
    let code = '';
    for (const [tag, type] of [['Int32', 'int'], ['Double', 'double']]) {
        code += `${code === '' ? i : ''}if (t === ${JSON.stringify(tag)}) {\n`;
        if (!allows(type)) code += `${i}    return false;\n`;
        else if (numberInline) code += numberChecks(g, node, i + '    ', 'v.value') + enumCheck(g, node, type, i + '    ', 'v.value');
        else code += `    ${residual}`;
        code += `${i}} else `;
    }
    code += `if (t === "Long") {\n`;
    if (!allows('long')) code += `${i}    return false;\n`;
    else if (needsResidual(node, 'long')) code += `    ${residual}`;
    else code += enumCheck(g, node, 'long', i + '    ');
    code += `${i}} else if (t === "ObjectId") {\n`;
    if (!allows('objectId')) code += `${i}    return false;\n`;
    else if (node.enum !== null || hasLogical(node)) code += `    ${residual}`;
    code += `${i}} else {\n    ${residual}${i}}\n`;
    return code;
}

// code: whether value v (a field's value, present) conforms to node; returns false when unsure
function checkValue(g, node, depth, i) {
    const types = node.types;
    const allows = (t) => types === null || types.has(t);
    let code = '';
    const numberInline = !needsResidual(node, 'int') && !needsResidual(node, 'double');
    const stringInline = !needsResidual(node, 'string');
    code += `${i}if (typeof v === 'string') {\n`;
    if (!allows('string')) code += `${i}    return false;\n`;
    else if (stringInline) code += stringChecks(g, node, i + '    ') + enumCheck(g, node, 'string', i + '    ');
    else code += `${i}    if (!H.checkValue(${g.constant(node)}, v)) return false;\n`;
    code += `${i}} else if (typeof v === 'number') {\n`;
    const intOk = allows('int');
    const doubleOk = allows('double');
    if (!intOk || !doubleOk) {
        // int when an integer in int32 range and not -0 (encode's rule)
        const isInt = '((v | 0) === v && (v !== 0 || 1 / v > 0))';
        if (!intOk && !doubleOk) code += `${i}    return false;\n`;
        else code += `${i}    if (${intOk ? '!' : ''}${isInt}) return false;\n`;
    }
    if (intOk || doubleOk) {
        if (numberInline) code += numberChecks(g, node, i + '    ') + enumCheck(g, node, 'int', i + '    ');
        else code += `${i}    if (!H.checkValue(${g.constant(node)}, v)) return false;\n`;
    }
    code += `${i}} else if (typeof v === 'boolean') {\n`;
    if (!allows('bool')) code += `${i}    return false;\n`;
    else if (node.enum !== null || hasLogical(node)) code += `${i}    if (!H.checkValue(${g.constant(node)}, v)) return false;\n`;
    code += `${i}} else if (v === null) {\n`;
    if (!allows('null')) code += `${i}    return false;\n`;
    else if (node.enum !== null || hasLogical(node)) code += `${i}    if (!H.checkValue(${g.constant(node)}, v)) return false;\n`;
    code += `${i}} else if (typeof v === 'object' && typeof (t = v._bsontype) === 'string' && typeof v.toBSON !== 'function') {\n`;
    code += taggedValue(g, node, allows, numberInline, i + '    ');
    code += `${i}} else if (typeof v === 'object' && H.proto(v) === H.OP && typeof v.toBSON !== 'function' && typeof v._bsontype !== 'string') {\n`;
    if (!allows('object')) code += `${i}    return false;\n`;
    else if (objectInline(node) && !freeForm(node) && depth < MAX_GENERATED_DEPTH) code += `${i}    if (!${objectChecker(g, node, depth + 1)}(v)) return false;\n`;
    else code += `${i}    if (!H.checkValue(${g.constant(node)}, v)) return false;\n`;
    code += `${i}} else if (H.isArray(v)) {\n`;
    if (!allows('array')) code += `${i}    return false;\n`;
    else if (arrayInline(node) && depth < MAX_GENERATED_DEPTH) code += `${i}    if (!${arrayChecker(g, node, depth + 1)}(v)) return false;\n`;
    else code += `${i}    if (!H.checkValue(${g.constant(node)}, v)) return false;\n`;
    code += `${i}} else if (typeof v === 'function' || typeof v === 'symbol') {\n${i}    return false;\n`;
    code += `${i}} else if (!H.checkValue(${g.constant(node)}, v)) {\n${i}    return false;\n${i}}\n`;
    return code;
}

// code checking property prop of o if it is next in the key list ks (at j)
// (outOfOrder: the statement for a required property that is not next)
function checkProperty(g, prop, isRequired, depth, outOfOrder) {
    const name = JSON.stringify(prop.name);
    let code = `    if (j < ks.length && ks[j] === ${name}) {\n        v = o[${name}];\n        j++;\n`;
    code += `        if (v === undefined) {\n${isRequired ? '            return false;\n' : ''}        } else {\n`;
    code += checkValue(g, prop.node, depth, '            ');
    code += `        }\n    }${isRequired ? ` else ${outOfOrder}` : ''}\n`;
    return code;
}

// a function (o, ks) -> true when the plain object o, whose keys ks are not in the
// schema's order, surely conforms: one switch on each key (api_statuses' statuses
// come in two key orders, and went to the interpreter: codec.encode at 0.34x ajv then encode)
function unorderedChecker(g, node, depth, props, required) {
    const fn = g.name('q');
    let body = `function ${fn}(o, ks) {\n    let v, t, n = 0;\n    for (let j = 0; j < ks.length; j++) {\n        v = o[ks[j]];\n        switch (ks[j]) {\n`;
    for (const prop of props) {
        body += `            case ${JSON.stringify(prop.name)}:\n                if (v === undefined) break;\n`;
        if (required.has(prop.name)) body += '                n++;\n';
        body += checkValue(g, prop.node, depth, '                ') + '                break;\n';
    }
    body += '            default:\n                return false;\n        }\n    }\n';
    body += `    return n === ${props.filter((p) => required.has(p.name)).length};\n}\n`;
    g.functions.push(body);
    return fn;
}

// a function (o) -> true when the plain object o surely conforms to node; wide
// documents are checked CHUNK properties per function, as they are read
function objectChecker(g, node, depth) {
    const sig = `c${signature(g, node)}`;
    if (g.readers.has(sig)) return g.readers.get(sig);
    g.visit(depth);
    const fn = g.name('c');
    g.readers.set(sig, fn);
    const props = node.properties || [];
    const required = new Set(node.required || []);
    if (props.length > MAX_GENERATED_FIELDS) {
        // as H.wide reads them: the interpreter checks wide documents
        g.functions.push(`function ${fn}(o) {\n    return H.checkValue(${g.constant(node)}, o);\n}\n`);
        return fn;
    }
    let body = `function ${fn}(o) {\n    const ks = H.keys(o);\n    let j = 0, v, r, t;\n`;
    for (const name of required) if (!props.some((p) => p.name === name)) body += '    return false;\n';
    // keys out of the schema's order: the unordered checker
    const other = props.length > 1 && props.length <= MAX_UNORDERED ? `${unorderedChecker(g, node, depth, props, required)}(o, ks)` : 'false';
    if (props.length <= CHUNK) {
        for (const prop of props) body += checkProperty(g, prop, required.has(prop.name), depth, `return ${other};`);
    } else {
        for (let from = 0; from < props.length; from += CHUNK) {
            const chunk = g.name('k');
            let code = `function ${chunk}(o, ks, j) {\n    let v, t;\n`;
            for (let k = from; k < Math.min(from + CHUNK, props.length); k++) code += checkProperty(g, props[k], required.has(props[k].name), depth, 'return 0;');
            // j + 1 where it stopped (never 0 nor false), 0 for a key out of order, or false
            code += '    return j + 1;\n}\n';
            g.functions.push(code);
            body += `    r = ${chunk}(o, ks, j);\n    if (r === false) return false;\n    if (r === 0) return ${other};\n    j = r - 1;\n`;
        }
    }
    body += `    return j === ks.length || ${other};\n}\n`;
    g.functions.push(body);
    return fn;
}

function arrayChecker(g, node, depth) {
    const sig = `d${signature(g, node)}`;
    if (g.readers.has(sig)) return g.readers.get(sig);
    g.visit(depth);
    const fn = g.name('d');
    g.readers.set(sig, fn);
    let body = `function ${fn}(arr) {\n    let v, t;\n`;
    if (node.maxItems !== null) body += `    if (arr.length > ${node.maxItems}) return false;\n`;
    if (node.minItems !== null) body += `    if (arr.length < ${node.minItems}) return false;\n`;
    if (node.items !== null) {
        body += '    for (let k = 0; k < arr.length; k++) {\n        v = arr[k];\n        if (v === undefined) return false;\n';
        body += checkValue(g, node.items, depth, '        ');
        body += '    }\n';
    }
    body += '    return true;\n}\n';
    g.functions.push(body);
    return fn;
}

// the root: (doc) -> true when doc surely conforms, as encode would write it with default options
function generateChecker(root) {
    if (root.types !== null && !root.types.has('object')) return null;
    if (!objectInline(root) || freeForm(root)) return null;
    const g = new Generator();
    const fn = objectChecker(g, root, 0);
    if (g.tooBig) return null;
    const source = `const F = false;\n${g.functions.join('\n')}\nreturn function conforms(o) {\n` +
        `    return H.proto(o) === H.OP && typeof o.toBSON !== 'function' && ${fn}(o);\n};\n`;
    const make = compileSource('H, K', source);
    if (make === null) return null;
    const conforms = make(H, g.constants);
    conforms.source = source;
    return conforms;
}

module.exports = {
    generateReader, generateChecker, FAIL, H,
    // for the tests
    Builders,
    // for the writer (lib/schema/generate-writer.js)
    Generator, compileSource, signature, utf8Bytes, MAX_GENERATED_FIELDS, MAX_UNORDERED, needsResidual, hasLogical, numberItems, ANY, objectInline, arrayInline, freeForm, numberChecks, stringChecks, enumCheck,
};
