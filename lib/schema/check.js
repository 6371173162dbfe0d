'use strict';

// The interpreter: a value checked against a node of the schema tree
// (lib/schema/keywords.js). With `out` an array, every problem found is pushed
// onto it as { path, rule, message, schemaPath }; with `out` null the check stops
// at the first and only answers whether the value conforms (anyOf, oneOf and not
// ask their sub-schemas that way). The generated checks (lib/schema/generate.js)
// give the same answers; where code cannot be generated this is what runs.
//
// Each keyword applies to values of its own type only, as in the server: minLength
// passes a number, minimum passes a string, properties passes an array.

const { bsonTypeOf, entriesOf, stored, NUMBER_TYPES, numeric, compareNumbers, isMultipleOf, codePoints, bsonEqual, show } = require('./values');

// how validate() sees a document's fields: undefined, functions and symbols left
// out, as encode leaves them out by default
const DEFAULT_CONTEXT = Object.freeze({ undefinedAsNull: false, serializeFunctions: false });

function joinPath(path, key) {
    return path === '' ? key : `${path}.${key}`;
}

function spec(value) {
    if (Array.isArray(value)) return `[${value.map(spec).join(', ')}]`;
    if (typeof value === 'string') return `'${value}'`;
    return String(value);
}

function where(path) {
    return path === '' ? 'the document' : `'${path}'`;
}

function problem(out, path, rule, schemaPath, text) {
    out.push({ path, rule, message: `${where(path)}: ${text}`, schemaPath });
    return false;
}

function considered(value, type) {
    return `considered value ${show(value, type)} of type ${type}`;
}

// value: as stored (toBSON applied); type: its bsonTypeOf
function check(node, value, type, path, out, ctx) {
    if (node.types !== null && !node.types.has(type)) {
        if (out === null) return false;
        return problem(out, path, node.typeKeyword, node.schemaPath,
            `type did not match (${node.typeKeyword}: ${spec(node.typeNames.length === 1 ? node.typeNames[0] : node.typeNames)}; ${considered(value, type)})`);
    }
    let ok = true;
    if (node.enum !== null && !inEnum(node.enum, value)) {
        if (out === null) return false;
        ok = problem(out, path, 'enum', node.schemaPath, `value was not found in enum (${considered(value, type)})`);
    }
    if (node.numberKeywords && NUMBER_TYPES.has(type)) ok = checkNumber(node, value, type, path, out) && ok;
    else if (node.stringKeywords && type === 'string') ok = checkString(node, value, path, out) && ok;
    else if (node.objectKeywords && type === 'object') ok = checkObject(node, value, path, out, ctx) && ok;
    else if (node.arrayKeywords && type === 'array') ok = checkArray(node, value, path, out, ctx) && ok;
    if (!ok && out === null) return false;
    return checkLogical(node, value, type, path, out, ctx) && ok;
}

function inEnum(list, value) {
    for (let i = 0; i < list.length; i++) if (bsonEqual(value, list[i])) return true;
    return false;
}

function checkNumber(node, value, type, path, out) {
    let ok = true;
    const n = numeric(value, type);
    if (node.multipleOf !== null && !isMultipleOf(value, type, node.multipleOf)) {
        if (out === null) return false;
        ok = problem(out, path, 'multipleOf', node.schemaPath,
            `considered value is not a multiple of the specified value (multipleOf: ${node.multipleOfValue}; ${considered(value, type)})`);
    }
    if (node.maximum !== null) {
        const c = compareNumbers(n, node.maximum);
        if (c > 0 || (c === 0 && node.exclusiveMaximum)) {
            if (out === null) return false;
            ok = problem(out, path, 'maximum', node.schemaPath,
                `comparison failed (maximum: ${node.maximum}${node.exclusiveMaximum ? ', exclusiveMaximum: true' : ''}; ${considered(value, type)})`);
        }
    }
    if (node.minimum !== null) {
        const c = compareNumbers(n, node.minimum);
        if (c < 0 || (c === 0 && node.exclusiveMinimum)) {
            if (out === null) return false;
            ok = problem(out, path, 'minimum', node.schemaPath,
                `comparison failed (minimum: ${node.minimum}${node.exclusiveMinimum ? ', exclusiveMinimum: true' : ''}; ${considered(value, type)})`);
        }
    }
    return ok;
}

function checkString(node, str, path, out) {
    let ok = true;
    if (node.maxLength !== null || node.minLength !== null) {
        const length = codePoints(str);
        if (node.maxLength !== null && length > node.maxLength) {
            if (out === null) return false;
            ok = problem(out, path, 'maxLength', node.schemaPath,
                `specified string length was not satisfied (maxLength: ${node.maxLength}; considered string of ${length} characters)`);
        }
        if (node.minLength !== null && length < node.minLength) {
            if (out === null) return false;
            ok = problem(out, path, 'minLength', node.schemaPath,
                `specified string length was not satisfied (minLength: ${node.minLength}; considered string of ${length} characters)`);
        }
    }
    if (node.pattern !== null) {
        node.pattern.re.lastIndex = 0;
        if (!node.pattern.re.test(str)) {
            if (out === null) return false;
            ok = problem(out, path, 'pattern', node.schemaPath,
                `regular expression did not match (pattern: ${JSON.stringify(node.pattern.source)}; ${considered(str, 'string')})`);
        }
    }
    return ok;
}

function checkObject(node, doc, path, out, ctx) {
    const entries = entriesOf(doc, ctx);
    const fields = new Map(entries);
    let ok = true;
    if (node.required !== null) {
        for (const name of node.required) {
            if (!fields.has(name)) {
                if (out === null) return false;
                ok = problem(out, joinPath(path, name), 'required', node.schemaPath,
                    `missing required property (required: ${spec(node.required)})`);
            }
        }
    }
    if (node.properties !== null && out === null && entries.length < node.properties.length) {
        // field by field where the schema names more properties than the document has:
        // id_keyed_maps' schema names 4,001, its documents hold 21 each, and codec.encode
        // wrote 55 passes a second looking each name up, against 1,886 for encode alone
        for (const [name, v] of entries) {
            const sub = node.propertyNodes.get(name);
            if (sub !== undefined && !check(sub, v, bsonTypeOf(v, ctx), joinPath(path, name), null, ctx)) return false;
        }
    } else if (node.properties !== null) {
        for (const { name, node: sub } of node.properties) {
            if (!fields.has(name)) continue;
            const v = fields.get(name);
            if (!check(sub, v, bsonTypeOf(v, ctx), joinPath(path, name), out, ctx)) {
                if (out === null) return false;
                ok = false;
            }
        }
    }
    if (node.patternProperties !== null || node.additionalProperties !== null) {
        if (!checkAllowedProperties(node, entries, path, out, ctx)) {
            if (out === null) return false;
            ok = false;
        }
    }
    if (node.minProperties !== null && entries.length < node.minProperties) {
        if (out === null) return false;
        ok = problem(out, path, 'minProperties', node.schemaPath,
            `specified number of properties was not satisfied (minProperties: ${node.minProperties}; considered ${entries.length})`);
    }
    if (node.maxProperties !== null && entries.length > node.maxProperties) {
        if (out === null) return false;
        ok = problem(out, path, 'maxProperties', node.schemaPath,
            `specified number of properties was not satisfied (maxProperties: ${node.maxProperties}; considered ${entries.length})`);
    }
    if (node.dependencies !== null && !checkDependencies(node, doc, fields, path, out, ctx)) {
        if (out === null) return false;
        ok = false;
    }
    return ok;
}

// patternProperties and additionalProperties: each field not named by properties
// is checked against every pattern it matches, and against additionalProperties
// when it matches none
function checkAllowedProperties(node, entries, path, out, ctx) {
    let ok = true;
    const named = node.propertyNodes;
    for (const [key, v] of entries) {
        let matched = named !== null && named.has(key);
        const type = bsonTypeOf(v, ctx);
        if (node.patternProperties !== null) {
            for (const p of node.patternProperties) {
                p.re.lastIndex = 0;
                if (!p.re.test(key)) continue;
                matched = true;
                if (!check(p.node, v, type, joinPath(path, key), out, ctx)) {
                    if (out === null) return false;
                    ok = false;
                }
            }
        }
        if (matched || node.additionalProperties === null) continue;
        if (node.additionalProperties === false) {
            if (out === null) return false;
            ok = problem(out, joinPath(path, key), 'additionalProperties', node.schemaPath, 'found an additional property (additionalProperties: false)');
        } else if (!check(node.additionalProperties, v, type, joinPath(path, key), out, ctx)) {
            if (out === null) return false;
            ok = false;
        }
    }
    return ok;
}

function checkDependencies(node, doc, fields, path, out, ctx) {
    let ok = true;
    for (const dep of node.dependencies) {
        if (!fields.has(dep.name)) continue;
        if (dep.names !== null) {
            for (const name of dep.names) {
                if (fields.has(name)) continue;
                if (out === null) return false;
                ok = problem(out, joinPath(path, name), 'dependencies', node.schemaPath,
                    `missing a property that '${dep.name}' depends on (dependencies: {'${dep.name}': ${spec(dep.names)}})`);
            }
        } else if (!check(dep.node, doc, 'object', path, out, ctx)) {
            if (out === null) return false;
            ok = false;
        }
    }
    return ok;
}

function checkArray(node, arr, path, out, ctx) {
    let ok = true;
    if (node.maxItems !== null && arr.length > node.maxItems) {
        if (out === null) return false;
        ok = problem(out, path, 'maxItems', node.schemaPath, `array did not match specified length (maxItems: ${node.maxItems}; considered ${arr.length} items)`);
    }
    if (node.minItems !== null && arr.length < node.minItems) {
        if (out === null) return false;
        ok = problem(out, path, 'minItems', node.schemaPath, `array did not match specified length (minItems: ${node.minItems}; considered ${arr.length} items)`);
    }
    const elementCtx = ctx.undefinedAsNull ? ctx : { undefinedAsNull: true, serializeFunctions: ctx.serializeFunctions };
    if (node.uniqueItems) {
        const dup = firstDuplicate(arr, elementCtx);
        if (dup >= 0) {
            if (out === null) return false;
            ok = problem(out, joinPath(path, String(dup)), 'uniqueItems', node.schemaPath, 'found a duplicate item (uniqueItems: true)');
        }
    }
    if (node.items !== null || node.itemsList !== null) {
        for (let i = 0; i < arr.length; i++) {
            const sub = node.items !== null ? node.items : i < node.itemsList.length ? node.itemsList[i] : node.additionalItems;
            if (sub === null) {
                if (node.items === null) break;
                continue;
            }
            const v = stored(arr[i]);
            const type = bsonTypeOf(v, elementCtx);
            if (type === null) continue;
            if (sub === false) {
                if (out === null) return false;
                ok = problem(out, joinPath(path, String(i)), 'additionalItems', node.schemaPath,
                    `found an additional item (additionalItems: false after ${node.itemsList.length} items)`);
                break;
            }
            if (!check(sub, v, type, joinPath(path, String(i)), out, ctx)) {
                if (out === null) return false;
                ok = false;
            }
        }
    }
    return ok;
}

// the index of the first element equal to an earlier one, or -1
function firstDuplicate(arr, ctx) {
    for (let i = 1; i < arr.length; i++) {
        const a = stored(arr[i]);
        if (bsonTypeOf(a, ctx) === null) continue;
        for (let j = 0; j < i; j++) {
            const b = stored(arr[j]);
            if (bsonTypeOf(b, ctx) !== null && bsonEqual(a, b, ctx)) return i;
        }
    }
    return -1;
}

function checkLogical(node, value, type, path, out, ctx) {
    let ok = true;
    if (node.allOf !== null) {
        for (const sub of node.allOf) {
            if (!check(sub, value, type, path, out, ctx)) {
                if (out === null) return false;
                ok = false;
            }
        }
    }
    if (node.anyOf !== null && !node.anyOf.some((sub) => check(sub, value, type, path, null, ctx))) {
        if (out === null) return false;
        ok = problem(out, path, 'anyOf', node.schemaPath, `none of the ${node.anyOf.length} schemas of anyOf matched`);
    }
    if (node.oneOf !== null) {
        let matches = 0;
        for (const sub of node.oneOf) if (check(sub, value, type, path, null, ctx)) matches++;
        if (matches !== 1) {
            if (out === null) return false;
            ok = problem(out, path, 'oneOf', node.schemaPath,
                matches === 0 ? `none of the ${node.oneOf.length} schemas of oneOf matched` : `${matches} of the schemas of oneOf matched, where exactly one must`);
        }
    }
    if (node.not !== null && check(node.not, value, type, path, null, ctx)) {
        if (out === null) return false;
        ok = problem(out, path, 'not', node.schemaPath, 'the schema of not matched');
    }
    return ok;
}

// every problem of a document, or [] when it conforms
function problemsOf(root, doc, ctx) {
    const out = [];
    const value = stored(doc);
    check(root, value, bsonTypeOf(value, ctx || DEFAULT_CONTEXT), '', out, ctx || DEFAULT_CONTEXT);
    return out;
}

module.exports = { check, problemsOf, DEFAULT_CONTEXT };
