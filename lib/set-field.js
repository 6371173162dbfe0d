'use strict';

// Sets key on an object being built (a decoded document, a parsed Extended JSON
// object, a DBRef's fields) as an own data property, even for '__proto__', which
// plain assignment would take as the prototype.
function setField(obj, key, value) {
    if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
    else obj[key] = value;
}

module.exports = { setField };
