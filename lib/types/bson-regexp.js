'use strict';

const { BSONValue } = require('./bson-value');
const { BSONError } = require('../errors');
const { option } = require('../options');
const { ContainerStack } = require('../container-stack');

const REGEXP_OPTIONS = 'ilmsux';

function sortOptions(options) {
    return options.split('').sort().join('');
}

// A BSON regular expression kept as its pattern and option letters, for patterns
// JavaScript's RegExp cannot represent. Options are stored sorted.
class BSONRegExp extends BSONValue {
    constructor(pattern, options) {
        super();
        if (typeof pattern !== 'string') {
            throw new BSONError(`BSON Regex pattern must be a string, got ${typeof pattern}`);
        }
        if (options != null && typeof options !== 'string') {
            throw new BSONError(`BSON Regex options must be a string, got ${typeof options}`);
        }
        this.pattern = pattern;
        this.options = sortOptions(options == null ? '' : options);

        if (this.pattern.includes('\x00')) {
            throw new BSONError(`BSON Regex patterns cannot contain null bytes, found: ${JSON.stringify(this.pattern)}`);
        }
        if (this.options.includes('\x00')) {
            throw new BSONError(`BSON Regex options cannot contain null bytes, found: ${JSON.stringify(this.options)}`);
        }
        for (let i = 0; i < this.options.length; i++) {
            if (!REGEXP_OPTIONS.includes(this.options[i])) {
                throw new BSONError(`The regular expression option [${this.options[i]}] is not supported`);
            }
        }
    }

    get _bsontype() {
        return 'BSONRegExp';
    }

    // The option letters sorted, '' for none; no validation.
    static parseOptions(options) {
        return options ? sortOptions(options) : '';
    }

    // bson's Extended JSON hook: {$regularExpression: {pattern, options}} or the legacy {$regex, $options}
    static fromExtendedJSON(doc) {
        if ('$regex' in doc) {
            if (typeof doc.$regex === 'string') return new BSONRegExp(doc.$regex, BSONRegExp.parseOptions(doc.$options));
            if (doc.$regex != null && doc.$regex._bsontype === 'BSONRegExp') return doc;
        }
        if ('$regularExpression' in doc) {
            return new BSONRegExp(doc.$regularExpression.pattern, BSONRegExp.parseOptions(doc.$regularExpression.options));
        }
        throw new BSONError(`Unexpected BSONRegExp EJSON object form: ${JSON.stringify(doc)}`);
    }

    // {$regularExpression: {pattern, options}}, with options.legacy {$regex, $options}
    toExtendedJSON(options) {
        return regExpExtendedJSON(this.pattern, this.options, Boolean(option(options, 'legacy')));
    }

    inspect(depth, options, inspect) {
        const stylize = options != null && typeof options === 'object' && typeof options.stylize === 'function' ? options.stylize : (s) => s;
        inspect = inspect || JSON.stringify;
        // bson formats these without the caller's options and colours them itself
        const pattern = stylize(inspect(this.pattern), 'regexp');
        const flags = stylize(inspect(this.options), 'regexp');
        return `new BSONRegExp(${pattern}, ${flags})`;
    }
}

// The Extended JSON of a pattern and its BSON options (a RegExp's too). A pattern
// with a null byte has none: `writer` (lib/ejson.js's, at the value's `key`) words
// the error with its key path, or it is the root's.
function regExpExtendedJSON(pattern, options, legacy, writer, key) {
    if (pattern.indexOf('\x00') !== -1) {
        throw (writer || new ContainerStack('ERR_BSON_EJSON')).fail('a regular expression pattern must not contain null bytes', key);
    }
    if (legacy) return { $regex: pattern, $options: options };
    return { $regularExpression: { pattern, options } };
}

module.exports = { BSONRegExp, regExpExtendedJSON, REGEXP_OPTIONS };
