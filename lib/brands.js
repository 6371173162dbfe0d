'use strict';

// Whether a value truly is a built-in of a kind, from any realm: the built-in's
// own getter is called on it and throws for anything without the internal slot.
// This is what util.types answers, without Node's util module. Asked only after
// instanceof has said no (or yes, for the slot check), so never on a hot path.

const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;

const arrayBufferByteLength = getter(ArrayBuffer.prototype, 'byteLength');
const sharedByteLength = typeof SharedArrayBuffer === 'function' ? getter(SharedArrayBuffer.prototype, 'byteLength') : null;
const typedArrayName = getter(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag);
const mapSize = getter(Map.prototype, 'size');
const regExpSource = getter(RegExp.prototype, 'source');
const dateTime = Date.prototype.getTime;

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

function isMap(value) {
    return hasSlot(mapSize, value);
}

function isDate(value) {
    return hasSlot(dateTime, value);
}

// RegExp.prototype's source getter answers for RegExp.prototype itself, which is no RegExp
function isRegExp(value) {
    return value !== RegExp.prototype && hasSlot(regExpSource, value);
}

module.exports = { isAnyArrayBuffer, isUint8Array, isMap, isDate, isRegExp };
