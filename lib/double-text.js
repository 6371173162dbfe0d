'use strict';

// A double's text as Number#toString writes it, as bytes: the shortest digits
// that read back as the double, the nearest of them when several do. String(x)
// makes a string per number that then has to be copied: 190 ns per double of 17
// digits with the copy, where JSON.stringify of an array takes 125 ns per
// double and this 108 (random doubles, CPU time). Checked against String(x) on
// 14.5 million doubles of every kind in test/double-text.test.js's families:
// no difference.

const { DIGIT_PAIRS, writeInteger, writeTwoDigits } = require('./json-text-writing');

// 10^0 .. 10^22, each exact
const POWERS_OF_TEN = [];
for (let k = 0, p = 1; k <= 22; k++, p *= 10) POWERS_OF_TEN.push(p);
// 10^-1 .. 10^-6 as the doubles nearest them, for finding a decimal exponent
const NEGATIVE_POWERS_OF_TEN = [1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6];
// Veltkamp's constant, 2^27 + 1, splitting a double into two halves whose products are exact
const SPLIT = 134217729;
// each power of ten's two halves
const POWER_HIGHS = POWERS_OF_TEN.map((p) => SPLIT * p - (SPLIT * p - p));
const POWER_LOWS = POWERS_OF_TEN.map((p, k) => p - POWER_HIGHS[k]);
// 2^j for j = MIN_POWER_OF_TWO .. 0: half an ulp of the doubles handled here
const MIN_POWER_OF_TWO = -80;
const POWERS_OF_TWO = [];
for (let j = MIN_POWER_OF_TWO; j <= 0; j++) POWERS_OF_TWO.push(2 ** j);
// a double's two 32-bit words, the high one (sign, exponent) at HIGH in this runtime's order
const scratch = new Float64Array(1);
const scratchWords = new Uint32Array(scratch.buffer);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

// The digits of a finite double that is not an integer, as Number#toString
// writes them, when 1e-6 <= |x| < 1e15 (no exponent); -1 for the engine to write.
// For 15 (below), 16, then 17 significant digits (k decimals, e the decimal exponent),
// the decimal nearest |x| is found from |x| * 10^k, exact as hi + lo (Dekker's
// product); it reads back as x when it lies within half an ulp of x (a quarter
// below a power of two). The first count whose nearest decimal reads back is
// the shortest, and its nearest decimal is the one Number#toString picks; 17
// always read back. Below 16 digits the decimal is unique, so the 15 digits
// without their trailing zeros are the text of fewer. A distance too near the
// limit to tell, or digits of an unexpected count, are left to the engine.
function writeDoubleText(out, pos, x) {
    const a = x < 0 ? -x : x;
    if (!(a >= 1e-6 && a < 1e15)) return -1;
    // one or two decimals (prices, readings) by the fewest operations: 25 ns
    // less per double, a fifth of the time of a document of one
    if (a < 1e6) {
        const m1 = Math.round(a * 10);
        if (m1 / 10 === a) return writeFewDecimals(out, pos, x < 0, m1, 1);
        const m2 = Math.round(a * 100);
        if (m2 / 100 === a) return writeFewDecimals(out, pos, x < 0, m2, 2);
    }
    const e = decimalExponent(a);
    // 15 digits, by one exact division: round(a * 10^k) is
    // below 2^53, and is the decimal if one reads back (their spacing is four ulps)
    const k15 = 14 - e;
    const m = Math.round(a * POWERS_OF_TEN[k15]);
    if (m / POWERS_OF_TEN[k15] === a) return writeNearest(out, pos, x < 0, m, 0, 15, k15);
    scratch[0] = a;
    const high = scratchWords[HIGH];
    const powerOfTwo = (high & 0xfffff) === 0 && scratchWords[1 - HIGH] === 0;
    // half an ulp of a, 2^(exponent - 53)
    const halfUlp = POWERS_OF_TWO[(high >>> 20) - 1023 - 53 - MIN_POWER_OF_TWO];
    // a's two halves (Veltkamp's split), for the exact products below
    const t = SPLIT * a;
    const aHigh = t - (t - a);
    const aLow = a - aHigh;
    for (let digits = 16; digits <= 17; digits++) {
        const k = digits - 1 - e;
        const p = POWERS_OF_TEN[k];
        const hi = a * p;
        // a * p = hi + lo exactly (Dekker's product)
        const pHigh = POWER_HIGHS[k];
        const pLow = POWER_LOWS[k];
        const lo = aHigh * pHigh - hi + aHigh * pLow + aLow * pHigh + aLow * pLow;
        // a * p = whole + fraction, exactly but for the rounding of fraction (|fraction| < 9)
        const whole = Math.round(hi);
        const fraction = hi - whole + lo;
        let step = Math.round(fraction);
        // halfway between two: the even one, as Number#toString picks
        if (step - fraction === 0.5 && (((whole % 2) + step) & 1) === 1) step--;
        const distance = Math.abs(step - fraction);
        const limit = (step < fraction && powerOfTwo ? halfUlp / 2 : halfUlp) * p;
        if (Math.abs(distance - limit) < 1e-9) return -1;
        if (distance < limit) return writeNearest(out, pos, x < 0, whole, step, digits, k);
    }
    return -1;
}

// m / 10^k for k of 1 or 2 (m < 10^8, its last digit not 0): the whole part,
// then the k decimals
function writeFewDecimals(out, pos, negative, m, k) {
    const p = k === 1 ? 10 : 100;
    const whole = (m / p) | 0;
    const fraction = m - whole * p;
    if (negative) out[pos++] = 0x2d;
    pos = writeInteger(out, pos, whole);
    out[pos++] = 0x2e;
    if (k === 1) {
        out[pos++] = 0x30 + fraction;
        return pos;
    }
    return writeTwoDigits(out, pos, fraction);
}

// e with 10^e <= a < 10^(e+1), for 1e-6 <= a < 1e15; one off at an inexact power
// of ten, which writeNearest's check of the digits' count catches
function decimalExponent(a) {
    let e = 0;
    if (a >= 1) {
        while (e < 14 && a >= POWERS_OF_TEN[e + 1]) e++;
    } else {
        e = -1;
        while (e > -6 && a < NEGATIVE_POWERS_OF_TEN[-e]) e--;
    }
    return e;
}

// The integer whole + step (whole below 2^57, |step| < 10) of `digits` digits,
// over 10^k: kept as 8 trailing digits and the ones before them (whole - 10^8 q
// is exact: q 10^8 = (390625 q) 2^8 is a double), its trailing zeros dropped.
function writeNearest(out, pos, negative, whole, step, digits, k) {
    let lead = Math.floor(whole / 1e8);
    let tail = whole - lead * 1e8 + step;
    while (tail < 0) {
        lead--;
        tail += 1e8;
    }
    while (tail >= 1e8) {
        lead++;
        tail -= 1e8;
    }
    if (lead < POWERS_OF_TEN[digits - 9] || lead >= POWERS_OF_TEN[digits - 8]) return -1;
    // the trailing zeros dropped: 8 digits at a time, then one by one
    let tailDigits = 8;
    if (tail === 0) {
        tail = lead;
        lead = 0;
        digits -= 8;
        k -= 8;
        tailDigits = digits;
    }
    // tail < 10^9 here, so int32 division (a multiplication once compiled)
    let q = (tail / 10) | 0;
    while (q * 10 === tail) {
        tail = q;
        digits--;
        k--;
        tailDigits--;
        q = (tail / 10) | 0;
    }
    return writeDecimal(out, pos, negative, lead, tail, tailDigits, digits, k);
}

// The `count` digits of lead and then tail's `tailDigits` (zeros first where
// tail is shorter), divided by 10^k, a sign before them when negative. The
// digits are written one place right of where the whole part goes, which then
// moves left to make room for the point.
function writeDecimal(out, pos, negative, lead, tail, tailDigits, count, k) {
    if (negative) out[pos++] = 0x2d;
    const whole = count - k;
    let start = pos + 1;
    if (whole <= 0) {
        out[pos++] = 0x30;
        out[pos++] = 0x2e;
        for (let i = whole; i < 0; i++) out[pos++] = 0x30;
        start = pos;
    }
    const end = start + count;
    writeDigitsBefore(out, end, tail, tailDigits);
    if (count > tailDigits) writeDigitsBefore(out, end - tailDigits, lead, count - tailDigits);
    if (whole > 0) {
        for (let i = pos; i < pos + whole; i++) out[i] = out[i + 1];
        out[pos + whole] = 0x2e;
    }
    return end;
}

// the `count` low digits of n (0 <= n < 2^31, zeros first when short), ending before `end`
function writeDigitsBefore(out, end, n, count) {
    for (; count >= 2; count -= 2) {
        const q = (n / 100) | 0;
        const r = (n - q * 100) << 1;
        out[--end] = DIGIT_PAIRS[r + 1];
        out[--end] = DIGIT_PAIRS[r];
        n = q;
    }
    if (count === 1) out[--end] = 0x30 + (n % 10);
}

module.exports = { writeDoubleText };
