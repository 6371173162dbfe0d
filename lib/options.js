'use strict';

// Options are read as the caller's own properties only: a property inherited from
// a polluted Object.prototype must not change how anything is encoded or decoded.

const hasOwnProperty = Object.prototype.hasOwnProperty;

// opts[name] if opts itself has it, else undefined.
function option(opts, name) {
    return opts != null && hasOwnProperty.call(opts, name) ? opts[name] : undefined;
}

// A null-prototype copy of the caller's own enumerable options over the defaults,
// for the entry points that read many options once.
function ownOptions(defaults, opts) {
    return Object.assign(Object.create(null), defaults, opts != null && typeof opts === 'object' ? opts : undefined);
}

module.exports = { option, ownOptions };
