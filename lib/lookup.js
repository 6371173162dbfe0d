'use strict';

// Reading one value in place: get(buf, path) and has(buf, path) follow the path
// through the documents and arrays on it (lib/element-walker.js), stepping over
// every element they do not need, and read only the value found.

const { Decoder, toBuffer, overflowAsBSONError } = require('./decoder');
const { parsePath } = require('./path');
const { rootContainer, readValue, locate } = require('./element-walker');

// The value at path in the document, decoded with decode's options; undefined
// when the path leads nowhere.
function get(input, path, opts) {
    const steps = parsePath(path);
    const dec = new Decoder(toBuffer(input), opts);
    const c = rootContainer(dec, opts);
    const top = c.start;
    const at = locate(dec, c, steps);
    if (at < 0) return undefined;
    const last = steps[steps.length - 1];
    try {
        return readValue(dec, c, at, c.validate, c.isArray ? last.index : last.key, false);
    } catch (err) {
        throw overflowAsBSONError(dec, err, top);
    }
}

// Whether the document has an element at path (its value is not read).
function has(input, path, opts) {
    const steps = parsePath(path);
    const dec = new Decoder(toBuffer(input), opts);
    return locate(dec, rootContainer(dec, opts), steps) >= 0;
}

module.exports = { get, has };
