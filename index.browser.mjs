// ES module entry for bundlers building for a browser (package.json's `browser`
// condition), and the source of dist/qbson.browser.mjs. It names the same exports
// as index.mjs, each taken from the module that makes it, so that with
// "sideEffects": false a bundler keeps only the modules a program imports from:
// `import { encode, decode }` leaves out Extended JSON, the readers, the streams
// and bson's compatibility layer (docs/runtimes.md gives the sizes).
import qbson from './index.js';
import { LAZY_EXPORTS } from './lib/bson-namespace.js';

export default qbson;
export { BSON } from './lib/bson-namespace.js';
// made on first read in index.js; the annotation tells a bundler it may drop the
// call, and with it bson's element parser, when unused
export const onDemand = /* @__PURE__ */ (() => LAZY_EXPORTS.onDemand())();
export { encode, encodeInto } from './lib/encode.js';
export { decode, decodeAll } from './lib/decode.js';
export { EJSON } from './lib/on-first-call/ejson.js';
export { calculateObjectSize } from './lib/on-first-call/size.js';
export { get, has } from './lib/on-first-call/lookup.js';
export { lazy } from './lib/on-first-call/lazy.js';
export { decodeStream, encodeStream } from './lib/on-first-call/stream.js';
export { jsonToBSON } from './lib/on-first-call/json-to-bson.js';
export { bsonToJSON } from './lib/on-first-call/bson-to-json.js';
export { compile } from './lib/on-first-call/schema.js';
export { LazyDocument } from './lib/lazy.js';
export { serialize, serializeWithBufferAndIndex, deserialize, deserializeStream, setInternalBufferSize, BSONType, bsonType } from './lib/compat.js';
export { ByteUtils } from './lib/bson-byte-utils.js';
export { NumberUtils } from './lib/bson-number-utils.js';
export { BSONError, BSONVersionError, BSONRuntimeError, BSONOffsetError } from './lib/errors.js';
export {
    BSONValue,
    ObjectId,
    Long,
    Int32,
    Double,
    Decimal128,
    Binary,
    UUID,
    Timestamp,
    Code,
    BSONRegExp,
    BSONSymbol,
    DBRef,
    MinKey,
    MaxKey,
    DBPointer,
    BSONUndefined,
} from './lib/types/index.js';
