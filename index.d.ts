// Type declarations for qbson: the encoder, decoder, streams, Extended JSON and
// every BSON type class, as index.js exports them (index.mjs re-exports the same
// names, plus the whole module as its default export).
//
// bson@7's 32 names are declared as bson@7 declares them, member for member, so
// that a program (or the MongoDB driver) written against bson compiles unchanged
// with qbson in its place; test/declarations.test.js compares the two files, and
// docs/differences.md lists every member that differs and why. qbson's own
// options live in qbson's own interfaces (EncodeOptions, DecodeOptions, ...),
// never in the ones that carry bson's names.
//
// Node's own types (@types/node) are used when the program has them: the byte
// results of qbson's own functions are then Buffer and encodeStream() a
// stream.Transform. Without them they are Uint8Array and a small stream interface.

// @ts-ignore -- resolves only where @types/node is loaded; unused otherwise
import type { Transform as NodeTransform } from 'node:stream';

// ---------------------------------------------------------------------------
// Node detection

// @ts-ignore -- the global Buffer of @types/node; only used when that is loaded
type NodeBuffer = Buffer;
type HasNodeTypes = typeof globalThis extends { Buffer: unknown } ? true : false;

/**
 * The bytes qbson's own functions hand back: a Node Buffer where the global Buffer exists (Node, Bun,
 * Deno's node mode), a plain Uint8Array elsewhere (browsers, workers, Deno); typed Uint8Array without @types/node.
 */
export type BSONBuffer = HasNodeTypes extends true ? NodeBuffer : Uint8Array;

/** What encodeStream() returns when @types/node is not loaded: the parts of a Transform most code uses. */
export interface DocumentEncodeStream extends AsyncIterable<BSONBuffer> {
    write(doc: Document | ReadonlyMap<string, unknown>, callback?: (error?: Error | null) => void): boolean;
    end(callback?: () => void): this;
    end(doc: Document | ReadonlyMap<string, unknown>, callback?: () => void): this;
    pipe<T>(destination: T, options?: { end?: boolean }): T;
    on(event: string | symbol, listener: (...args: any[]) => void): this;
    once(event: string | symbol, listener: (...args: any[]) => void): this;
    off(event: string | symbol, listener: (...args: any[]) => void): this;
    destroy(error?: Error): this;
    readonly destroyed: boolean;
}

/** encodeStream()'s result: a stream.Transform (writable side in object mode). */
export type EncodeStream = HasNodeTypes extends true ? NodeTransform : DocumentEncodeStream;

// ---------------------------------------------------------------------------
// Documents, and bson's options

/** A BSON document as JavaScript sees it: string keys, any values. */
export declare interface Document {
    [key: string]: any;
}

/** bson's options of serialize() and serializeWithBufferAndIndex(). */
export declare interface SerializeOptions {
    /** Refuse keys starting with '$' or containing '.' ($db, $ref, $id, $clusterTime excepted). Default false. */
    checkKeys?: boolean;
    /** Write functions as BSON code; otherwise they are skipped. Default false. */
    serializeFunctions?: boolean;
    /** Skip undefined object values (true, the default) or write them as null. Array elements are always null. */
    ignoreUndefined?: boolean;
    /** serializeWithBufferAndIndex only: where in the buffer to start writing. Default 0. */
    index?: number;
}

/** bson's options of deserialize() and deserializeStream(). */
export declare interface DeserializeOptions {
    /** int64 as a bigint. Needs promoteLongs and promoteValues left true. Default false. */
    useBigInt64?: boolean;
    /** int64 as a number when it fits exactly in a double (default true); otherwise a Long. */
    promoteLongs?: boolean;
    /** Binary data as a Buffer instead of a Binary. Default false. */
    promoteBuffers?: boolean;
    /** int32, double, int64 and symbol as JavaScript values (default true); false gives Int32, Double, Long, BSONSymbol. */
    promoteValues?: boolean;
    /** Keys whose arrays stay undecoded: each document of such an array is left as its bytes. */
    fieldsAsRaw?: Document;
    /** Regular expressions as BSONRegExp instead of RegExp. Default false. */
    bsonRegExp?: boolean;
    /** Allow bytes after the document. Default false: the document must end the buffer. */
    allowObjectSmallerThanBufferSize?: boolean;
    /** Offset of the document in the buffer. Default 0. */
    index?: number;
    /** Leave the documents of every array as their bytes (with fieldsAsRaw: of the arrays it names). */
    raw?: boolean;
    /**
     * UTF-8 checking of strings: utf8 true (the default) or false for all, or an
     * object naming top-level keys all true (check only those) or all false (check all but those).
     */
    validation?: {
        utf8: boolean | Record<string, true> | Record<string, false>;
    };
}

/** The options calculateObjectSize() takes. */
export declare type CalculateObjectSizeOptions = Pick<SerializeOptions, 'serializeFunctions' | 'ignoreUndefined'>;

// ---------------------------------------------------------------------------
// qbson's own options

/**
 * What encode() takes as the top-level document: a plain object (or class
 * instance, or an object with toBSON()), a Map with string keys, or null /
 * undefined for the empty document. Arrays and other iterables are refused.
 */
export type EncodableDocument = (Document & { [Symbol.iterator]?: never }) | ReadonlyMap<string, unknown> | null | undefined;

/** Options of encode(), encodeInto(), encodeStream() and jsonToBSON(). */
export interface EncodeOptions {
    /** Refuse keys starting with '$' or containing '.' ($db, $ref, $id, $clusterTime excepted). Default false. */
    checkKeys?: boolean;
    /** Write functions as BSON code; otherwise they are skipped. Default false. */
    serializeFunctions?: boolean;
    /** Skip undefined object values (true, the default) or write them as null. Array elements are always null. */
    ignoreUndefined?: boolean;
    /** Deepest nesting allowed, a positive integer. Default 500. */
    maxDepth?: number;
    /** Largest encoding allowed in bytes, a positive integer; ERR_BSON_TOO_LARGE beyond it. Default unlimited. */
    maxDocumentSize?: number;
}

/** The options only qbson's decoders read, beside bson's. */
export interface DecodeOwnOptions {
    /** Keep DBPointer, undefined and symbol as DBPointer, BSONUndefined and BSONSymbol. Default false. */
    preserveDeprecated?: boolean;
    /** Deepest nesting allowed, a positive integer. Default 500. */
    maxDepth?: number;
    /**
     * The form each named BSON type is decoded into, made as the value is read:
     * e.g. { objectId: 'hex', date: 'iso' }. Takes over from promoteLongs,
     * useBigInt64, promoteBuffers and bsonRegExp for the types it names.
     * Unknown type names or forms are a BSONError. See docs/value-mapping.md.
     */
    values?: ValueForms;
    /**
     * As JSON.parse's reviver: called with `this` the containing document or array
     * for every field, innermost documents first, then with key '' for the whole
     * document; its result replaces the value, undefined deletes the field.
     * Refused by get, has, lazy and the fields option.
     */
    reviver?: (this: any, key: string, value: any) => any;
}

/** Options of decodeAll(), and the value options shared by every decoder entry point. */
export interface DecodeAllOptions extends Omit<DeserializeOptions, 'index' | 'allowObjectSmallerThanBufferSize'>, DecodeOwnOptions {}

/** The forms of the values option, per BSON type; a type not named keeps decode's form. */
export interface ValueForms {
    /** 'hex': the 24 hex digits. */
    objectId?: 'hex' | 'objectId';
    /** 'iso': Date#toISOString()'s text; 'ms': milliseconds since the epoch. */
    date?: 'iso' | 'ms' | 'date';
    /** Every int64 as a number (the nearest double), bigint, decimal string or Long. */
    int64?: 'number' | 'bigint' | 'string' | 'long';
    /** 'string': Decimal128#toString(); 'number': that read by Number. */
    decimal128?: 'string' | 'number' | 'decimal128';
    /** The payload as base64 or hex text, a copy as Buffer (Uint8Array without Buffer) or plain Uint8Array, or a Binary. */
    binary?: 'base64' | 'hex' | 'buffer' | 'uint8array' | 'binary';
    /** Binary subtype 4 of 16 bytes; 'string': the canonical 8-4-4-4-12 form. Not named: as binary. */
    uuid?: 'string' | 'hex' | 'base64' | 'buffer' | 'uint8array' | 'uuid';
    /** 'object': { t, i }; 'bigint': t * 2^32 + i. */
    timestamp?: 'object' | 'bigint' | 'timestamp';
    /** 'string': /pattern/flags with BSON's flags in order; 'regexp' or 'bsonRegExp' as bsonRegExp false or true. */
    regex?: 'string' | 'regexp' | 'bsonRegExp';
}

/** Options of decode(): bson's DeserializeOptions and qbson's own. */
export interface DecodeOptions extends DeserializeOptions, DecodeOwnOptions, FieldsOption {}

/** Options of the readers of part of a document (get, has, lazy): decode's, without a reviver or fields. */
export type ReaderOptions = Omit<DecodeOptions, 'reviver' | 'fields'>;

/** Options of decode() and decodeAll() that choose fields. */
export interface FieldsOption {
    /**
     * Build only these fields, in document order. Each is a path as get() takes
     * it; a path into an array goes on into each document of it, as in a MongoDB
     * projection. Fields not named are stepped over, not decoded.
     */
    fields?: ReadonlyArray<Path>;
}

/** Options of decodeStream(): decodeAll's (fields included) plus a bound on document size. */
export interface DecodeStreamOptions extends DecodeAllOptions, FieldsOption {
    /** Largest document accepted, 5 to 2^31-1 bytes. Default 16 MiB + 16 KiB. */
    maxDocumentSize?: number;
}

/** A decodeStream() source: a Readable or any (async) iterable of byte chunks, or a single buffer. */
export type DecodeStreamSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array> | Uint8Array;

// ---------------------------------------------------------------------------
// Encoding and decoding

/** The BSON bytes of doc. */
export declare function encode(doc: EncodableDocument, opts?: EncodeOptions): BSONBuffer;

/**
 * Writes doc's BSON into buf at offset (default 0) and returns the offset just past it.
 * Nothing is written when it does not fit (ERR_BSON_BUFFER_TOO_SMALL).
 */
export declare function encodeInto(doc: EncodableDocument, buf: Uint8Array, offset?: number, opts?: EncodeOptions): number;

/** The byte length serialize(object, options) would produce (at run time also a Map, null, and maxDepth). */
export declare function calculateObjectSize(object: Document, options?: CalculateObjectSizeOptions): number;

/** The document in buf (at opts.index). */
export declare function decode(buf: Uint8Array, opts?: DecodeOptions): Document;

/** Every document stored back to back in buf. */
export declare function decodeAll(buf: Uint8Array, opts?: DecodeAllOptions & FieldsOption): Document[];

/** A path to a value: 'a.b.c' (split on dots), or keys and array indexes, ['items', 3, 'price']. */
export type Path = string | ReadonlyArray<string | number>;

/** The value at path in the document in buf, decoded with opts; undefined when there is none. */
export declare function get(buf: Uint8Array, path: Path, opts?: ReaderOptions): unknown;

/** Whether the document in buf has an element at path (the value is not read). */
export declare function has(buf: Uint8Array, path: Path, opts?: ReaderOptions): boolean;

/**
 * A read-only view of a document or array inside a buffer: fields are decoded on
 * first access and kept; documents and arrays inside are views too.
 */
export declare class LazyDocument implements Iterable<[string | number, unknown]> {
    private constructor();
    /** True for a view of an array, whose keys are indexes. */
    readonly isArray: boolean;
    /** The value under key (an index in an array); a document or array is a LazyDocument. */
    get(key: string | number): unknown;
    /** Whether there is an element under key. */
    has(key: string | number): boolean;
    /** The keys in stored order (numbers in an array). */
    keys(): IterableIterator<string | number>;
    /** [key, value] for each element in stored order. */
    entries(): IterableIterator<[string | number, unknown]>;
    [Symbol.iterator](): IterableIterator<[string | number, unknown]>;
    /** The whole document or array, as decode() gives it. */
    toObject(): Document | unknown[];
}

/** A LazyDocument over the document decode(buf, opts) would read; buf is held, not copied. */
export declare function lazy(buf: Uint8Array, opts?: ReaderOptions): LazyDocument;

/**
 * The documents of a stream of back-to-back BSON documents, chunked anyhow.
 * On damage, every whole document before it is yielded, then a BSONError with
 * the stream offset is thrown.
 */
export declare function decodeStream(source: DecodeStreamSource, opts?: DecodeStreamOptions): AsyncGenerator<Document, void, unknown>;

/**
 * A Transform from documents (object mode) to their BSON bytes. An encode failure
 * is a stream error carrying `index`, the number of documents before it. Where
 * Node's stream module is absent (the browser build) it throws a BSONRuntimeError.
 */
export declare function encodeStream(opts?: EncodeOptions): EncodeStream;

// bson@7 entry points

/** bson's serialize: encode() (a Buffer where Buffer exists). */
export declare function serialize(object: Document, options?: SerializeOptions): Uint8Array;

/** bson's serializeWithBufferAndIndex: writes at options.index; returns the index of the last byte written. */
export declare function serializeWithBufferAndIndex(object: Document, finalBuffer: Uint8Array, options?: SerializeOptions): number;

/** bson's deserialize: decode(). */
export declare function deserialize(buffer: Uint8Array, options?: DeserializeOptions): Document;

/**
 * bson's deserializeStream: decodes numberOfDocuments documents from data at
 * startIndex into documents[docStartIndex...]; returns the index after the last one.
 */
export declare function deserializeStream(data: Uint8Array | ArrayBuffer, startIndex: number, numberOfDocuments: number, documents: Document[], docStartIndex: number, options: DeserializeOptions): number;

/** Accepted for bson compatibility; does nothing (qbson has no fixed internal buffer). */
export declare function setInternalBufferSize(size: number): void;

// ---------------------------------------------------------------------------
// Errors

/** The codes qbson sets on the errors it throws. */
export type BSONErrorCode =
    | 'ERR_BSON'
    | 'ERR_BSON_BUFFER_TOO_SMALL'
    | 'ERR_BSON_CORRUPT'
    | 'ERR_BSON_CYCLE'
    | 'ERR_BSON_EJSON'
    | 'ERR_BSON_ENCODE'
    | 'ERR_BSON_OPTION'
    | 'ERR_BSON_REGEXP'
    | 'ERR_BSON_TOO_DEEP'
    | 'ERR_BSON_TOO_LARGE'
    | 'ERR_BSON_TRUNCATED'
    | 'ERR_BSON_VERSION'
    | 'ERR_BSON_RUNTIME';

/** The second argument of qbson's error constructors: bson's { cause } and where the fault is. */
export interface BSONErrorOptions {
    code?: BSONErrorCode | (string & {});
    offset?: number;
    path?: string;
    /** The error behind this one, as Error's own cause option. */
    cause?: unknown;
}

export declare class BSONError extends Error {
    /** 'BSONError', or the subclass's name. */
    get name(): string;
    constructor(message: string, options?: BSONErrorOptions);
    /** True for a BSONError from any copy of qbson or bson. */
    static isBSONError(value: unknown): value is BSONError;
    /** What went wrong, for programs to test; 'ERR_BSON' when not more specific. */
    code: BSONErrorCode | (string & {});
    /** Decoding: the byte offset of the fault (in the stream, for decodeStream). */
    offset?: number;
    /** Encoding and Extended JSON: the dotted key path of the fault, '(root)' for the top. */
    path?: string;
    /** decodeStream: the stream offset of the document the fault is in. */
    documentOffset?: number;
    /** encodeStream: the number of documents written before the one that failed. */
    index?: number;
    /** Always true: the mark by which bson@7 and qbson recognise each other's errors. */
    get bsonError(): true;
}

/** A type object stamped with another major version of bson (or with none). */
export declare class BSONVersionError extends BSONError {
    get name(): 'BSONVersionError';
    constructor();
}

/** An unexpected input or internal state outside the bytes themselves. */
export declare class BSONRuntimeError extends BSONError {
    get name(): 'BSONRuntimeError';
    constructor(message: string, options?: BSONErrorOptions);
}

/** Bytes that are not valid BSON; the message ends with ". offset: N", as bson's does. */
export declare class BSONOffsetError extends BSONError {
    get name(): 'BSONOffsetError';
    offset: number;
    constructor(message: string, offset: number, options?: BSONErrorOptions);
}

// ---------------------------------------------------------------------------
// BSON type classes

/** The `_bsontype` tags of bson's classes (qbson's DBPointer and BSONUndefined have their own). */
export declare type BSONTypeTag = 'BSONRegExp' | 'BSONSymbol' | 'ObjectId' | 'Binary' | 'Decimal128' | 'Double' | 'Int32' | 'Long' | 'MaxKey' | 'MinKey' | 'Timestamp' | 'Code' | 'DBRef';

/** The inspect function Node's util.inspect passes to a custom inspector. */
export type InspectFn = (x: unknown, options?: unknown) => string;

/** The symbol under which every BSON type class gives its tag (Symbol.for('@@mdb.bson.type')). */
export declare const bsonType: unique symbol;

/** Base of every BSON type class; carries the marker bson@7 checks for. */
export declare abstract class BSONValue {
    abstract get _bsontype(): BSONTypeTag;
    get [bsonType](): this['_bsontype'];
    abstract inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

/** Anything with an `id` that ObjectId can copy. */
export declare interface ObjectIdLike {
    id: string | Uint8Array;
    __id?: string;
    toHexString(): string;
}

export declare class ObjectId extends BSONValue {
    get _bsontype(): 'ObjectId';
    /** When true, ids keep their hex string once computed. Unset (undefined) at run time until set. */
    static cacheHexString: boolean;
    /** A new id (now, the process's random value, the counter), or a copy of the given one. */
    constructor();
    constructor(inputId: string);
    constructor(inputId: ObjectId);
    constructor(inputId: ObjectIdLike);
    constructor(inputId: Uint8Array);
    constructor(inputId?: string | ObjectId | ObjectIdLike | Uint8Array);
    /** The 12 bytes: a fresh Buffer (Uint8Array without Buffer) on every read. */
    get id(): Uint8Array;
    set id(value: Uint8Array);
    toHexString(): string;
    /** 12 new id bytes, with `time` (seconds) in place of now when given. */
    static generate(time?: number): Uint8Array;
    toString(encoding?: 'hex' | 'base64'): string;
    toJSON(): string;
    /** Same 12 bytes; a string is compared as hex, case-insensitively. */
    equals(otherId: string | ObjectId | ObjectIdLike | undefined | null): boolean;
    /** The creation time held in the first 4 bytes (whole seconds). */
    getTimestamp(): Date;
    /** An id whose first 4 bytes are `time` (seconds) and the rest zero. */
    static createFromTime(time: number): ObjectId;
    static createFromHexString(hexString: string): ObjectId;
    static createFromBase64(base64: string): ObjectId;
    /** Whether `id` would make an ObjectId (a string only when 24 hex digits). */
    static isValid(id: string | ObjectId | ObjectIdLike | Uint8Array): boolean;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
    /** Writes the 12 bytes at buf[offset] and returns offset + 12. */
    writeTo(buf: Uint8Array, offset: number): number;
    /** An id from the 12 bytes at buf[offset]; no bounds checks. */
    static fromBytes(buf: Uint8Array, offset: number): ObjectId;
}

/** A value Long's arithmetic and comparisons accept in place of a Long. */
export type LongLike = Long | Timestamp | number | string;

export declare class Long extends BSONValue {
    get _bsontype(): 'Long';
    /** Always true: the mark isLong() tests. */
    get __isLong__(): boolean;
    high: number;
    low: number;
    unsigned: boolean;
    /** From two int32 halves (high default 0), with the signedness flag. */
    constructor(low: number, high?: number, unsigned?: boolean);
    /** The low 64 bits of a bigint. */
    constructor(value: bigint, unsigned?: boolean);
    /** Text parsed as Long.fromString does (base 10). */
    constructor(value: string, unsigned?: boolean);
    static TWO_PWR_24: Long;
    static MAX_UNSIGNED_VALUE: Long;
    static ZERO: Long;
    static UZERO: Long;
    static ONE: Long;
    static UONE: Long;
    static NEG_ONE: Long;
    static MAX_VALUE: Long;
    static MIN_VALUE: Long;
    static fromBits(lowBits: number, highBits: number, unsigned?: boolean): Long;
    static fromInt(value: number, unsigned?: boolean): Long;
    /** Truncated toward zero, saturated at the bounds; NaN is zero. */
    static fromNumber(value: number, unsigned?: boolean): Long;
    /** The low 64 bits of the value. */
    static fromBigInt(value: bigint, unsigned?: boolean): Long;
    /** As fromString, but only text that is exactly a 64-bit value of that signedness. */
    static fromStringStrict(str: string): Long;
    static fromStringStrict(str: string, unsigned?: boolean): Long;
    static fromStringStrict(str: string, radix?: boolean): Long;
    static fromStringStrict(str: string, unsigned?: boolean, radix?: number): Long;
    static fromString(str: string): Long;
    static fromString(str: string, radix?: number): Long;
    static fromString(str: string, unsigned?: boolean): Long;
    static fromString(str: string, unsigned?: boolean, radix?: number): Long;
    static fromBytes(bytes: number[], unsigned?: boolean, le?: boolean): Long;
    static fromBytesLE(bytes: number[], unsigned?: boolean): Long;
    static fromBytesBE(bytes: number[], unsigned?: boolean): Long;
    /** True for Longs and Timestamps from any copy of qbson or bson. */
    static isLong(value: unknown): value is Long;
    static fromValue(val: number | string | {
        low: number;
        high: number;
        unsigned?: boolean;
    }, unsigned?: boolean): Long;
    add(addend: string | number | Long | Timestamp): Long;
    and(other: string | number | Long | Timestamp): Long;
    compare(other: string | number | Long | Timestamp): 0 | 1 | -1;
    comp(other: string | number | Long | Timestamp): 0 | 1 | -1;
    divide(divisor: string | number | Long | Timestamp): Long;
    div(divisor: string | number | Long | Timestamp): Long;
    equals(other: string | number | Long | Timestamp): boolean;
    eq(other: string | number | Long | Timestamp): boolean;
    getHighBits(): number;
    getHighBitsUnsigned(): number;
    getLowBits(): number;
    getLowBitsUnsigned(): number;
    getNumBitsAbs(): number;
    greaterThan(other: string | number | Long | Timestamp): boolean;
    gt(other: string | number | Long | Timestamp): boolean;
    greaterThanOrEqual(other: string | number | Long | Timestamp): boolean;
    gte(other: string | number | Long | Timestamp): boolean;
    ge(other: string | number | Long | Timestamp): boolean;
    isEven(): boolean;
    isNegative(): boolean;
    isOdd(): boolean;
    isPositive(): boolean;
    isZero(): boolean;
    lessThan(other: string | number | Long | Timestamp): boolean;
    lt(other: string | number | Long | Timestamp): boolean;
    lessThanOrEqual(other: string | number | Long | Timestamp): boolean;
    lte(other: string | number | Long | Timestamp): boolean;
    modulo(divisor: string | number | Long | Timestamp): Long;
    mod(divisor: string | number | Long | Timestamp): Long;
    rem(divisor: string | number | Long | Timestamp): Long;
    multiply(multiplier: string | number | Long | Timestamp): Long;
    mul(multiplier: string | number | Long | Timestamp): Long;
    negate(): Long;
    neg(): Long;
    not(): Long;
    notEquals(other: string | number | Long | Timestamp): boolean;
    neq(other: string | number | Long | Timestamp): boolean;
    ne(other: string | number | Long | Timestamp): boolean;
    or(other: number | string | Long): Long;
    shiftLeft(numBits: number | Long): Long;
    shl(numBits: number | Long): Long;
    shiftRight(numBits: number | Long): Long;
    shr(numBits: number | Long): Long;
    shiftRightUnsigned(numBits: Long | number): Long;
    shr_u(numBits: number | Long): Long;
    shru(numBits: number | Long): Long;
    subtract(subtrahend: string | number | Long | Timestamp): Long;
    sub(subtrahend: string | number | Long | Timestamp): Long;
    toInt(): number;
    toNumber(): number;
    toBigInt(): bigint;
    toBytes(le?: boolean): number[];
    toBytesLE(): number[];
    toBytesBE(): number[];
    toSigned(): Long;
    toString(radix?: number): string;
    toUnsigned(): Long;
    xor(other: Long | number | string): Long;
    eqz(): boolean;
    le(other: string | number | Long | Timestamp): boolean;
    /** {$numberLong: string}, or a number with options.relaxed. */
    toExtendedJSON(options?: EJSONOptions): number | LongExtended;
    /** A $numberLong as EJSON reads it, relaxed (a number) unless options.relaxed is false; a bigint with useBigInt64. */
    static fromExtendedJSON(doc: {
        $numberLong: string;
    }, options?: EJSONOptions): number | Long | bigint;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

export declare interface LongExtended {
    $numberLong: string;
}

/** The members of Long that Timestamp keeps as they are (the rest it redeclares, deprecated). */
/** @deprecated Timestamp's Long members other than these are deprecated; this name goes with them. */
declare type TimestampKept = 'toBigInt' | 'toString' | 'compare' | 'equals' | 'eq' | 'notEquals' | 'neq' | 'ne' | 'lessThan' | 'lt' | 'lessThanOrEqual' | 'lte' | 'le' | 'greaterThan' | 'gt' | 'greaterThanOrEqual' | 'gte' | 'ge';

/** Timestamp's base: a Long's constructor, giving only the members Timestamp keeps. */
export declare type LongWithoutOverrides = new (low: unknown, high?: number | boolean, unsigned?: boolean) => {
    [P in TimestampKept]: Long[P];
};
/** Declared, as in bson, for Timestamp's base; neither package exports it at run time. */
export declare const LongWithoutOverridesClass: LongWithoutOverrides;

/** @deprecated The members Timestamp defines for itself rather than taking from Long; kept for bson's name. */
export declare type TimestampOverrides = '_bsontype' | 'toExtendedJSON' | 'fromExtendedJSON' | 'inspect' | typeof bsonType;

/** An unsigned 64-bit value: t (seconds since the epoch) high, i (ordinal) low. */
export declare class Timestamp extends LongWithoutOverridesClass {
    get _bsontype(): 'Timestamp';
    get [bsonType](): 'Timestamp';
    /** @deprecated Long's largest signed value; not a Timestamp. */
    static readonly MAX_VALUE: Long;
    /** The low word: the ordinal within the second. */
    get i(): number;
    /** The high word: seconds since the epoch. */
    get t(): number;
    /** A bigint or Long's 64 bits; or t (seconds) and i (ordinal), each 0..2^32-1. */
    constructor(int: bigint);
    constructor(long: Long);
    constructor(value: {
        t: number;
        i: number;
    });
    toJSON(): {
        $timestamp: string;
    };
    /** @deprecated The value as the increment, t = 0; write new Timestamp({ t: 0, i: value }). */
    static fromInt(value: number): Timestamp;
    /** @deprecated The value's low 64 bits as t and i; write new Timestamp({ t, i }). */
    static fromNumber(value: number): Timestamp;
    static fromBits(lowBits: number, highBits: number): Timestamp;
    static fromString(str: string, optRadix: number): Timestamp;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
    /** @deprecated Long arithmetic on a Timestamp gives a Long; use t and i. */
    add: Long['add'];
    /** @deprecated Long arithmetic on a Timestamp gives a Long; use t and i. */
    subtract: Long['subtract'];
    /** @deprecated Long arithmetic on a Timestamp gives a Long; use t and i. */
    sub: Long['sub'];
    /** @deprecated Long arithmetic on a Timestamp gives a Long; use t and i. */
    multiply: Long['multiply'];
    /** @deprecated Long arithmetic on a Timestamp gives a Long; use t and i. */
    mul: Long['mul'];
    /** @deprecated Long arithmetic on a Timestamp gives a Long; use t and i. */
    divide: Long['divide'];
    /** @deprecated Long arithmetic on a Timestamp gives a Long; use t and i. */
    div: Long['div'];
    /** @deprecated Long arithmetic on a Timestamp gives a Long; use t and i. */
    modulo: Long['modulo'];
    /** @deprecated Long arithmetic on a Timestamp gives a Long; use t and i. */
    mod: Long['mod'];
    /** @deprecated Long arithmetic on a Timestamp gives a Long; use t and i. */
    rem: Long['rem'];
    /** @deprecated Long arithmetic on a Timestamp gives a Long; use t and i. */
    negate: Long['negate'];
    /** @deprecated Long arithmetic on a Timestamp gives a Long; use t and i. */
    neg: Long['neg'];
    /** @deprecated Long bit operations on a Timestamp give a Long; use t and i. */
    and: Long['and'];
    /** @deprecated Long bit operations on a Timestamp give a Long; use t and i. */
    or: Long['or'];
    /** @deprecated Long bit operations on a Timestamp give a Long; use t and i. */
    xor: Long['xor'];
    /** @deprecated Long bit operations on a Timestamp give a Long; use t and i. */
    not: Long['not'];
    /** @deprecated Long bit operations on a Timestamp give a Long; use t and i. */
    shiftLeft: Long['shiftLeft'];
    /** @deprecated Long bit operations on a Timestamp give a Long; use t and i. */
    shl: Long['shl'];
    /** @deprecated Long bit operations on a Timestamp give a Long; use t and i. */
    shiftRight: Long['shiftRight'];
    /** @deprecated Long bit operations on a Timestamp give a Long; use t and i. */
    shr: Long['shr'];
    /** @deprecated Long bit operations on a Timestamp give a Long; use t and i. */
    shiftRightUnsigned: Long['shiftRightUnsigned'];
    /** @deprecated Long bit operations on a Timestamp give a Long; use t and i. */
    shr_u: Long['shr_u'];
    /** @deprecated Long bit operations on a Timestamp give a Long; use t and i. */
    shru: Long['shru'];
    /** @deprecated A Timestamp is always unsigned. */
    toSigned: Long['toSigned'];
    /** @deprecated A Timestamp is always unsigned. */
    toUnsigned: Long['toUnsigned'];
    /** @deprecated A Timestamp is never negative. */
    isNegative: Long['isNegative'];
    /** @deprecated A Timestamp is never negative. */
    isPositive: Long['isPositive'];
    /** @deprecated A Timestamp is always unsigned. */
    unsigned: Long['unsigned'];
    /** @deprecated Read t and i instead. */
    toInt: Long['toInt'];
    /** @deprecated Read t and i instead. */
    toNumber: Long['toNumber'];
    /** @deprecated Read t and i instead. */
    toBytes: Long['toBytes'];
    /** @deprecated Read t and i instead. */
    toBytesLE: Long['toBytesLE'];
    /** @deprecated Read t and i instead. */
    toBytesBE: Long['toBytesBE'];
    /** @deprecated Read t instead. */
    getHighBits: Long['getHighBits'];
    /** @deprecated Read t instead. */
    getHighBitsUnsigned: Long['getHighBitsUnsigned'];
    /** @deprecated Read i instead. */
    getLowBits: Long['getLowBits'];
    /** @deprecated Read i instead. */
    getLowBitsUnsigned: Long['getLowBitsUnsigned'];
    /** @deprecated Read i instead. */
    low: Long['low'];
    /** @deprecated Read t instead. */
    high: Long['high'];
    /** @deprecated Use compare. */
    comp: Long['comp'];
    /** @deprecated Compare t and i with 0. */
    isZero: Long['isZero'];
    /** @deprecated Compare t and i with 0. */
    eqz: Long['eqz'];
    /** @deprecated Long's mark; test a Timestamp with instanceof or _bsontype. */
    __isLong__: Long['__isLong__'];
    /** @deprecated Read t and i instead. */
    getNumBitsAbs: Long['getNumBitsAbs'];
    /** @deprecated Read i instead. */
    isEven: Long['isEven'];
    /** @deprecated Read i instead. */
    isOdd: Long['isOdd'];
}

export declare interface TimestampExtended {
    $timestamp: {
        t: number;
        i: number;
    };
}

/** A number the encoder writes as BSON int32. */
export declare class Int32 extends BSONValue {
    get _bsontype(): 'Int32';
    value: number;
    constructor(value: number | string);
    /** Plain decimal integer text in int32 range. */
    static fromString(value: string): Int32;
    valueOf(): number;
    toString(radix?: number): string;
    toJSON(): number;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

/** A number the encoder always writes as a BSON double. */
export declare class Double extends BSONValue {
    get _bsontype(): 'Double';
    value: number;
    constructor(value: number);
    /** Decimal or exponential text, or 'NaN', 'Infinity', '-Infinity'. */
    static fromString(value: string): Double;
    valueOf(): number;
    toJSON(): number;
    toString(radix?: number): string;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

export declare class Decimal128 extends BSONValue {
    get _bsontype(): 'Decimal128';
    readonly bytes: Uint8Array;
    /** 16 bytes as BSON stores them (kept, not copied), or text as for fromString. */
    constructor(bytes: Uint8Array | string);
    /** Exact: text needing rounding is a BSONError. */
    static fromString(representation: string): Decimal128;
    /** Rounds half-to-even to 34 digits where fromString would fail. */
    static fromStringWithRounding(representation: string): Decimal128;
    private static _fromString;
    toString(): string;
    toJSON(): Decimal128Extended;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

/** Bytes a Binary can be made from or written with. */
export declare type BinarySequence = Uint8Array | number[];

export declare class Binary extends BSONValue {
    get _bsontype(): 'Binary';
    static readonly BUFFER_SIZE = 256;
    static readonly SUBTYPE_DEFAULT = 0;
    static readonly SUBTYPE_FUNCTION = 1;
    /** @deprecated The old generic binary subtype; write SUBTYPE_DEFAULT. */
    static readonly SUBTYPE_BYTE_ARRAY = 2;
    /** @deprecated The old UUID subtype, of differing byte orders; write SUBTYPE_UUID. */
    static readonly SUBTYPE_UUID_OLD = 3;
    static readonly SUBTYPE_UUID = 4;
    static readonly SUBTYPE_MD5 = 5;
    static readonly SUBTYPE_ENCRYPTED = 6;
    static readonly SUBTYPE_COLUMN = 7;
    static readonly SUBTYPE_SENSITIVE = 8;
    static readonly SUBTYPE_VECTOR = 9;
    static readonly SUBTYPE_USER_DEFINED = 128;
    static readonly VECTOR_TYPE: Readonly<{
        readonly Int8: 3;
        readonly Float32: 39;
        readonly PackedBit: 16;
    }>;
    /** The data (a Buffer where Buffer exists); may extend past the value after put() or write(), see position. */
    buffer: Uint8Array;
    sub_type: number;
    /** The length of the value held in buffer. */
    position: number;
    /** Over the bytes given (a typed array is shared, an array copied), or 256 empty bytes to put() into. */
    constructor(buffer?: BinarySequence, subType?: number);
    /** Appends one byte: 0-255, a one-character string, or a one-element array. */
    put(byteValue: string | number | Uint8Array | number[]): void;
    /** Writes bytes at offset. */
    write(sequence: BinarySequence, offset: number): void;
    /** A view of `length` bytes from `position`. */
    read(position: number, length: number): Uint8Array;
    /** The value's bytes (a view when buffer is longer). */
    value(): Uint8Array;
    length(): number;
    toJSON(): string;
    toString(encoding?: 'hex' | 'base64' | 'utf8' | 'utf-8'): string;
    /** This subtype 4 value as a UUID. */
    toUUID(): UUID;
    static createFromHexString(hex: string, subType?: number): Binary;
    static createFromBase64(base64: string, subType?: number): Binary;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
    toInt8Array(): Int8Array;
    toFloat32Array(): Float32Array;
    toPackedBits(): Uint8Array;
    toBits(): Int8Array;
    static fromInt8Array(array: Int8Array): Binary;
    static fromFloat32Array(array: Float32Array): Binary;
    /** Packed bytes and the count (0-7) of unused low bits in the last. */
    static fromPackedBits(array: Uint8Array, padding?: number): Binary;
    static fromBits(bits: ArrayLike<number>): Binary;
    /** A copy of buf[start..end) with the subtype; subtype 4 with 16 bytes gives a UUID. No bounds checks. */
    static fromBytes(buf: Uint8Array, start: number, end: number, subtype: number): Binary;
}

export declare interface BinaryExtended {
    $binary: {
        subType: string;
        base64: string;
    };
}

export declare interface BinaryExtendedLegacy {
    $type: string;
    $binary: string;
}

export declare class UUID extends Binary {
    /** A random v4 UUID, or from 32/36-character hex, 16 bytes (kept, not copied) or another UUID (copied). */
    constructor(input?: string | Uint8Array | UUID);
    /** The 16 bytes (the same as buffer). */
    get id(): Uint8Array;
    set id(value: Uint8Array);
    toHexString(includeDashes?: boolean): string;
    toString(encoding?: 'hex' | 'base64'): string;
    toJSON(): string;
    /** Same 16 bytes; false for anything that is not a UUID, its bytes or its text. */
    equals(otherId: string | Uint8Array | UUID): boolean;
    /** A plain subtype 4 Binary over the same bytes. */
    toBinary(): Binary;
    /** 16 random bytes with the version 4 and RFC 4122 variant bits set. */
    static generate(): Uint8Array;
    static isValid(input: string | Uint8Array | UUID | Binary): boolean;
    static createFromHexString(hexString: string): UUID;
    static createFromBase64(base64: string): UUID;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
    /** A UUID from a copy of buf[start..end). No bounds checks. */
    static fromBytes(buf: Uint8Array, start: number, end: number): UUID;
}

export declare type UUIDExtended = {
    $uuid: string;
};

/** BSON JavaScript code, with scope when scope is an object. */
export declare class Code extends BSONValue {
    get _bsontype(): 'Code';
    code: string;
    scope: Document | null;
    constructor(code: string | Function, scope?: Document | null);
    toJSON(): {
        code: string;
        scope?: Document;
    };
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

export declare interface CodeExtended {
    $code: string;
    $scope?: Document;
}

/** A BSON regular expression kept as pattern and option letters (any of 'ilmsux', stored sorted). */
export declare class BSONRegExp extends BSONValue {
    get _bsontype(): 'BSONRegExp';
    pattern: string;
    options: string;
    constructor(pattern: string, options?: string);
    /** The option letters sorted, '' for none. */
    static parseOptions(options?: string): string;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

export declare interface BSONRegExpExtended {
    $regularExpression: {
        pattern: string;
        options: string;
    };
}

export declare interface BSONRegExpExtendedLegacy {
    $regex: string | BSONRegExp;
    $options: string;
}

/** The deprecated BSON symbol type. */
export declare class BSONSymbol extends BSONValue {
    get _bsontype(): 'BSONSymbol';
    value: string;
    constructor(value: string);
    valueOf(): string;
    toString(): string;
    toJSON(): string;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

export declare interface BSONSymbolExtended {
    $symbol: string;
}

export declare interface DBRefLike {
    $ref: string;
    $id: ObjectId;
    $db?: string;
}

/** A reference to a document in another collection: {$ref, $id, $db?, ...fields}. */
export declare class DBRef extends BSONValue {
    get _bsontype(): 'DBRef';
    collection: string;
    oid: ObjectId;
    db?: string;
    fields: Document;
    /** A collection 'db.collection' (one dot) sets db too, overriding the db argument. */
    constructor(collection: string, oid: ObjectId, db?: string, fields?: Document);
    toJSON(): DBRefLike & Document;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

/** Compares above every other BSON value. */
export declare class MaxKey extends BSONValue {
    get _bsontype(): 'MaxKey';
    inspect(): string;
}

export declare interface MaxKeyExtended {
    $maxKey: 1;
}

/** Compares below every other BSON value. */
export declare class MinKey extends BSONValue {
    get _bsontype(): 'MinKey';
    inspect(): string;
}

export declare interface MinKeyExtended {
    $minKey: 1;
}

export declare interface ObjectIdExtended {
    $oid: string;
}

export declare interface Int32Extended {
    $numberInt: string;
}

export declare interface DoubleExtended {
    $numberDouble: string;
}

export declare interface Decimal128Extended {
    $numberDecimal: string;
}

// qbson's two deprecated types: at run time subclasses of BSONValue, declared apart
// from it because their tags are not among bson's BSONTypeTag.

/** The deprecated BSON DBPointer, as decode gives it with preserveDeprecated. */
export declare class DBPointer {
    get _bsontype(): 'DBPointer';
    get [bsonType](): 'DBPointer';
    constructor(namespace: string, oid: ObjectId);
    namespace: string;
    oid: ObjectId;
    toJSON(): { $ref: string; $id: ObjectId };
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

/** The deprecated BSON undefined, as decode gives it with preserveDeprecated. */
export declare class BSONUndefined {
    get _bsontype(): 'Undefined';
    get [bsonType](): 'Undefined';
    toJSON(): null;
    inspect(): string;
}

// ---------------------------------------------------------------------------
// Extended JSON

export declare type EJSONOptionsBase = {
    /** bson's legacy (v1) forms. Default false. */
    legacy?: boolean;
    /** Relaxed (true, the default) or canonical Extended JSON. */
    relaxed?: boolean;
};

export declare type EJSONSerializeOptions = EJSONOptionsBase & {
    /** Drop undefined values instead of writing null. Default false. */
    ignoreUndefined?: boolean;
};

export declare type EJSONParseOptions = EJSONOptionsBase & {
    /** $numberLong as bigint. Default false. */
    useBigInt64?: boolean;
};

export declare type EJSONOptions = EJSONSerializeOptions & EJSONParseOptions;

/** The options only qbson's Extended JSON reads, beside bson's. */
export interface EJSONOwnOptions {
    /** Deepest nesting allowed, a positive integer. Default 500. */
    maxDepth?: number;
}

/** qbson's options of EJSON.parse and EJSON.deserialize. */
export interface EJSONReadOptions extends EJSONOwnOptions {
    /** $dbPointer, $undefined and $symbol as DBPointer, BSONUndefined and BSONSymbol. Default false. */
    preserveDeprecated?: boolean;
}

/** Values from Extended JSON text. */
declare function parse(text: string, options?: EJSONParseOptions & EJSONReadOptions): any;
/** Extended JSON text of a value; options may stand in the replacer or the space position. */
declare function stringify(value: any, replacer?: (number | string)[] | ((this: any, key: string, value: any) => any) | null, space?: string | number, options?: EJSONSerializeOptions & EJSONOwnOptions): string;
declare function stringify(value: any, replacer?: (number | string)[] | ((this: any, key: string, value: any) => any) | null, options?: EJSONSerializeOptions & EJSONOwnOptions): string;
declare function stringify(value: any, options?: EJSONSerializeOptions & EJSONOwnOptions, space?: string | number): string;
/** The Extended JSON of a value as a plain object tree. */
declare function EJSONserialize(value: any, options?: EJSONSerializeOptions & EJSONOwnOptions): Document;
/** Values from an Extended JSON object tree (not changed). */
declare function EJSONdeserialize(ejson: Document, options?: EJSONParseOptions & EJSONReadOptions): any;

/** MongoDB Extended JSON with bson@7's API. The object is frozen at run time. */
export declare const EJSON: {
    parse: typeof parse;
    stringify: typeof stringify;
    serialize: typeof EJSONserialize;
    deserialize: typeof EJSONdeserialize;
};

/** Options of jsonToBSON: those of EJSON.parse and of encode, and how many documents the text holds. */
export interface JSONToBSONOptions extends EJSONReadOptions, EncodeOptions {
    /** bson's legacy (v1) forms. Default false. */
    legacy?: boolean;
    /** Relaxed or canonical reading: as EJSON.parse, which reads both. */
    relaxed?: boolean;
    /** $numberLong as bigint. Default false. */
    useBigInt64?: boolean;
    /** Absent: the text is one document. 'array': a JSON array of documents. 'lines': documents one a line (NDJSON). */
    many?: 'array' | 'lines';
}

/**
 * JSON or Extended JSON text (a string or UTF-8 bytes) straight to BSON: the bytes of
 * encode(EJSON.parse(text, opts), opts), the documents back to back with `many`.
 */
export declare function jsonToBSON(text: string | Uint8Array, opts?: JSONToBSONOptions): BSONBuffer;

/** Options of bsonToJSON: the text's form, how many documents, the output's kind, and decode's checks. */
export interface BSONToJSONOptions {
    /**
     * 'relaxed' (default): EJSON.stringify(decode(bytes, types kept), { relaxed: true }).
     * 'canonical': the same with { relaxed: false }. 'json': JSON.stringify(decode(bytes)).
     */
    mode?: 'relaxed' | 'canonical' | 'json';
    /** Absent: one document. 'array': documents back to back (or an array of them) as a JSON array. 'lines': one a line. */
    many?: 'array' | 'lines';
    /** 'string' (default), or 'bytes': the text's UTF-8 bytes. */
    output?: 'string' | 'bytes';
    /** Deepest nesting allowed, as in decode. Default 500. */
    maxDepth?: number;
    /** As in decode: whether strings must be UTF-8 (all, or the top-level keys named). */
    validation?: DeserializeOptions['validation'];
}

/**
 * BSON bytes straight to JSON text, with no value tree between: the text
 * JSON.stringify or EJSON.stringify makes of the decoded document. With `many`,
 * documents back to back (a .bson file, a cursor batch) or an array of them.
 */
export declare function bsonToJSON(bytes: Uint8Array | Uint8Array[], opts: BSONToJSONOptions & { output: 'bytes' }): BSONBuffer;
export declare function bsonToJSON(bytes: Uint8Array | Uint8Array[], opts?: BSONToJSONOptions): string;

// ---------------------------------------------------------------------------
// bson@7's other public names

/** bson's names for the BSON type bytes (minKey is -1, as in bson; its byte is 0xff). */
export declare const BSONType: Readonly<{
    readonly double: 1;
    readonly string: 2;
    readonly object: 3;
    readonly array: 4;
    readonly binData: 5;
    readonly undefined: 6;
    readonly objectId: 7;
    readonly bool: 8;
    readonly date: 9;
    readonly null: 10;
    readonly regex: 11;
    readonly dbPointer: 12;
    readonly javascript: 13;
    readonly symbol: 14;
    readonly javascriptWithScope: 15;
    readonly int: 16;
    readonly timestamp: 17;
    readonly long: 18;
    readonly decimal: 19;
    readonly minKey: -1;
    readonly maxKey: 127;
}>;
export declare type BSONType = (typeof BSONType)[keyof typeof BSONType];

/** bson's byte helpers, on Node's Buffer where it exists, else on Uint8Array (as bson's own two versions). */
export declare type ByteUtils = {
    isUint8Array: (value: unknown) => value is Uint8Array;
    /** A Buffer (Uint8Array without Buffer) over the same memory, not a copy. */
    toLocalBufferType: (buffer: Uint8Array | ArrayBufferView | ArrayBuffer) => Uint8Array;
    allocate: (size: number) => Uint8Array;
    allocateUnsafe: (size: number) => Uint8Array;
    compare: (buffer1: Uint8Array, buffer2: Uint8Array) => -1 | 0 | 1;
    concat: (list: Uint8Array[]) => Uint8Array;
    copy: (source: Uint8Array, target: Uint8Array, targetStart?: number, sourceStart?: number, sourceEnd?: number) => number;
    equals: (a: Uint8Array, b: Uint8Array) => boolean;
    fromNumberArray: (array: number[]) => Uint8Array;
    fromBase64: (base64: string) => Uint8Array;
    fromUTF8: (utf8: string) => Uint8Array;
    toBase64: (buffer: Uint8Array) => string;
    fromISO88591: (codePoints: string) => Uint8Array;
    toISO88591: (buffer: Uint8Array) => string;
    fromHex: (hex: string) => Uint8Array;
    toHex: (buffer: Uint8Array) => string;
    /** buffer[start, end) as text; fatal: malformed UTF-8 is a BSONError, otherwise U+FFFD. */
    toUTF8: (buffer: Uint8Array, start: number, end: number, fatal: boolean) => string;
    utf8ByteLength: (input: string) => number;
    /** Writes source at byteOffset; returns the bytes written. */
    encodeUTF8Into: (destination: Uint8Array, source: string, byteOffset: number) => number;
    randomBytes: (byteLength: number) => Uint8Array;
    swap32: (buffer: Uint8Array) => Uint8Array;
};
export declare const ByteUtils: ByteUtils;

/** bson's fixed-size little-endian number helpers; no bounds checks. Setters return the bytes written. */
export declare type NumberUtils = {
    isBigEndian: boolean;
    /** Throws a RangeError for a negative value (bson's contract). */
    getNonnegativeInt32LE: (source: Uint8Array, offset: number) => number;
    getInt32LE: (source: Uint8Array, offset: number) => number;
    getUint32LE: (source: Uint8Array, offset: number) => number;
    getUint32BE: (source: Uint8Array, offset: number) => number;
    getBigInt64LE: (source: Uint8Array, offset: number) => bigint;
    getFloat64LE: (source: Uint8Array, offset: number) => number;
    setInt32BE: (destination: Uint8Array, offset: number, value: number) => 4;
    setInt32LE: (destination: Uint8Array, offset: number, value: number) => 4;
    setBigInt64LE: (destination: Uint8Array, offset: number, value: bigint) => 8;
    setFloat64LE: (destination: Uint8Array, offset: number, value: number) => 8;
};
export declare const NumberUtils: NumberUtils;

/** One element of a document, as parseToElements gives it: the type byte, where the key's bytes are, where the value's are. */
export type BSONElement = [type: number, nameOffset: number, nameLength: number, offset: number, length: number];

export declare type OnDemand = {
    /** The elements of the document at startOffset (default 0), one level deep; bad bytes are a BSONOffsetError. */
    parseToElements: (this: void, bytes: Uint8Array, startOffset?: number) => Iterable<BSONElement>;
    BSONElement: BSONElement;
    ByteUtils: ByteUtils;
    NumberUtils: NumberUtils;
};
/** bson's API for reading documents in place (the MongoDB driver reads its replies through it). */
export declare const onDemand: OnDemand;

/** bson's `BSON` namespace: the same names as `import { BSON } from 'bson'` gives. */
declare namespace BSON {
    export {
        setInternalBufferSize,
        serialize,
        serializeWithBufferAndIndex,
        deserialize,
        calculateObjectSize,
        deserializeStream,
        UUIDExtended,
        BinaryExtended,
        BinaryExtendedLegacy,
        BinarySequence,
        CodeExtended,
        DBRefLike,
        Decimal128Extended,
        DoubleExtended,
        EJSONOptions,
        EJSONOptionsBase,
        EJSONSerializeOptions,
        EJSONParseOptions,
        Int32Extended,
        LongExtended,
        MaxKeyExtended,
        MinKeyExtended,
        ObjectIdExtended,
        ObjectIdLike,
        BSONRegExpExtended,
        BSONRegExpExtendedLegacy,
        BSONSymbolExtended,
        LongWithoutOverrides,
        TimestampExtended,
        TimestampOverrides,
        LongWithoutOverridesClass,
        SerializeOptions,
        DeserializeOptions,
        Code,
        BSONSymbol,
        DBRef,
        Binary,
        ObjectId,
        UUID,
        Long,
        Timestamp,
        Double,
        Int32,
        MinKey,
        MaxKey,
        BSONRegExp,
        Decimal128,
        NumberUtils,
        ByteUtils,
        BSONValue,
        bsonType,
        BSONTypeTag,
        BSONError,
        BSONVersionError,
        BSONRuntimeError,
        BSONOffsetError,
        BSONType,
        EJSON,
        onDemand,
        OnDemand,
        Document,
        CalculateObjectSizeOptions,
    };
}
export { BSON };

export {};

// $jsonSchema codecs

/** One way a document fails a schema: where, which keyword, and the server's words. */
export interface SchemaProblem {
    /** the failing field's key path, '' for the document ('address.zip', 'items.3.qty') */
    path: string;
    /** the keyword that failed ('bsonType', 'required', 'maximum', ...) */
    rule: string;
    message: string;
    /** where the keyword stands in the schema ('$jsonSchema.properties.address') */
    schemaPath: string;
}

/** Classes by sub-schema title or path, for options.classes. */
export type SchemaClasses = { [titleOrPath: string]: abstract new (...args: any[]) => object };

export interface CompileOptions<C extends SchemaClasses = SchemaClasses> {
    /** sub-schemas, by title or by path ('address', 'items.[]'), to the classes decode builds their documents into */
    classes?: C;
}

/** A codec made by compile from a $jsonSchema; T is the document type inferred from a schema written `as const`. */
export interface SchemaCodec<T = Document> {
    /** every problem, [] when doc conforms (doc typed as encode would write it) */
    validate(doc: Document): SchemaProblem[];
    /** decode's document, checked with the types the bytes hold; a BSONError with code ERR_BSON_SCHEMA when it does not conform */
    decode(bytes: Uint8Array, opts?: DecodeOptions): T;
    /** encode's bytes, doc checked first */
    encode(doc: T, opts?: EncodeOptions): BSONBuffer;
}

/** What decode gives for each bsonType ('number': any of the four numeric types). */
export interface SchemaBSONTypes {
    double: number;
    string: string;
    object: Document;
    array: unknown[];
    binData: Binary;
    undefined: undefined;
    objectId: ObjectId;
    bool: boolean;
    date: Date;
    null: null;
    regex: RegExp | BSONRegExp;
    dbPointer: DBRef;
    javascript: Code;
    symbol: string;
    javascriptWithScope: Code;
    int: number;
    timestamp: Timestamp;
    long: number | Long;
    decimal: Decimal128;
    minKey: MinKey;
    maxKey: MaxKey;
    number: number | Long | Decimal128;
}

/** What decode gives for each of type's JSON names. */
export interface SchemaJSONTypes {
    object: Document;
    array: unknown[];
    number: number | Long | Decimal128;
    boolean: boolean;
    string: string;
    null: null;
}

type SchemaTypeNames<N> = N extends readonly (infer E)[] ? E : N;
/** the values of a schema's types other than documents and arrays */
type SchemaScalarOf<S> = S extends { bsonType: infer B }
    ? SchemaBSONTypes[Exclude<SchemaTypeNames<B>, 'object' | 'array'> & keyof SchemaBSONTypes]
    : S extends { type: infer J } ? SchemaJSONTypes[Exclude<SchemaTypeNames<J>, 'object' | 'array'> & keyof SchemaJSONTypes] : never;
type SchemaNames<S> = S extends { bsonType: infer B } ? SchemaTypeNames<B> : S extends { type: infer J } ? SchemaTypeNames<J> : never;
type SchemaHasObject<S> = S extends { bsonType: any } | { type: any } ? ('object' extends SchemaNames<S> ? true : false) : S extends { properties: any } | { required: any } ? true : false;
type SchemaHasArray<S> = S extends { bsonType: any } | { type: any } ? ('array' extends SchemaNames<S> ? true : false) : S extends { items: any } ? true : false;
type SchemaFlatten<T> = { [K in keyof T]: T[K] } & {};
type SchemaRequired<S> = S extends { required: readonly (infer R)[] } ? R & string : never;
type SchemaProperties<S> = S extends { properties: infer P } ? P : {};
type SchemaTitled<S, C> = S extends { title: infer N } ? (N extends keyof C ? (C[N] extends abstract new (...args: any[]) => infer I ? I : unknown) : unknown) : unknown;

/** The document a schema's object describes: its required properties, the others optional, and any other key unless additionalProperties is false. */
type SchemaObject<S, C> = SchemaFlatten<
    { -readonly [K in keyof SchemaProperties<S> & SchemaRequired<S>]: SchemaInfer<SchemaProperties<S>[K], C> } &
    { -readonly [K in Exclude<keyof SchemaProperties<S>, SchemaRequired<S>>]?: SchemaInfer<SchemaProperties<S>[K], C> } &
    { -readonly [K in Exclude<SchemaRequired<S>, keyof SchemaProperties<S>>]: unknown } &
    (S extends { additionalProperties: false } ? {} : { [key: string]: unknown })
> & SchemaTitled<S, C>;

type SchemaArray<S, C> = S extends { items: infer I }
    ? (I extends readonly any[] ? unknown[] : SchemaInfer<I, C>[])
    : unknown[];

/** What one value of a schema's types is: documents and arrays by their keywords. */
type SchemaBase<S, C> =
    | (SchemaHasObject<S> extends true ? SchemaObject<S, C> : never)
    | (SchemaHasArray<S> extends true ? SchemaArray<S, C> : never)
    | SchemaScalarOf<S>;

type SchemaAllOf<T, C> = T extends readonly [infer H, ...infer R] ? SchemaInfer<H, C> & SchemaAllOf<R, C> : unknown;
type SchemaEach<T, C> = T extends readonly (infer E)[] ? (E extends unknown ? SchemaInfer<E, C> : never) : never;
type SchemaOwn<S, C> = S extends { bsonType: any } | { type: any } | { properties: any } | { required: any } | { items: any } ? SchemaBase<S, C> : unknown;

/** The value type a sub-schema written `as const` describes (json-schema-to-ts's way, with MongoDB's bsonType). */
export type SchemaInfer<S, C = {}> =
    S extends { enum: readonly (infer E)[] } ? E :
    S extends { anyOf: infer A } ? SchemaOwn<S, C> & SchemaEach<A, C> :
    S extends { oneOf: infer O } ? SchemaOwn<S, C> & SchemaEach<O, C> :
    S extends { allOf: infer L } ? SchemaOwn<S, C> & SchemaAllOf<L, C> :
    S extends { bsonType: any } | { type: any } | { properties: any } | { required: any } | { items: any } ? SchemaBase<S, C> :
    unknown;

/** The document type of a $jsonSchema (or { $jsonSchema }) written `as const`; Document when the schema's type is not known. */
export type SchemaDocument<S, C = {}> =
    S extends { $jsonSchema: infer J } ? SchemaDocument<J, C> :
    unknown extends SchemaInfer<S, C> ? Document : SchemaInfer<S, C> & {};

/** A codec for the documents a MongoDB $jsonSchema (or { $jsonSchema }) describes; written `as const`, the schema types its documents. */
export declare function compile<S extends Document, C extends SchemaClasses = {}>(schema: S, options?: CompileOptions<C>): SchemaCodec<SchemaDocument<S, C>>;
