'use strict';

// decode(buf, {fields: ['a', 'b.c']}): only the named fields are built, in the
// order the document stores them, each value as decode gives it. The other
// elements are stepped over by their lengths (lib/lookup.js), so the cost is the
// fields taken plus a few bytes per field left.
//
// As in a MongoDB projection, a path goes on into every document of an array it
// meets ({'items.price'} keeps [{price}, {price}...]; other elements are left
// out), and a document the path goes through is kept even when none of its
// fields is taken. A path and a longer one under it ('a', 'a.b') take all of 'a'.

const C = require('./constants');
const { BSONError } = require('./errors');
const { parsePath, keyIs } = require('./path');
const { setField } = require('./wide-object');
const { Container, scanElement, validationFor, readValue } = require('./lookup');
const { overflowAsBSONError } = require('./decode');

// One key of a projection: all of its value (whole), or the fields under it.
class FieldNode {
    constructor(key, bytes) {
        this.key = key;
        this.bytes = bytes;
        this.whole = false;
        this.children = [];
    }
}

// The tree of the paths in `fields`, an array of paths as get takes them.
function fieldTree(fields) {
    if (!Array.isArray(fields)) throw new BSONError('option fields must be an array of paths');
    const root = new FieldNode('', null);
    for (let i = 0; i < fields.length; i++) {
        let node = root;
        for (const step of parsePath(fields[i])) {
            if (node.whole) break;
            let child = node.children.find((n) => n.key === step.key);
            if (child === undefined) {
                child = new FieldNode(step.key, step.bytes);
                node.children.push(child);
            }
            node = child;
        }
        node.whole = true;
        node.children = [];
    }
    return root;
}

// The document of `size` bytes at start, projected on `fields`.
function decodeFields(dec, start, size, fields) {
    const tree = fieldTree(fields);
    const c = new Container(start, start + size - 1, false, 0, dec.validateUtf8, true);
    try {
        return projectDocument(dec, c, tree);
    } catch (err) {
        throw overflowAsBSONError(dec, err, start);
    }
}

// The index in node.children of the field the key at keyStart names, or -1.
function childIndex(buf, keyStart, nul, node) {
    const children = node.children;
    for (let i = 0; i < children.length; i++) {
        if (keyIs(buf, keyStart, nul, children[i].key, children[i].bytes)) return i;
    }
    return -1;
}

function projectDocument(dec, c, node) {
    const buf = dec.buf;
    const children = node.children;
    const out = {};
    // the first element under each key is the one taken, as get takes it
    const taken = new Uint8Array(children.length);
    let left = children.length;
    let pos = c.start + 4;
    while (pos < c.end && left !== 0) {
        scanElement(dec, c, pos);
        const i = childIndex(buf, pos + 1, c.nul, node);
        if (i >= 0 && taken[i] === 0) {
            taken[i] = 1;
            left--;
            const value = projectValue(dec, c, pos, children[i]);
            if (value !== undefined || children[i].whole) setField(out, children[i].key, value);
        }
        pos = c.next;
    }
    return out;
}

// The element at pos of c, projected on node: undefined when it is left out.
function projectValue(dec, c, pos, node) {
    const validate = validationFor(dec, c, node.key);
    if (node.whole) return readValue(dec, c, pos, validate);
    const type = dec.buf[pos];
    if (type === C.BSON_DOCUMENT) return projectDocument(dec, c.child(dec, pos, validate), node);
    if (type === C.BSON_ARRAY) return projectArray(dec, c.child(dec, pos, validate), node);
    return undefined;
}

// Each document of the array projected on node, and each array within it.
function projectArray(dec, c, node) {
    const buf = dec.buf;
    const out = [];
    let pos = c.start + 4;
    while (pos < c.end) {
        scanElement(dec, c, pos);
        const type = buf[pos];
        if (type === C.BSON_DOCUMENT) out.push(projectDocument(dec, c.child(dec, pos, c.validate), node));
        else if (type === C.BSON_ARRAY) out.push(projectArray(dec, c.child(dec, pos, c.validate), node));
        pos = c.next;
    }
    return out;
}

module.exports = { decodeFields, fieldTree };
