// Type declarations for qbson: the encoder, decoder, streams, Extended JSON and
// every BSON type class, as index.js exports them (index.mjs re-exports the same
// names, plus the whole module as its default export).
//
// Node's own types (@types/node) are used when the program has them: the byte
// results are then Buffer and encodeStream() a stream.Transform. Without them
// the byte results are Uint8Array and encodeStream() a small stream interface.

// @ts-ignore -- resolves only where @types/node is loaded; unused otherwise
import type { Transform as NodeTransform } from 'node:stream';

// ---------------------------------------------------------------------------
// Node detection

// @ts-ignore -- the global Buffer of @types/node; only used when that is loaded
type NodeBuffer = Buffer;
type HasNodeTypes = typeof globalThis extends { Buffer: unknown } ? true : false;

/**
 * The bytes qbson hands back: a Node Buffer where the global Buffer exists (Node, Bun, Deno's node
 * mode), a plain Uint8Array elsewhere (browsers, workers, Deno); typed Uint8Array without @types/node.
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
// Documents and options

/** A BSON document as JavaScript sees it: string keys, any values. */
export interface Document {
    [key: string]: any;
}

/**
 * What encode() takes as the top-level document: a plain object (or class
 * instance, or an object with toBSON()), a Map with string keys, or null /
 * undefined for the empty document. Arrays and other iterables are refused.
 */
export type EncodableDocument = (Document & { [Symbol.iterator]?: never }) | ReadonlyMap<string, unknown> | null | undefined;

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

/** bson-compatible options of serialize() and serializeWithBufferAndIndex(). */
export interface SerializeOptions extends EncodeOptions {
    /** serializeWithBufferAndIndex only: where in the buffer to start writing. Default 0. */
    index?: number;
}

/** The options calculateObjectSize() reads. */
export type CalculateObjectSizeOptions = Pick<EncodeOptions, 'serializeFunctions' | 'ignoreUndefined' | 'maxDepth'>;

/** Options of decodeAll() and the value options shared by every decoder entry point. */
export interface DecodeAllOptions {
    /** int64 as a number when it fits exactly in a double (default true); otherwise a Long. */
    promoteLongs?: boolean;
    /** int32, double, int64 and symbol as JavaScript values (default true); false gives Int32, Double, Long, BSONSymbol. */
    promoteValues?: boolean;
    /** Binary data as a Buffer instead of a Binary. Default false. */
    promoteBuffers?: boolean;
    /** int64 as a bigint. Needs promoteLongs and promoteValues left true. Default false. */
    useBigInt64?: boolean;
    /** Regular expressions as BSONRegExp instead of RegExp. Default false. */
    bsonRegExp?: boolean;
    /** Keep DBPointer, undefined and symbol as DBPointer, BSONUndefined and BSONSymbol. Default false. */
    preserveDeprecated?: boolean;
    /** Deepest nesting allowed, a positive integer. Default 500. */
    maxDepth?: number;
    /**
     * UTF-8 checking of strings: utf8 true (the default) or false for all, or an
     * object naming top-level keys all true (check only those) or all false (check all but those).
     */
    validation?: {
        utf8?: boolean | Record<string, true> | Record<string, false>;
    };
    /**
     * The form each named BSON type is decoded into, made as the value is read
     * (qbson only): e.g. { objectId: 'hex', date: 'iso' }. Takes over from
     * promoteLongs, useBigInt64, promoteBuffers and bsonRegExp for the types it names.
     * Unknown type names or forms are a BSONError. See docs/value-mapping.md.
     */
    values?: ValueForms;
    /**
     * As JSON.parse's reviver (qbson only): called with `this` the containing
     * document or array for every field, innermost documents first, then with key ''
     * for the whole document; its result replaces the value, undefined deletes the field.
     * Refused by get, has, lazy and the fields option.
     */
    reviver?: (this: any, key: string, value: any) => any;
}

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

/** Options of the readers of part of a document (get, has, lazy): decode's, without a reviver. */
export type ReaderOptions = Omit<DecodeOptions, 'reviver'>;

/** Options of decode() and deserialize(). */
export interface DecodeOptions extends DecodeAllOptions, FieldsOption {
    /** Offset of the document in the buffer. Default 0. */
    index?: number;
    /** Allow bytes after the document. Default false: the document must end the buffer. */
    allowObjectSmallerThanBufferSize?: boolean;
}

/** Options of decode() and decodeAll() that choose fields. */
export interface FieldsOption {
    /**
     * Build only these fields, in document order (qbson only). Each is a path as
     * get() takes it; a path into an array goes on into each document of it, as in a
     * MongoDB projection. Fields not named are stepped over, not decoded.
     */
    fields?: ReadonlyArray<Path>;
}

/** bson's name for decode()'s options. */
export type DeserializeOptions = DecodeOptions;

/** Options of decodeStream(): decode's value options plus a bound on document size. */
export interface DecodeStreamOptions extends DecodeAllOptions {
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

/** The byte length encode(doc, opts) would produce. */
export declare function calculateObjectSize(doc: EncodableDocument, opts?: CalculateObjectSizeOptions): number;

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

/** bson's serialize: encode(). */
export declare function serialize(object: EncodableDocument, options?: SerializeOptions): BSONBuffer;

/** bson's serializeWithBufferAndIndex: writes at options.index; returns the index of the last byte written. */
export declare function serializeWithBufferAndIndex(object: EncodableDocument, finalBuffer: Uint8Array, options?: SerializeOptions): number;

/** bson's deserialize: decode(). */
export declare function deserialize(buffer: Uint8Array, options?: DeserializeOptions): Document;

/**
 * bson's deserializeStream: decodes numberOfDocuments documents from data at
 * startIndex into documents[docStartIndex...]; returns the index after the last one.
 */
export declare function deserializeStream(
    data: Uint8Array | ArrayBuffer,
    startIndex: number,
    numberOfDocuments: number,
    documents: Document[],
    docStartIndex: number,
    options?: DecodeAllOptions
): number;

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

export interface BSONErrorOptions {
    code?: BSONErrorCode | (string & {});
    offset?: number;
    path?: string;
    /** The error behind this one, as Error's own cause option. */
    cause?: unknown;
}

export declare class BSONError extends Error {
    constructor(message: string, options?: BSONErrorOptions);
    /** 'BSONError', or the subclass's name. */
    get name(): string;
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
    /** The error behind this one; for decodeStream, the error decode() threw before re-addressing. */
    cause?: unknown;
    /** Always true: the mark by which bson@7 and qbson recognise each other's errors. */
    get bsonError(): true;
    /** True for a BSONError from any copy of qbson or bson. */
    static isBSONError(value: unknown): value is BSONError;
}

/** A type object stamped with another major version of bson (or with none): bson's BSONVersionError. */
export declare class BSONVersionError extends BSONError {
    constructor();
    get name(): 'BSONVersionError';
}

/** An unexpected input or internal state outside the bytes themselves. */
export declare class BSONRuntimeError extends BSONError {
    constructor(message: string, options?: BSONErrorOptions);
    get name(): 'BSONRuntimeError';
}

/** Bytes that are not valid BSON; the message ends with ". offset: N", as bson's does. */
export declare class BSONOffsetError extends BSONError {
    constructor(message: string, offset: number, options?: BSONErrorOptions);
    get name(): 'BSONOffsetError';
    offset: number;
}

// ---------------------------------------------------------------------------
// BSON type classes

/** The `_bsontype` tags of qbson's classes. */
export type BSONTypeTag =
    | 'ObjectId'
    | 'Long'
    | 'Timestamp'
    | 'Int32'
    | 'Double'
    | 'Decimal128'
    | 'Binary'
    | 'Code'
    | 'BSONRegExp'
    | 'BSONSymbol'
    | 'DBRef'
    | 'MinKey'
    | 'MaxKey'
    | 'DBPointer'
    | 'Undefined';

/** The inspect function Node's util.inspect passes to a custom inspector. */
export type InspectFn = (value: unknown, options?: unknown) => string;

/** The symbol under which every BSON type class gives its tag (Symbol.for('@@mdb.bson.type')). */
export declare const bsonType: unique symbol;

/** Base of every BSON type class; carries the marker bson@7 checks for. */
export declare abstract class BSONValue {
    abstract get _bsontype(): BSONTypeTag;
    get [bsonType](): this['_bsontype'];
    abstract inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

/** Anything with an `id` that ObjectId can copy; toHexString() is preferred when present. */
export interface ObjectIdLike {
    id: string | Uint8Array;
    toHexString?(): string;
}

export declare class ObjectId extends BSONValue {
    /** A new id (now, the process's random value, the counter), or a copy of the given one. */
    constructor(inputId?: string | ObjectId | ObjectIdLike | ArrayBufferView | null);
    get _bsontype(): 'ObjectId';
    /** When true, ids keep their hex string once computed. Unset (undefined) by default. */
    static cacheHexString: boolean | undefined;
    /** A fresh 12-byte Buffer on every read. */
    get id(): BSONBuffer;
    set id(value: ArrayBufferView);
    toHexString(): string;
    toString(encoding?: 'hex' | 'base64'): string;
    toJSON(): string;
    /** Same 12 bytes; a string is compared as hex, case-insensitively. */
    equals(other: string | ObjectId | ObjectIdLike | null | undefined): boolean;
    /** The creation time held in the first 4 bytes (whole seconds). */
    getTimestamp(): Date;
    /** Writes the 12 bytes at buf[offset] and returns offset + 12. */
    writeTo(buf: Uint8Array, offset: number): number;
    /** bson@7's serializer hook: writes the 12 bytes at buf[offset] and returns 12. */
    serializeInto(buf: Uint8Array, offset: number): 12;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
    /** An id from the 12 bytes at buf[offset]; no bounds checks. */
    static fromBytes(buf: Uint8Array, offset: number): ObjectId;
    /** 12 new id bytes, with `time` (seconds) in place of now when given. */
    static generate(time?: number): BSONBuffer;
    static createPk(): ObjectId;
    /** An id whose first 4 bytes are `time` (seconds) and the rest zero. */
    static createFromTime(time: number): ObjectId;
    static createFromHexString(hexString: string): ObjectId;
    static createFromBase64(base64: string): ObjectId;
    /** Whether `id` would make an ObjectId (a string only when 24 hex digits). */
    static isValid(id: unknown): boolean;
}

/** A value Long's arithmetic and comparisons accept in place of a Long. */
export type LongLike = Long | Timestamp | number | string | { low: number; high: number; unsigned?: boolean };

export declare class Long extends BSONValue {
    /** From two int32 halves (default 0), with the signedness flag. */
    constructor(low?: number, high?: number, unsigned?: boolean);
    /** From the low half alone, the high half 0. */
    constructor(low: number, unsigned: boolean);
    /** The low 64 bits of a bigint, or text parsed as Long.fromString does (base 10). */
    constructor(value: bigint | string, unsigned?: boolean);
    get _bsontype(): 'Long';
    get __isLong__(): true;
    low: number;
    high: number;
    unsigned: boolean;

    static readonly MAX_UNSIGNED_VALUE: Long;
    static readonly ZERO: Long;
    static readonly UZERO: Long;
    static readonly ONE: Long;
    static readonly UONE: Long;
    static readonly NEG_ONE: Long;
    static readonly MAX_VALUE: Long;
    static readonly MIN_VALUE: Long;
    static readonly TWO_PWR_24: Long;

    static fromBits(lowBits: number, highBits: number, unsigned?: boolean): Long;
    static fromInt(value: number, unsigned?: boolean): Long;
    /** Truncated toward zero, saturated at the bounds; NaN is zero. */
    static fromNumber(value: number, unsigned?: boolean): Long;
    /** The low 64 bits of the value. */
    static fromBigInt(value: bigint, unsigned?: boolean): Long;
    static fromString(str: string, radix?: number): Long;
    static fromString(str: string, unsigned?: boolean, radix?: number): Long;
    /** As fromString, but only text that is exactly a 64-bit value of that signedness. */
    static fromStringStrict(str: string, radix?: number): Long;
    static fromStringStrict(str: string, unsigned?: boolean, radix?: number): Long;
    static fromBytes(bytes: ArrayLike<number>, unsigned?: boolean, le?: boolean): Long;
    static fromBytesLE(bytes: ArrayLike<number>, unsigned?: boolean): Long;
    static fromBytesBE(bytes: ArrayLike<number>, unsigned?: boolean): Long;
    /** True for Longs and Timestamps from any copy of qbson or bson. */
    static isLong(value: unknown): value is Long | Timestamp;
    static fromValue(value: number | string | { low: number; high: number; unsigned?: boolean }, unsigned?: boolean): Long;

    getHighBits(): number;
    getHighBitsUnsigned(): number;
    getLowBits(): number;
    getLowBitsUnsigned(): number;
    getNumBitsAbs(): number;
    isZero(): boolean;
    eqz(): boolean;
    isNegative(): boolean;
    isPositive(): boolean;
    isOdd(): boolean;
    isEven(): boolean;

    equals(other: LongLike): boolean;
    eq(other: LongLike): boolean;
    notEquals(other: LongLike): boolean;
    neq(other: LongLike): boolean;
    ne(other: LongLike): boolean;
    compare(other: LongLike): -1 | 0 | 1;
    comp(other: LongLike): -1 | 0 | 1;
    lessThan(other: LongLike): boolean;
    lt(other: LongLike): boolean;
    lessThanOrEqual(other: LongLike): boolean;
    lte(other: LongLike): boolean;
    le(other: LongLike): boolean;
    greaterThan(other: LongLike): boolean;
    gt(other: LongLike): boolean;
    greaterThanOrEqual(other: LongLike): boolean;
    gte(other: LongLike): boolean;
    ge(other: LongLike): boolean;

    add(addend: LongLike): Long;
    subtract(subtrahend: LongLike): Long;
    sub(subtrahend: LongLike): Long;
    multiply(multiplier: LongLike): Long;
    mul(multiplier: LongLike): Long;
    divide(divisor: LongLike): Long;
    div(divisor: LongLike): Long;
    modulo(divisor: LongLike): Long;
    mod(divisor: LongLike): Long;
    rem(divisor: LongLike): Long;
    negate(): Long;
    neg(): Long;
    not(): Long;
    and(other: LongLike): Long;
    or(other: LongLike): Long;
    xor(other: LongLike): Long;
    shiftLeft(numBits: number | Long): Long;
    shl(numBits: number | Long): Long;
    shiftRight(numBits: number | Long): Long;
    shr(numBits: number | Long): Long;
    shiftRightUnsigned(numBits: number | Long): Long;
    shru(numBits: number | Long): Long;
    shr_u(numBits: number | Long): Long;

    toSigned(): Long;
    toUnsigned(): Long;
    toInt(): number;
    toNumber(): number;
    toBigInt(): bigint;
    toString(radix?: number): string;
    toBytes(le?: boolean): number[];
    toBytesLE(): number[];
    toBytesBE(): number[];
    /** {$numberLong: string}, or a number with options.relaxed. */
    toExtendedJSON(options?: EJSONOptions): number | LongExtended;
    /** A $numberLong as EJSON reads it, relaxed (a number) unless options.relaxed is false; a bigint with useBigInt64. */
    static fromExtendedJSON(doc: { $numberLong: string }, options?: EJSONOptions): number | Long | bigint;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

export interface LongExtended {
    $numberLong: string;
}

/**
 * Timestamp is a Long underneath (an unsigned one) with its own tag and statics;
 * this base gives it Long's instance members without Long's `_bsontype` and static side.
 */
declare const TimestampBase: abstract new (low?: number, high?: number, unsigned?: boolean) => Omit<Long, '_bsontype' | 'inspect' | 'toExtendedJSON' | typeof bsonType> & BSONValue;

export declare class Timestamp extends TimestampBase {
    /** Zero when no value; a bigint or Long's 64 bits; or t (seconds) and i (ordinal), each 0..2^32-1. */
    constructor(value?: bigint | Long | Timestamp | { t: number | Int32; i: number | Int32 } | null);
    get _bsontype(): 'Timestamp';
    static readonly MAX_VALUE: Long;
    /** The high word: seconds since the epoch. */
    get t(): number;
    /** The low word: the ordinal within the second. */
    get i(): number;
    toJSON(): { $timestamp: string };
    /** The value as the increment, t = 0. */
    static fromInt(value: number): Timestamp;
    static fromNumber(value: number): Timestamp;
    static fromBits(lowBits: number, highBits: number): Timestamp;
    static fromString(str: string, radix?: number): Timestamp;
    toExtendedJSON(): TimestampExtended;
    static fromExtendedJSON(doc: TimestampExtended | { $timestamp: { t: number | Long; i: number | Long } }): Timestamp;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

export interface TimestampExtended {
    $timestamp: { t: number; i: number };
}

/** A number the encoder writes as BSON int32. */
export declare class Int32 extends BSONValue {
    constructor(value: number | string);
    get _bsontype(): 'Int32';
    value: number;
    /** Plain decimal integer text in int32 range. */
    static fromString(value: string): Int32;
    valueOf(): number;
    toString(radix?: number): string;
    toJSON(): number;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

/** A number the encoder always writes as a BSON double. */
export declare class Double extends BSONValue {
    constructor(value: number);
    get _bsontype(): 'Double';
    value: number;
    /** Decimal or exponential text, or 'NaN', 'Infinity', '-Infinity'. */
    static fromString(value: string): Double;
    valueOf(): number;
    toString(radix?: number): string;
    toJSON(): number;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

export declare class Decimal128 extends BSONValue {
    /** 16 bytes as BSON stores them (kept, not copied), or text as for fromString. */
    constructor(bytes: Uint8Array | string);
    get _bsontype(): 'Decimal128';
    bytes: Uint8Array;
    /** Exact: text needing rounding is a BSONError. */
    static fromString(representation: string): Decimal128;
    /** Rounds half-to-even to 34 digits where fromString would fail. */
    static fromStringWithRounding(representation: string): Decimal128;
    toString(): string;
    toJSON(): { $numberDecimal: string };
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

/** Bytes a Binary can be made from or written with. */
export type BinarySequence = ArrayBufferView | ArrayBuffer | SharedArrayBuffer | readonly number[];

export declare class Binary extends BSONValue {
    /** Over the bytes given (a typed array or ArrayBuffer is shared, an array copied), or 256 empty bytes to put() into. */
    constructor(buffer?: BinarySequence | null, subType?: number | null);
    get _bsontype(): 'Binary';
    /** The data; may extend past the value after put() or write(), see position. */
    buffer: BSONBuffer;
    sub_type: number;
    /** The length of the value held in buffer. */
    position: number;

    static readonly BUFFER_SIZE: 256;
    static readonly SUBTYPE_DEFAULT: 0;
    static readonly SUBTYPE_FUNCTION: 1;
    static readonly SUBTYPE_BYTE_ARRAY: 2;
    static readonly SUBTYPE_UUID_OLD: 3;
    static readonly SUBTYPE_UUID: 4;
    static readonly SUBTYPE_MD5: 5;
    static readonly SUBTYPE_ENCRYPTED: 6;
    static readonly SUBTYPE_COLUMN: 7;
    static readonly SUBTYPE_SENSITIVE: 8;
    static readonly SUBTYPE_VECTOR: 9;
    static readonly SUBTYPE_USER_DEFINED: 128;
    static readonly VECTOR_TYPE: Readonly<{ Int8: 0x03; Float32: 0x27; PackedBit: 0x10 }>;

    /** A copy of buf[start..end) with the subtype; subtype 4 with 16 bytes gives a UUID. No bounds checks. */
    static fromBytes(buf: Uint8Array, start: number, end: number, subtype: number): Binary;
    static createFromHexString(hex: string, subType?: number): Binary;
    static createFromBase64(base64: string, subType?: number): Binary;

    /** Appends one byte: 0-255, a one-character string, or a one-element array. */
    put(byteValue: number | string | Uint8Array | readonly number[]): void;
    /** Writes bytes at offset, by default at the end of the value. */
    write(sequence: ArrayBufferView | readonly number[], offset?: number): void;
    /** A view of up to `length` bytes from `position` (to the end when length is missing or not positive). */
    read(position: number, length?: number): BSONBuffer;
    /** The value's bytes (a view when buffer is longer). */
    value(): BSONBuffer;
    length(): number;
    toJSON(): string;
    toString(encoding?: 'hex' | 'base64' | 'utf8' | 'utf-8'): string;
    /** This subtype 4 value as a UUID. */
    toUUID(): UUID;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;

    // vectors (subtype 9)
    toInt8Array(): Int8Array;
    toFloat32Array(): Float32Array;
    toPackedBits(): Uint8Array;
    toBits(): Int8Array;
    static fromInt8Array(array: Int8Array | readonly number[]): Binary;
    static fromFloat32Array(array: Float32Array | readonly number[]): Binary;
    /** Packed bytes and the count (0-7) of unused low bits in the last. */
    static fromPackedBits(array: Uint8Array | readonly number[], padding?: number | null): Binary;
    static fromBits(bits: ArrayLike<number>): Binary;
}

export declare class UUID extends Binary {
    /** A random v4 UUID, or from 32/36-character hex, 16 bytes (kept, not copied) or another UUID (copied). */
    constructor(input?: string | ArrayBufferView | UUID | null);
    /** The 16 bytes (the same as buffer). */
    get id(): BSONBuffer;
    set id(value: BSONBuffer);
    toHexString(includeDashes?: boolean): string;
    toString(encoding?: 'hex' | 'base64'): string;
    toJSON(): string;
    /** Same 16 bytes; false for anything that is not a UUID, its bytes or its text. */
    equals(other: string | ArrayBufferView | UUID | null | undefined): boolean;
    /** A plain subtype 4 Binary over the same bytes. */
    toBinary(): Binary;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
    /** A UUID from a copy of buf[start..end). No bounds checks. */
    static fromBytes(buf: Uint8Array, start: number, end: number): UUID;
    /** 16 random bytes with the version 4 and RFC 4122 variant bits set. */
    static generate(): BSONBuffer;
    static isValid(input: unknown): boolean;
    static createFromHexString(hexString: string): UUID;
    static createFromBase64(base64: string): UUID;
    /** The 16 bytes of 32 hex digits or the hyphenated form. */
    static bytesFromString(representation: string): BSONBuffer;
    static isValidUUIDString(representation: string): boolean;
}

/** BSON JavaScript code, with scope when scope is an object. */
export declare class Code extends BSONValue {
    constructor(code: string | Function, scope?: Document | null);
    get _bsontype(): 'Code';
    code: string;
    scope: Document | null;
    toJSON(): { code: string; scope?: Document };
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

/** A BSON regular expression kept as pattern and option letters (any of 'ilmsux', stored sorted). */
export declare class BSONRegExp extends BSONValue {
    constructor(pattern: string, options?: string | null);
    get _bsontype(): 'BSONRegExp';
    pattern: string;
    options: string;
    /** The option letters sorted, '' for none. */
    static parseOptions(options?: string | null): string;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

/** The deprecated BSON symbol type. */
export declare class BSONSymbol extends BSONValue {
    constructor(value: string);
    get _bsontype(): 'BSONSymbol';
    value: string;
    valueOf(): string;
    toString(): string;
    toJSON(): string;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

export interface DBRefLike {
    $ref: string;
    $id: ObjectId;
    $db?: string;
}

/** A reference to a document in another collection: {$ref, $id, $db?, ...fields}. */
export declare class DBRef extends BSONValue {
    /** A collection 'db.collection' (one dot) sets db too, overriding the db argument. */
    constructor(collection: string, oid: ObjectId, db?: string, fields?: Document);
    get _bsontype(): 'DBRef';
    collection: string;
    oid: ObjectId;
    db?: string;
    fields: Document;
    /** The collection, by its 1.x name. */
    get namespace(): string;
    set namespace(value: string);
    toJSON(): DBRefLike & Document;
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

/** Compares below every other BSON value. */
export declare class MinKey extends BSONValue {
    get _bsontype(): 'MinKey';
    inspect(): string;
}

/** Compares above every other BSON value. */
export declare class MaxKey extends BSONValue {
    get _bsontype(): 'MaxKey';
    inspect(): string;
}

/** The deprecated BSON DBPointer, as decode gives it with preserveDeprecated. */
export declare class DBPointer extends BSONValue {
    constructor(namespace: string, oid: ObjectId);
    get _bsontype(): 'DBPointer';
    namespace: string;
    oid: ObjectId;
    toJSON(): { $ref: string; $id: ObjectId };
    inspect(depth?: number, options?: unknown, inspect?: InspectFn): string;
}

/** The deprecated BSON undefined, as decode gives it with preserveDeprecated. */
export declare class BSONUndefined extends BSONValue {
    get _bsontype(): 'Undefined';
    toJSON(): null;
    inspect(): string;
}

// ---------------------------------------------------------------------------
// Extended JSON

export interface EJSONOptionsBase {
    /** Relaxed (true, the default) or canonical Extended JSON. */
    relaxed?: boolean;
    /** bson's legacy (v1) forms. Default false. */
    legacy?: boolean;
    /** Deepest nesting allowed, a positive integer. Default 500. */
    maxDepth?: number;
}

export interface EJSONSerializeOptions extends EJSONOptionsBase {
    /** Drop undefined values instead of writing null. Default false. */
    ignoreUndefined?: boolean;
}

export interface EJSONParseOptions extends EJSONOptionsBase {
    /** $numberLong as bigint. Default false. */
    useBigInt64?: boolean;
    /** $dbPointer, $undefined and $symbol as DBPointer, BSONUndefined and BSONSymbol. Default false. */
    preserveDeprecated?: boolean;
}

export type EJSONOptions = EJSONSerializeOptions & EJSONParseOptions;

/** Options of jsonToBSON: those of EJSON.parse and of encode, and how many documents the text holds. */
export interface JSONToBSONOptions extends EJSONParseOptions, EncodeOptions {
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
    validation?: { utf8?: boolean | Record<string, true> | Record<string, false> };
}

/**
 * BSON bytes straight to JSON text, with no value tree between: the text
 * JSON.stringify or EJSON.stringify makes of the decoded document. With `many`,
 * documents back to back (a .bson file, a cursor batch) or an array of them.
 */
export declare function bsonToJSON(bytes: Uint8Array | Uint8Array[], opts?: BSONToJSONOptions & { output: 'bytes' }): BSONBuffer;
export declare function bsonToJSON(bytes: Uint8Array | Uint8Array[], opts?: BSONToJSONOptions): string;

/** JSON.stringify's replacer. */
export type EJSONReplacer = (number | string)[] | ((this: any, key: string, value: any) => any) | null;

declare function ejsonStringify(value: any, replacer?: EJSONReplacer, space?: string | number, options?: EJSONSerializeOptions): string;
declare function ejsonStringify(value: any, replacer: EJSONReplacer | undefined, options: EJSONSerializeOptions): string;
declare function ejsonStringify(value: any, options: EJSONSerializeOptions, space?: string | number): string;

/** MongoDB Extended JSON with bson@7's API. The object is frozen. */
export declare const EJSON: {
    /** Values from Extended JSON text. */
    readonly parse: (text: string, options?: EJSONParseOptions) => any;
    /** Extended JSON text of a value; options may stand in the replacer or the space position. */
    readonly stringify: typeof ejsonStringify;
    /** The Extended JSON of a value as a plain object tree. */
    readonly serialize: (value: any, options?: EJSONSerializeOptions) => any;
    /** Values from an Extended JSON object tree (not changed). */
    readonly deserialize: (ejson: unknown, options?: EJSONParseOptions) => any;
};

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
export type BSONType = (typeof BSONType)[keyof typeof BSONType];

/** bson's byte helpers, on Node's Buffer where it exists, else on Uint8Array (as bson's own two versions). */
export type ByteUtils = {
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
export type NumberUtils = {
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

export type OnDemand = {
    /** The elements of the document at startOffset (default 0), one level deep; bad bytes are a BSONOffsetError. */
    parseToElements: (this: void, bytes: Uint8Array, startOffset?: number) => Iterable<BSONElement>;
    BSONElement: BSONElement;
    ByteUtils: ByteUtils;
    NumberUtils: NumberUtils;
};
/** bson's API for reading documents in place (the MongoDB driver reads its replies through it). */
export declare const onDemand: OnDemand;

/** Accepted for bson compatibility; does nothing (qbson has no fixed internal buffer). */
export declare function setInternalBufferSize(size: number): void;

/** The Extended JSON shapes of the type classes (bson's names for them). */
export interface ObjectIdExtended { $oid: string }
export interface Int32Extended { $numberInt: string }
export interface DoubleExtended { $numberDouble: string }
export interface Decimal128Extended { $numberDecimal: string }
export interface BinaryExtended { $binary: { subType: string; base64: string } }
export interface BinaryExtendedLegacy { $type: string; $binary: string }
export type UUIDExtended = { $uuid: string };
export interface CodeExtended { $code: string; $scope?: Document }
export interface BSONRegExpExtended { $regularExpression: { pattern: string; options: string } }
export interface BSONRegExpExtendedLegacy { $regex: string | BSONRegExp; $options: string }
export interface BSONSymbolExtended { $symbol: string }
export interface MinKeyExtended { $minKey: 1 }
export interface MaxKeyExtended { $maxKey: 1 }
/** Long's constructor type, as bson names it (Timestamp's base). */
export type LongWithoutOverrides = new (low: unknown, high?: number | boolean, unsigned?: boolean) => {
    [P in Exclude<keyof Long, TimestampOverrides>]: Long[P];
};
/** The members Timestamp defines for itself rather than taking from Long. */
export type TimestampOverrides = '_bsontype' | 'toExtendedJSON' | 'fromExtendedJSON' | 'inspect' | typeof bsonType;

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
        Int32Extended,
        MaxKeyExtended,
        MinKeyExtended,
        ObjectIdExtended,
        BSONRegExpExtended,
        BSONRegExpExtendedLegacy,
        BSONSymbolExtended,
        LongWithoutOverrides,
        TimestampOverrides,
        EJSONOptions,
        EJSONOptionsBase,
        EJSONSerializeOptions,
        EJSONParseOptions,
        LongExtended,
        ObjectIdLike,
        TimestampExtended,
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
