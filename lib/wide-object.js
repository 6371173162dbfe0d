'use strict';

// A plain object with room for 128 fields inside it, for decoded documents of
// many fields. An object V8 grows one computed key at a time ({} then obj[key] =
// value) has 4 fields inside and turns into a hash-table dictionary at its 17th
// field; one made by `new WideObject()` stays a fast object up to about 256 fields.
// 91 computed-key stores took 2.4 us instead of 6.2 us, and a fast object is quicker
// to read afterwards and smaller than a dictionary (1 KB against about 6 KB at 91 fields).
//
// V8 sizes a constructor's objects by the `this.name =` assignments it finds in the
// constructor's source, whether or not they run; it then shrinks that size to what
// the first objects used. `new WideObject(true)`, once below, uses all 128, so the
// room stays. Objects made by `new WideObject()` have no fields and Object.prototype
// as their prototype: they are plain objects to everything that looks at them.
// That first object is kept: until V8 settles the size, the 128-field map is known
// only through it, and a full GC that collected it shrank the room to what later
// objects used (documents of 91 fields and more were dictionaries again).
function WideObject(reserve) {
    if (reserve !== true) return;
    this.f000 = this.f001 = this.f002 = this.f003 = this.f004 = this.f005 = this.f006 = this.f007 = undefined;
    this.f008 = this.f009 = this.f010 = this.f011 = this.f012 = this.f013 = this.f014 = this.f015 = undefined;
    this.f016 = this.f017 = this.f018 = this.f019 = this.f020 = this.f021 = this.f022 = this.f023 = undefined;
    this.f024 = this.f025 = this.f026 = this.f027 = this.f028 = this.f029 = this.f030 = this.f031 = undefined;
    this.f032 = this.f033 = this.f034 = this.f035 = this.f036 = this.f037 = this.f038 = this.f039 = undefined;
    this.f040 = this.f041 = this.f042 = this.f043 = this.f044 = this.f045 = this.f046 = this.f047 = undefined;
    this.f048 = this.f049 = this.f050 = this.f051 = this.f052 = this.f053 = this.f054 = this.f055 = undefined;
    this.f056 = this.f057 = this.f058 = this.f059 = this.f060 = this.f061 = this.f062 = this.f063 = undefined;
    this.f064 = this.f065 = this.f066 = this.f067 = this.f068 = this.f069 = this.f070 = this.f071 = undefined;
    this.f072 = this.f073 = this.f074 = this.f075 = this.f076 = this.f077 = this.f078 = this.f079 = undefined;
    this.f080 = this.f081 = this.f082 = this.f083 = this.f084 = this.f085 = this.f086 = this.f087 = undefined;
    this.f088 = this.f089 = this.f090 = this.f091 = this.f092 = this.f093 = this.f094 = this.f095 = undefined;
    this.f096 = this.f097 = this.f098 = this.f099 = this.f100 = this.f101 = this.f102 = this.f103 = undefined;
    this.f104 = this.f105 = this.f106 = this.f107 = this.f108 = this.f109 = this.f110 = this.f111 = undefined;
    this.f112 = this.f113 = this.f114 = this.f115 = this.f116 = this.f117 = this.f118 = this.f119 = undefined;
    this.f120 = this.f121 = this.f122 = this.f123 = this.f124 = this.f125 = this.f126 = this.f127 = undefined;
}
WideObject.prototype = Object.prototype;
const reservingObject = new WideObject(true);

// the most fields {} takes by computed-key stores before V8 makes it a dictionary
const MAX_FAST_KEYED_FIELDS = 16;

module.exports = { WideObject, MAX_FAST_KEYED_FIELDS, reservingObject };
