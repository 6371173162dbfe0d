'use strict';

// qbson stat --field PATH: the values one path holds across the documents of a
// file, each read in place (lib/lookup.js): how many documents have it, its
// BSON types, its smallest and largest value in MongoDB's sort order, and its
// most frequent values.

const { Buffer } = require('buffer');
const { EJSON } = require('../ejson');

// values counted apart at most; past this, only those already seen are counted
const MAX_DISTINCT = 10000;
const TOP_VALUES = 10;

// MongoDB's name of a value's type (values decoded with promoteValues false)
function typeName(value) {
    if (value === null) return 'null';
    switch (typeof value) {
        case 'string':
            return 'string';
        case 'boolean':
            return 'bool';
        case 'object':
            break;
        default:
            return typeof value;
    }
    if (Array.isArray(value)) return 'array';
    if (value instanceof Date) return 'date';
    switch (value._bsontype) {
        case 'Int32':
            return 'int';
        case 'Double':
            return 'double';
        case 'Long':
            return 'long';
        case 'Decimal128':
            return 'decimal';
        case 'ObjectId':
            return 'objectId';
        case 'Binary':
            return 'binData';
        case 'BSONRegExp':
            return 'regex';
        case 'Code':
            return value.scope == null ? 'javascript' : 'javascriptWithScope';
        case 'BSONSymbol':
            return 'symbol';
        case 'Timestamp':
            return 'timestamp';
        case 'MinKey':
            return 'minKey';
        case 'MaxKey':
            return 'maxKey';
        case 'DBPointer':
            return 'dbPointer';
        case 'BSONUndefined':
            return 'undefined';
        default:
            return 'object';
    }
}

// Where each type sorts in MongoDB's order; the types not listed (documents,
// arrays, binaries, regexes, code...) are counted but take no part in min/max.
const SORT_RANK = new Map([
    ['minKey', 1], ['null', 2], ['undefined', 2], ['int', 3], ['double', 3], ['long', 3], ['decimal', 3],
    ['symbol', 4], ['string', 4], ['objectId', 8], ['bool', 9], ['date', 10], ['timestamp', 11], ['maxKey', 15],
]);

// -1, 0 or 1: a against b, both of one sort rank
function compareSameRank(a, b, rank) {
    switch (rank) {
        case 3:
            return compareNumbers(a, b);
        case 4:
            return Buffer.compare(Buffer.from(String(a.valueOf()), 'utf8'), Buffer.from(String(b.valueOf()), 'utf8'));
        case 8:
            return Buffer.compare(Buffer.from(a.id), Buffer.from(b.id));
        case 9:
            return Number(a) - Number(b);
        case 10:
            return Math.sign(a.getTime() - b.getTime());
        case 11:
            return a.compare(b);
        default:
            return 0;
    }
}

function compareNumbers(a, b) {
    if (a._bsontype === 'Long' && b._bsontype === 'Long') return a.compare(b);
    const x = numberOf(a);
    const y = numberOf(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : -1) : 1;
    return x < y ? -1 : x > y ? 1 : 0;
}

function numberOf(v) {
    if (v._bsontype === 'Long') return v.toNumber();
    if (v._bsontype === 'Decimal128') return Number(v.toString());
    return v.valueOf();
}

class FieldStats {
    constructor(path) {
        this.path = path;
        this.present = 0;
        this.missing = 0;
        this.types = new Map();
        this.min = undefined;
        this.max = undefined;
        this.counts = new Map();
        this.capped = false;
    }

    add(value) {
        if (value === undefined) {
            this.missing++;
            return;
        }
        this.present++;
        const type = typeName(value);
        this.types.set(type, (this.types.get(type) || 0) + 1);
        const rank = SORT_RANK.get(type);
        if (rank !== undefined) {
            if (this.min === undefined || compare(value, rank, this.min) < 0) this.min = { value, rank };
            if (this.max === undefined || compare(value, rank, this.max) > 0) this.max = { value, rank };
        }
        const text = EJSON.stringify(value, { relaxed: false });
        const seen = this.counts.get(text);
        if (seen !== undefined) this.counts.set(text, seen + 1);
        else if (this.counts.size < MAX_DISTINCT) this.counts.set(text, 1);
        else this.capped = true;
    }

    report() {
        const byCount = (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1);
        return {
            path: this.path,
            present: this.present,
            missing: this.missing,
            types: Object.fromEntries([...this.types].sort(byCount)),
            min: this.min === undefined ? null : EJSON.serialize(this.min.value, { relaxed: false }),
            max: this.max === undefined ? null : EJSON.serialize(this.max.value, { relaxed: false }),
            distinct: this.capped ? `more than ${MAX_DISTINCT}` : this.counts.size,
            top: [...this.counts].sort(byCount).slice(0, TOP_VALUES).map(([value, count]) => ({ value: JSON.parse(value), count })),
        };
    }
}

// value (of sort rank `rank`) against a kept {value, rank}
function compare(value, rank, kept) {
    if (rank !== kept.rank) return rank - kept.rank;
    return compareSameRank(value, kept.value, rank);
}

function formatFieldText(f) {
    const lines = [`field ${f.path}:`];
    const row = (k, v) => lines.push(`  ${(k + ':').padEnd(15)}${v}`);
    row('present', f.present);
    row('missing', f.missing);
    for (const [type, n] of Object.entries(f.types)) row(`type ${type}`, n);
    row('min', f.min === null ? '-' : JSON.stringify(f.min));
    row('max', f.max === null ? '-' : JSON.stringify(f.max));
    row('distinct', f.distinct);
    if (f.top.length !== 0) {
        lines.push('  most frequent:');
        for (const { value, count } of f.top) lines.push(`    ${String(count).padStart(8)}  ${JSON.stringify(value)}`);
    }
    return lines.join('\n') + '\n';
}

module.exports = { FieldStats, formatFieldText, typeName };
