'use strict';

// Whether a value truly is a built-in of a kind, from any realm: the built-in's
// own getter is called on it and throws for anything without the internal slot.
// This is what util.types answers, without Node's util module. Asked only after
// instanceof has said no (or yes, for the slot check). A getter that throws costs
// about 3 µs, so Map, Date and RegExp are first told apart by their tags, which
// cost nothing on a plain object: Extended JSON asks all three of every document,
// and stringify({a: 1}) took 60 times bson's time with the throw alone.

const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;

const arrayBufferByteLength = getter(ArrayBuffer.prototype, 'byteLength');
const sharedByteLength = typeof SharedArrayBuffer === 'function' ? getter(SharedArrayBuffer.prototype, 'byteLength') : null;
const typedArrayName = getter(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag);
const mapSize = getter(Map.prototype, 'size');
const regExpSource = getter(RegExp.prototype, 'source');
const dateTime = Date.prototype.getTime;
const objectToString = Object.prototype.toString;

function hasSlot(get, value) {
    try {
        get.call(value);
        return true;
    } catch {
        return false;
    }
}

function isAnyArrayBuffer(value) {
    return hasSlot(arrayBufferByteLength, value) || (sharedByteLength !== null && hasSlot(sharedByteLength, value));
}

// a Uint8Array or a subclass of one (a Buffer), not another typed array
function isUint8Array(value) {
    return typedArrayName.call(value) === 'Uint8Array';
}

// Whether value may be the built-in whose Object.prototype.toString tag is
// builtinTag: a Date or RegExp of any realm has that tag unless a
// Symbol.toStringTag says otherwise, and a Map of any realm has a
// Symbol.toStringTag (Map.prototype's), unless its prototype was replaced: such a
// Map is taken for a plain object, as bson takes it.
function mayBe(value, builtinTag) {
    return value[Symbol.toStringTag] !== undefined || objectToString.call(value) === builtinTag;
}

function isMap(value) {
    return value[Symbol.toStringTag] !== undefined && hasSlot(mapSize, value);
}

function isDate(value) {
    return mayBe(value, '[object Date]') && hasSlot(dateTime, value);
}

// RegExp.prototype's source getter answers for RegExp.prototype itself, which is no RegExp
function isRegExp(value) {
    return value !== RegExp.prototype && mayBe(value, '[object RegExp]') && hasSlot(regExpSource, value);
}

module.exports = { isAnyArrayBuffer, isUint8Array, isMap, isDate, isRegExp };
