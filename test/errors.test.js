'use strict';

const assert = require('assert');
const bson = require('bson');
const { BSONError, isStackOverflow } = require('../lib/errors');

describe('BSONError', function () {
    it('is an Error named BSONError with a code, ERR_BSON by default', function () {
        const err = new BSONError('bad thing');
        assert.ok(err instanceof Error);
        assert.strictEqual(err.name, 'BSONError');
        assert.strictEqual(err.message, 'bad thing');
        assert.strictEqual(err.code, 'ERR_BSON');
        assert.ok(!('offset' in err) && !('path' in err) && !('cause' in err));
    });
    it('carries offset, path, code and cause when given', function () {
        const inner = new RangeError('inner');
        const err = new BSONError('outer', { code: 'ERR_BSON_CORRUPT', offset: 7, path: 'a.b', cause: inner });
        assert.deepStrictEqual([err.code, err.offset, err.path, err.cause], ['ERR_BSON_CORRUPT', 7, 'a.b', inner]);
    });
    it('isBSONError recognises qbson\'s and bson\'s errors, and nothing else', function () {
        assert.ok(BSONError.isBSONError(new BSONError('x')));
        assert.ok(BSONError.isBSONError(new bson.BSONError('x')));
        assert.ok(bson.BSONError.isBSONError(new BSONError('x')));
        assert.ok(!BSONError.isBSONError(new Error('x')));
        assert.ok(!BSONError.isBSONError({ name: 'BSONError' }));
        assert.ok(!BSONError.isBSONError(null));
    });
    it('isStackOverflow knows V8\'s and JavaScriptCore\'s stack overflow, and nothing else', function () {
        assert.ok(isStackOverflow(new RangeError('Maximum call stack size exceeded')));
        assert.ok(isStackOverflow(new RangeError('Maximum call stack size exceeded.')));
        assert.ok(!isStackOverflow(new Error('Maximum call stack size exceeded')));
        assert.ok(!isStackOverflow(new RangeError('Invalid array length')));
    });
});
