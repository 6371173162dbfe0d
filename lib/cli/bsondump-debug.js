'use strict';

// bsondump's --type=debug text for one document: its size, then for each
// element its key, its type byte (as a signed byte, so MinKey is -1) and its
// size (type byte + key + NUL + value); embedded documents and arrays are
// described the same way three tabs further in. The bytes must have passed
// the decoder.

const C = require('../constants');
const { forEachElement, int32At } = require('./raw-elements');

function describe(buf, start, level, lines) {
    const tabs = '\t'.repeat(level);
    lines.push(`${tabs}--- new object ---`, `${tabs}\tsize : ${int32At(buf, start)}`);
    forEachElement(buf, start, (type, keyStart, keyEnd, valueStart, valueEnd) => {
        const signed = type > 127 ? type - 256 : type;
        lines.push(`${tabs}\t\t${buf.toString('utf8', keyStart, keyEnd)}`, `${tabs}\t\t\ttype: ${String(signed).padStart(4)} size: ${valueEnd - keyStart + 1}`);
        if (type === C.BSON_DOCUMENT || type === C.BSON_ARRAY) describe(buf, valueStart, level + 3, lines);
    });
}

// The debug text of the whole document in buf, ending with a newline.
function toBsondumpDebug(buf) {
    const lines = [];
    describe(buf, 0, 0, lines);
    return lines.join('\n') + '\n';
}

module.exports = { toBsondumpDebug };
