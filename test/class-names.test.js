'use strict';

// The built files name each class as it is created (scripts/class-names.js), not by
// keepNames' __name call afterwards, which kept V8 from optimizing a `new` of the class.

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { build } = require('../scripts/build');
const { nameClasses, classesNamedLate } = require('../scripts/class-names');
const { run } = require('./support/run-async');

const ROOT = path.join(__dirname, '..');

// esbuild's output for Node 18 and for ES2020, keepNames on
const NODE18 = `var __name = (target, value) => Object.defineProperty(target, "name", { value, configurable: true });
class Base {}
var Code = class _Code extends Base {
  static {
    __name(this, "Code");
  }
  static make(x) {
    return x instanceof _Code ? x : new _Code();
  }
  get _Code() { return 1; }
};
var BSONError2 = class extends Error {
  static {
    __name(this, "BSONError");
  }
};
module.exports = { Code, BSONError2 };
`;
const ES2020 = `var __name = (target, value) => Object.defineProperty(target, "name", { value, configurable: true });
class Base {}
var _Code = class _Code extends Base {
  static make() {
    return new _Code();
  }
};
__name(_Code, "Code");
var Code2 = _Code;
module.exports = { Code: Code2 };
`;

function load(source) {
    const module = { exports: {} };
    new Function('module', 'exports', source)(module, module.exports);
    return module.exports;
}

describe('class names in the built files', function () {
    it('a class keepNames renamed gets its own name as it is created, its references to itself kept', function () {
        const { source, named } = nameClasses(NODE18, 'node18.js');
        assert.strictEqual(named, 2);
        assert.deepStrictEqual(classesNamedLate(source, 'node18.js'), []);
        assert.match(source, /var Code = class Code extends Base \{/);
        assert.match(source, /var BSONError2 = class BSONError extends Error \{/);
        assert.match(source, /get _Code\(\)/, 'a property of the same name is not a reference');
        const { Code, BSONError2 } = load(source);
        assert.strictEqual(Code.name, 'Code');
        assert.strictEqual(BSONError2.name, 'BSONError');
        assert.ok(Code.make(null) instanceof Code);
        assert.ok(Object.getOwnPropertyDescriptor(Code, 'name').writable === false, 'the name is the class\'s own');
    });

    it('the ES2020 form: the __name statement after the class goes', function () {
        const { source, named } = nameClasses(ES2020, 'es2020.js');
        assert.strictEqual(named, 1);
        assert.doesNotMatch(source, /__name\(_Code/);
        const { Code } = load(source);
        assert.strictEqual(Code.name, 'Code');
        assert.ok(Code.make() instanceof Code);
    });

    it('refuses a name the class already refers to as another binding', function () {
        const capture = `var __name = () => {};
var Code = 1;
var Code2 = class extends Object {
  static {
    __name(this, "Code");
  }
  get value() { return Code; }
};
`;
        assert.throws(() => nameClasses(capture, 'capture.js'), /refers to another binding named Code/);
        const heritage = capture.replace('extends Object', 'extends Code').replace('return Code;', 'return 1;');
        assert.throws(() => nameClasses(heritage, 'heritage.js'), /refers to another binding named Code/);
    });

    it('no built file sets a class\'s name after creating it', run(async function () {
        const { files } = await build();
        const scripts = files.filter((f) => /\.(c?js|mjs)$/.test(f));
        assert.ok(scripts.length >= 10);
        for (const file of scripts) {
            assert.deepStrictEqual(classesNamedLate(fs.readFileSync(file, 'utf8'), file), [], path.relative(ROOT, file));
        }
    }));

    it('the browser module\'s classes have their own names', run(async function () {
        const browser = await import(path.join(ROOT, 'dist', 'qbson.browser.mjs'));
        const classes = Object.keys(browser).filter((k) => typeof browser[k] === 'function' && /^[A-Z]/.test(k));
        assert.ok(classes.length >= 20);
        for (const name of classes) assert.strictEqual(browser[name].name, name);
    }));
});
