'use strict';

// Compares two declaration files export by export and member by member through
// the TypeScript compiler API (the driver's TypeScript, 5.8): every export's kind,
// generic parameters and @deprecated tag, and every member's type, optionality,
// readonly-ness and @deprecated tag. Used by test/declarations.test.js to hold
// index.d.ts to bson's bson.d.ts.
//
//   node test/support/declaration-diff.js [bson.d.ts] [index.d.ts]   prints the differences

const path = require('path');

const ROOT = path.join(__dirname, '..', '..');
const ts = require(path.join(ROOT, 'node_modules', 'typescript-5.8'));

const TYPE_FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.WriteArrowStyleSignature;

function isDeprecated(symbol) {
    return (symbol.declarations || []).some((decl) => ts.getJSDocDeprecatedTag(decl) !== undefined);
}

function isReadonly(symbol) {
    const decls = symbol.declarations || [];
    if (decls.some((d) => ts.isSetAccessorDeclaration(d))) return false;
    if (decls.some((d) => ts.isGetAccessorDeclaration(d))) return true;
    return decls.some((d) => (ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Readonly) !== 0 ||
        (ts.isVariableDeclaration(d) && (ts.getCombinedNodeFlags(d) & ts.NodeFlags.Const) !== 0));
}

function kindsOf(symbol) {
    const f = symbol.flags;
    const kinds = [];
    if (f & ts.SymbolFlags.Class) kinds.push('class');
    if (f & ts.SymbolFlags.Interface) kinds.push('interface');
    if (f & ts.SymbolFlags.TypeAlias) kinds.push('type');
    if (f & ts.SymbolFlags.Function) kinds.push('function');
    if (f & ts.SymbolFlags.Variable) kinds.push('variable');
    if (f & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule)) kinds.push('namespace');
    if (f & ts.SymbolFlags.Enum) kinds.push('enum');
    return kinds.join('+');
}

function typeParams(checker, symbol) {
    const decl = (symbol.declarations || []).find((d) => d.typeParameters);
    if (!decl) return '';
    return '<' + decl.typeParameters.map((p) => p.getText()).join(', ') + '>';
}

// A type's text with the members of every top-level union sorted: the compiler
// prints a union in the order its members were first created, which differs
// between two files that declare the same union.
function typeText(checker, type, flags = TYPE_FLAGS, expandAlias = false) {
    if (type.isUnion() && !(type.flags & ts.TypeFlags.Boolean) && (expandAlias || !type.aliasSymbol)) {
        return type.types.map((t) => typeText(checker, t, flags)).sort().join(' | ');
    }
    return checker.typeToString(type, undefined, flags);
}

function signatureText(checker, sig) {
    const typeParams = sig.typeParameters ? '<' + sig.typeParameters.map((t) => checker.typeToString(t)).join(', ') + '>' : '';
    const params = sig.parameters.map((p) => {
        const decl = p.valueDeclaration;
        const rest = decl && decl.dotDotDotToken ? '...' : '';
        const optional = decl && (decl.questionToken || decl.initializer) ? '?' : '';
        return `${rest}${p.getName()}${optional}: ${typeText(checker, checker.getTypeOfSymbol(p))}`;
    });
    const thisType = sig.thisParameter ? [`this: ${typeText(checker, checker.getTypeOfSymbol(sig.thisParameter))}`] : [];
    return `${typeParams}(${thisType.concat(params).join(', ')}) => ${typeText(checker, sig.getReturnType())}`;
}

function signatures(checker, sigs) {
    return sigs.map((s) => signatureText(checker, s)).join(' & ');
}

// One facet per member: "type | optional | readonly | deprecated"
function memberFacet(checker, member) {
    const decl = (member.declarations || [])[0];
    const type = decl ? checker.getTypeOfSymbolAtLocation(member, decl) : checker.getTypeOfSymbol(member);
    const isMethod = member.flags & ts.SymbolFlags.Method;
    const text = isMethod ? 'method ' + signatures(checker, type.getCallSignatures()) : typeText(checker, type);
    const flags = [];
    if (member.flags & ts.SymbolFlags.Optional) flags.push('optional');
    if (!isMethod && isReadonly(member)) flags.push('readonly');
    if (isDeprecated(member)) flags.push('@deprecated');
    return flags.length ? `${text} [${flags.join(', ')}]` : text;
}

function memberName(checker, member) {
    const name = member.getName();
    if (name.startsWith('__@')) {
        // a symbol-keyed member: __@bsonType@123 -> [bsonType]
        return '[' + name.slice(3).replace(/@\d+$/, '') + ']';
    }
    return name;
}

function addMembers(checker, facets, prefix, type, skip = new Set()) {
    for (const member of checker.getPropertiesOfType(type)) {
        const name = memberName(checker, member);
        if (skip.has(name)) continue;
        facets.set(`${prefix}.${name}`, memberFacet(checker, member));
    }
    const calls = type.getCallSignatures();
    if (calls.length) facets.set(`${prefix}()`, signatures(checker, calls));
    for (const info of checker.getIndexInfosOfType(type)) {
        const key = checker.typeToString(info.keyType);
        facets.set(`${prefix}[${key}]`, typeText(checker, info.type) + (info.isReadonly ? ' [readonly]' : ''));
    }
}

// Every facet of one export, keyed "Name", "Name.member", "Name.prototype.member", ...
function describeExport(checker, name, exported) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const facets = new Map();
    const deprecated = isDeprecated(symbol) ? ' @deprecated' : '';
    facets.set(name, kindsOf(symbol) + typeParams(checker, symbol) + deprecated);
    const f = symbol.flags;
    if (f & ts.SymbolFlags.Class) {
        const instance = checker.getDeclaredTypeOfSymbol(symbol);
        addMembers(checker, facets, `${name}.prototype`, instance);
        const statics = checker.getTypeOfSymbol(symbol);
        addMembers(checker, facets, name, statics, new Set(['prototype']));
        const ctors = statics.getConstructSignatures();
        facets.set(`new ${name}()`, signatures(checker, ctors));
        const bases = instance.getBaseTypes ? (checker.getBaseTypes(instance) || []) : [];
        facets.set(`${name} extends`, bases.map((b) => checker.typeToString(b)).join(', '));
    } else if (f & ts.SymbolFlags.Interface) {
        const type = checker.getDeclaredTypeOfSymbol(symbol);
        addMembers(checker, facets, name, type);
        const ctors = type.getConstructSignatures();
        if (ctors.length) facets.set(`new ${name}()`, signatures(checker, ctors));
    } else if (f & ts.SymbolFlags.TypeAlias) {
        const decl = symbol.declarations.find(ts.isTypeAliasDeclaration);
        facets.set(`${name} =`, typeText(checker, checker.getTypeFromTypeNode(decl.type), TYPE_FLAGS | ts.TypeFormatFlags.InTypeAlias, true));
        const type = checker.getDeclaredTypeOfSymbol(symbol);
        if (type.flags & ts.TypeFlags.Object) addMembers(checker, facets, name, type);
    }
    if (f & ts.SymbolFlags.Function) {
        facets.set(`${name}()`, signatures(checker, checker.getTypeOfSymbol(symbol).getCallSignatures()));
    }
    if (f & ts.SymbolFlags.Variable) {
        const type = checker.getTypeOfSymbol(symbol);
        facets.set(`${name}:`, (type.flags & ts.TypeFlags.Object ? 'object' : typeText(checker, type)) + (isReadonly(symbol) ? ' [const]' : ''));
        if (type.flags & ts.TypeFlags.Object) addMembers(checker, facets, name, type);
    }
    if (f & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule) && !(f & ts.SymbolFlags.Class)) {
        for (const inner of checker.getExportsOfModule(symbol)) facets.set(`${name}.${inner.getName()}`, 'export');
    }
    return facets;
}

function exportsOf(checker, sourceFile) {
    const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
    const out = new Map();
    for (const sym of checker.getExportsOfModule(moduleSymbol)) out.set(sym.getName(), sym);
    return out;
}

// The facets of every export of `file` named in `names` (all its exports when names is null).
function compilerOptions({ nodeTypes = true } = {}) {
    return {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: nodeTypes ? ['node'] : [],
        typeRoots: [path.join(ROOT, 'node_modules', '@types')],
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    };
}

function describeFile(file, opts) {
    const program = ts.createProgram([file], compilerOptions(opts));
    const checker = program.getTypeChecker();
    const exports = exportsOf(checker, program.getSourceFile(file));
    const described = new Map();
    for (const [name, sym] of exports) described.set(name, describeExport(checker, name, sym));
    return described;
}

// The differences of `ours` from `theirs` on theirs' exports: [{ key, theirs, ours }],
// ours undefined where it lacks the facet, theirs undefined for a member only ours has.
function compare(theirsFile, oursFile, opts) {
    const theirs = describeFile(theirsFile, opts);
    const ours = describeFile(oursFile, opts);
    const diffs = [];
    for (const [name, facets] of theirs) {
        const mine = ours.get(name) || new Map();
        for (const [key, value] of facets) {
            if (mine.get(key) !== value) diffs.push({ key, theirs: value, ours: mine.get(key) });
        }
        for (const [key, value] of mine) {
            if (!facets.has(key)) diffs.push({ key, theirs: undefined, ours: value, ourKind: mine.get(name) });
        }
    }
    return diffs;
}

// Whether each difference is one that every program compiling with theirs still
// compiles with: a member only ours has, on a class; or ours assignable where
// theirs is used (a parameter wider, a result narrower), and for a writable
// property theirs assignable back. Checked by compiling one line per difference
// with both files imported: returns Map key -> '' (compatible) or the compiler's
// complaint.
function compatibility(theirsFile, oursFile, diffs, opts = {}) {
    const lines = [];
    const keys = [];
    const spec = (file) => JSON.stringify(file.replace(/\.d\.ts$/, ''));
    lines.push(`import * as T from ${spec(theirsFile)};`, `import * as O from ${spec(oursFile)};`, 'declare function any<X>(): X;');
    const verdict = new Map();
    for (const d of diffs) {
        let m;
        if (d.ours === undefined) {
            verdict.set(d.key, 'missing from ours');
            continue;
        }
        if (d.theirs === undefined) {
            const owner = d.key.split('.')[0].replace(/^new /, '').replace(/\(\)$/, '');
            verdict.set(d.key, d.ourKind && d.ourKind.startsWith('class') ? '' : `a member only ours has, on ${d.ourKind || 'a non-class'} ${owner}`);
            continue;
        }
        const flags = (text) => (/ \[([^\]]*)\]$/.exec(text) || [])[1] || '';
        if (flags(d.theirs) !== flags(d.ours)) {
            verdict.set(d.key, `optional, readonly or @deprecated differ: [${flags(d.theirs)}] against [${flags(d.ours)}]`);
            continue;
        }
        const writable = !/\[.*readonly/.test(d.theirs) && !d.theirs.startsWith('method');
        if ((m = /^new (\w+)\(\)$/.exec(d.key))) {
            lines.push(`const c${keys.length}: new (...args: ConstructorParameters<typeof T.${m[1]}>) => T.${m[1]} = O.${m[1]};`);
        } else if ((m = /^(\w+)\.prototype\.(\w+)$/.exec(d.key))) {
            // a method is compared as a function type, whose parameters are checked
            // strictly (a method's are bivariant)
            const target = d.theirs.startsWith('method')
                ? `(...args: Parameters<T.${m[1]}['${m[2]}']>) => ReturnType<T.${m[1]}['${m[2]}']>` : `T.${m[1]}['${m[2]}']`;
            lines.push(`const p${keys.length}: ${target} = any<O.${m[1]}>()['${m[2]}'];` +
                (writable ? ` any<O.${m[1]}>()['${m[2]}'] = any<T.${m[1]}['${m[2]}']>();` : ''));
        } else if ((m = /^(\w+)\.(\w+)$/.exec(d.key))) {
            lines.push(`const s${keys.length}: (typeof T.${m[1]})['${m[2]}'] = O.${m[1]}.${m[2]};`);
        } else if ((m = /^(\w+)\(\)$/.exec(d.key))) {
            lines.push(`const f${keys.length}: typeof T.${m[1]} = O.${m[1]};`);
        } else if ((m = /^(\w+) =$/.exec(d.key))) {
            lines.push(`const a${keys.length}: T.${m[1]} = any<O.${m[1]}>(); const b${keys.length}: O.${m[1]} = any<T.${m[1]}>();`);
        } else {
            verdict.set(d.key, 'no rule to check this kind of difference');
            continue;
        }
        keys.push({ key: d.key, line: lines.length - 1 });
        verdict.set(d.key, '');
    }
    const fs = require('fs');
    const os = require('os');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-compat-'));
    try {
        const file = path.join(dir, 'compat.ts');
        fs.writeFileSync(file, lines.join('\n') + '\n');
        const program = ts.createProgram([file], { ...compilerOptions(opts), noUnusedLocals: false });
        for (const diag of ts.getPreEmitDiagnostics(program)) {
            if (!diag.file || diag.file.fileName !== file.split(path.sep).join('/') && diag.file.fileName !== file) continue;
            const line = diag.file.getLineAndCharacterOfPosition(diag.start).line;
            const entry = keys.find((k) => k.line === line);
            if (entry) verdict.set(entry.key, ts.flattenDiagnosticMessageText(diag.messageText, ' ').slice(0, 300));
        }
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
    return verdict;
}

module.exports = { compare, compatibility, describeFile };

if (require.main === module) {
    const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
    const theirs = path.resolve(files[0] || path.join(ROOT, 'node_modules', 'bson', 'bson.d.ts'));
    const ours = path.resolve(files[1] || path.join(ROOT, 'index.d.ts'));
    const opts = { nodeTypes: !process.argv.includes('--no-node') };
    const diffs = compare(theirs, ours, opts);
    const verdict = compatibility(theirs, ours, diffs, opts);
    for (const d of diffs) {
        console.log(`${d.key}  [${verdict.get(d.key) || 'compatible'}]\n    bson:  ${d.theirs === undefined ? '(none)' : d.theirs}\n    qbson: ${d.ours === undefined ? '(none)' : d.ours}`);
    }
    console.log(`${diffs.length} differences`);
}
