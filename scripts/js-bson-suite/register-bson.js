'use strict';
// Replaces js-bson's test/register-bson.js: the library under test is $BSON_IMPL
// ("bson" = bson@7.3.4 from this harness's node_modules, or a path such as /work/wt-jsbson).
require('source-map-support').install({ hookRequire: true });
const chai = require('chai');
chai.use(require('sinon-chai'));
chai.config.truncateThreshold = 0;
chai.use(function (chai) {
  const throwsAssertion = chai.Assertion.prototype.throw;
  chai.Assertion.addMethod('throw', function (...args) {
    const isNegated = chai.util.flag(this, 'negate');
    if (!isNegated) {
      expect(args).to.have.length.of.at.least(1);
      expect(args[0]).to.exist;
    }
    try {
      throwsAssertion.call(this, ...args);
    } catch (assertionError) {
      if (assertionError.actual?.name === assertionError.expected) return;
      throw assertionError;
    }
  });
});
globalThis.expect = chai.expect;
const impl = process.env.BSON_IMPL || 'bson';
const lib = require(impl === 'bson' ? 'bson' : require('path').resolve(impl));
// the suite reads BSON.__isWeb__; keep the library's own export object untouched
const BSON = Object.assign(Object.create(null), lib, { __isWeb__: false });
module.exports = BSON;
