'use strict';

// Key paths as get, has, lazy views and projections take them: 'user.name'
// (split on dots), or an array of keys and array indexes, ['items', 3, 'price'],
// which also reaches keys that contain dots. Each step keeps its key as UTF-8
// bytes, so documents are searched by comparing bytes, never by decoding keys.

const { fromUtf8 } = require('./platform');
const { BSONError } = require('./errors');

// A step of a path: a document key (as text and UTF-8 bytes), and the array
// index it names when it is a whole number written as an array key is ('3',
// not '03'), else -1.
class PathStep {
    constructor(key) {
        this.key = key;
        this.bytes = utf8Bytes(key);
        this.index = ARRAY_INDEX.test(key) ? Number(key) : -1;
    }
}

// key's UTF-8 bytes, or null when key is ASCII (its char codes are its bytes).
// A key with a lone surrogate names no stored key (decode gives every key as
// well-formed text): it gets a NUL, which no key holds.
function utf8Bytes(key) {
    for (let i = 0; i < key.length; i++) {
        if (key.charCodeAt(i) >= 0x80) return LONE_SURROGATE.test(key) ? NO_KEY : fromUtf8(key);
    }
    return null;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;
const NO_KEY = new Uint8Array(1);

const ARRAY_INDEX = /^(?:0|[1-9][0-9]{0,8})$/;

// Parsed string paths, kept for the next call: a log filter asks for the same
// path of every document. Emptied when full.
const MAX_CACHED_PATHS = 256;
const cache = new Map();

// The steps of a path, an array of PathStep; a BSONError for anything else.
function parsePath(path) {
    if (typeof path === 'string') {
        let steps = cache.get(path);
        if (steps === undefined) {
            steps = Object.freeze(path.split('.').map((key) => new PathStep(key)));
            if (cache.size === MAX_CACHED_PATHS) cache.clear();
            cache.set(path, steps);
        }
        return steps;
    }
    if (!Array.isArray(path)) throw new BSONError(`a path must be a string or an array of keys and indexes, not ${describe(path)}`);
    if (path.length === 0) throw new BSONError('a path must name at least one key');
    const steps = new Array(path.length);
    for (let i = 0; i < path.length; i++) steps[i] = new PathStep(stepKey(path[i], i));
    return steps;
}

function stepKey(step, i) {
    if (typeof step === 'string') return step;
    if (Number.isInteger(step) && step >= 0) return String(step);
    throw new BSONError(`path step ${i} must be a string or an array index (a whole number from 0), not ${describe(step)}`);
}

function describe(value) {
    return typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' ? String(value) : typeof value;
}

// Whether the key of the element at keyStart, ending at its NUL, is `key`
// (bytes: its UTF-8 bytes, or null when it is ASCII).
function keyIs(buf, keyStart, nul, key, bytes) {
    if (bytes === null) {
        const len = key.length;
        if (nul - keyStart !== len) return false;
        for (let i = 0; i < len; i++) {
            if (buf[keyStart + i] !== key.charCodeAt(i)) return false;
        }
        return true;
    }
    const len = bytes.length;
    if (nul - keyStart !== len) return false;
    for (let i = 0; i < len; i++) {
        if (buf[keyStart + i] !== bytes[i]) return false;
    }
    return true;
}

module.exports = { parsePath, PathStep, keyIs, utf8Bytes };
