'use strict';

// The MongoDB driver (devDependency `mongodb`) with qbson as its bson, in this process:
// a request for 'bson' made from a file inside node_modules/mongodb resolves to qbson's
// require entry (dist/node/qbson.cjs, which npm test builds first). That is what npm's
// "overrides" recipe in the README does on disk, without a second install. It must run before the first require('mongodb')
// (test/support/driver-on-qbson-preload.js does it for `node -r`).

const fs = require('fs');
const Module = require('module');
const path = require('path');

const ROOT = path.join(__dirname, '..', '..');
const QBSON_ENTRY = path.join(ROOT, 'dist', 'node', 'qbson.cjs');

function useQbsonInDriver() {
    if (!fs.existsSync(QBSON_ENTRY)) throw new Error(QBSON_ENTRY + ' is not built: npm run build');
    if (require.resolve('qbson', { paths: [ROOT] }) !== QBSON_ENTRY) throw new Error("package.json's require entry is not " + QBSON_ENTRY);
    const driverDir = path.dirname(require.resolve('mongodb/package.json', { paths: [ROOT] }));
    if (Object.keys(require.cache).some((file) => file.startsWith(driverDir + path.sep))) {
        throw new Error('the mongodb driver is loaded already, on its own bson');
    }
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (request, parent, ...rest) {
        if (request === 'bson' && parent && parent.filename && parent.filename.startsWith(driverDir + path.sep)) return QBSON_ENTRY;
        return resolve.call(this, request, parent, ...rest);
    };
}

// whether the loaded driver's BSON is qbson's
function driverUsesQbson(mongodb) {
    return mongodb.BSON === require(QBSON_ENTRY).BSON;
}

module.exports = { useQbsonInDriver, driverUsesQbson };
