'use strict';

// decode(buf, {fields: ['a', 'b.c']}): only the named fields are built, in the
// order the document stores them, each value as decode gives it. The other
// elements are stepped over by their lengths (lib/element-walker.js), so the cost is the
// fields taken plus a few bytes per field left.
//
// As in a MongoDB projection, a path goes on into every document of an array it
// meets ({'items.price'} keeps [{price}, {price}...]; other elements are left
// out), and a document the path goes through is kept even when none of its
// fields is taken. A path and a longer one under it ('a', 'a.b') take all of 'a'.

const C = require('./constants');
const { parsePath, keyIs } = require('./path');
const { readFields, readFieldPath } = require('./options');
const { setField } = require('./set-field');
const { Container, scanElement, validationFor, readValue } = require('./element-walker');
const { overflowAsBSONError } = require('./decoder');

// One key of a projection: all of its value (whole), or the fields under it.
// takenIn is the number of the last document projected that took this key.
class FieldNode {
    constructor(key, bytes) {
        this.key = key;
        this.bytes = bytes;
        this.whole = false;
        this.children = [];
        this.takenIn = 0;
    }
}

// The tree of the paths in `fields`, an array of paths as get takes them;
// `documents` numbers the documents projected on it.
class FieldTree {
    constructor(fields) {
        readFields(fields);
        this.fields = fields.slice();
        this.root = new FieldNode('', null);
        this.documents = 0;
        for (let i = 0; i < fields.length; i++) this.add(readFieldPath(parsePath, fields, i));
    }

    add(steps) {
        let node = this.root;
        for (const step of steps) {
            if (node.whole) return;
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

    // whether it was made of these fields (string paths compared, array paths never equal)
    isOf(fields) {
        const mine = this.fields;
        if (!Array.isArray(fields) || fields.length !== mine.length) return false;
        for (let i = 0; i < mine.length; i++) {
            if (typeof mine[i] !== 'string' || fields[i] !== mine[i]) return false;
        }
        return true;
    }
}

// The tree of the last call, reused when the same fields come again (a reader
// of many documents asks for the same ones each time).
let lastTree = null;

function fieldTree(fields) {
    if (lastTree === null || !lastTree.isOf(fields)) lastTree = new FieldTree(fields);
    return lastTree;
}

// The document of `size` bytes at start, projected on `fields`.
function decodeFields(dec, start, size, fields) {
    const tree = fieldTree(fields);
    const c = new Container(start, start + size - 1, false, 0, dec.validateUtf8, true, dec.raw, false);
    try {
        return projectDocument(dec, c, tree, tree.root);
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

function projectDocument(dec, c, tree, node) {
    const buf = dec.buf;
    const children = node.children;
    const out = {};
    // the first element under each key is the one taken, as get takes it
    const number = ++tree.documents;
    let left = children.length;
    let pos = c.start + 4;
    while (pos < c.end && left !== 0) {
        scanElement(dec, c, pos);
        const i = childIndex(buf, pos + 1, c.nul, node);
        if (i >= 0 && children[i].takenIn !== number) {
            const child = children[i];
            child.takenIn = number;
            left--;
            const value = projectValue(dec, c, pos, tree, child);
            if (value !== undefined || child.whole) setField(out, child.key, value);
        }
        pos = c.next;
    }
    return out;
}

// The element at pos of c, projected on node: undefined when it is left out.
function projectValue(dec, c, pos, tree, node) {
    const validate = validationFor(dec, c, node.key);
    if (node.whole) return readValue(dec, c, pos, validate, node.key, false);
    const type = dec.buf[pos];
    if (type === C.BSON_DOCUMENT) return projectDocument(dec, c.child(dec, pos, validate, node.key), tree, node);
    if (type === C.BSON_ARRAY) return projectArray(dec, c.child(dec, pos, validate, node.key), tree, node);
    return undefined;
}

// Each document of the array projected on node, and each array within it.
function projectArray(dec, c, tree, node) {
    const buf = dec.buf;
    const out = [];
    let pos = c.start + 4;
    for (let i = 0; pos < c.end; i++) {
        scanElement(dec, c, pos);
        const type = buf[pos];
        if (type === C.BSON_DOCUMENT) out.push(projectDocument(dec, c.child(dec, pos, c.validate, i), tree, node));
        else if (type === C.BSON_ARRAY) out.push(projectArray(dec, c.child(dec, pos, c.validate, i), tree, node));
        pos = c.next;
    }
    return out;
}

module.exports = { decodeFields };
