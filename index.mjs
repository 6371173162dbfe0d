// ESM entry: the CommonJS module's exports, by name. Reading them all loads what
// require('qbson') loads on first read: the classes, which an import must bind
// to themselves, and bson's utility namespaces. The functions of the parts a
// program may never use (Extended JSON, calculateObjectSize, get/has, lazy, the
// streams) load on first call in both entries (lib/on-first-call.js). The
// module comes through createRequire: `import qbson from './index.js'` would
// have Node parse index.js for its export names first, which took longer.
import { createRequire } from 'node:module';

const qbson = createRequire(import.meta.url)('./index.js');

export default qbson;
export const {
    encode,
    encodeInto,
    decode,
    decodeAll,
    decodeStream,
    encodeStream,
    get,
    has,
    jsonToBSON,
    bsonToJSON,
    compile,
    lazy,
    LazyDocument,
    calculateObjectSize,
    serialize,
    serializeWithBufferAndIndex,
    deserialize,
    deserializeStream,
    setInternalBufferSize,
    BSON,
    BSONType,
    bsonType,
    onDemand,
    ByteUtils,
    NumberUtils,
    EJSON,
    BSONError,
    BSONVersionError,
    BSONRuntimeError,
    BSONOffsetError,
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
} = qbson;
