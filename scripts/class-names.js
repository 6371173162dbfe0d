'use strict';

// The names keepNames keeps in esbuild's output, at no cost when the code runs: each class
// gets its own name as it is created, in place of keepNames' `__name(...)` call that sets it
// afterwards, and the calls that set a name a function already has are dropped.
//
// Why: keepNames restores the names esbuild's renaming changes (`class _ObjectId`,
// `BSONError2`) with Object.defineProperty(cls, 'name', ...). V8 then runs a `new` of
// a class that extends another, once its name was redefined, without optimizing it:
// in Node 20 each compile of the caller is aborted ("dependency change"). A full_bson
// decode through dist/node took 15-37 µs with it, against 9.5 µs from lib/ (its Code,
// MinKey, MaxKey and Timestamp values); a million such `new`s took 55 ms against 1.6
// in Node 20, and 14.3 ms against 4.6 in Chromium 150.
//
// The two forms esbuild writes, and what they become:
//   var Code = class _Code extends B { static { __name(this, "Code"); } ... }   (node18)
//   var _Code = class _Code extends B { ... }; __name(_Code, "Code");          (es2020)
// ->
//   var Code = class Code extends B { ... }
//   var _Code = class Code extends B { ... };
// The class's own binding (`_Code`) is renamed inside its body; an anonymous class gets
// the name. Any name the class's body already refers to stops the build, as would a
// `__name` of a class left behind: the rename must not capture another binding.

const path = require('path');

const ts = require(path.join(__dirname, '..', 'node_modules', 'typescript-5.8'));

// `__name(target, "name")` as a call: { target node, name } or null
function nameCall(node) {
    if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== '__name') return null;
    const [target, name] = node.arguments;
    return node.arguments.length === 2 && ts.isStringLiteral(name) ? { target, name: name.text } : null;
}

// the identifiers of node's subtree that name a binding (not a property's name)
function referencesIn(node, out = []) {
    const visit = (n) => {
        if (ts.isIdentifier(n)) {
            const p = n.parent;
            const isPropertyName = (ts.isPropertyAccessExpression(p) && p.name === n) ||
                ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p) ||
                  ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p)) && p.name === n);
            if (ts.isShorthandPropertyAssignment(p)) out.push({ node: n, shorthand: true });
            else if (!isPropertyName) out.push({ node: n, shorthand: false });
        }
        ts.forEachChild(n, visit);
    };
    ts.forEachChild(node, visit);
    return out;
}

// the class expression a variable of this name is initialized with, in the same statement list
function classOfVariable(statements, name) {
    for (const st of statements) {
        if (!ts.isVariableStatement(st)) continue;
        for (const decl of st.declarationList.declarations) {
            if (ts.isIdentifier(decl.name) && decl.name.text === name && decl.initializer && ts.isClassExpression(decl.initializer)) {
                return decl.initializer;
            }
        }
    }
    return null;
}

// every class-naming call: [{ cls, name, remove: node whose text goes }]
function findNamings(sourceFile) {
    const found = [];
    const visit = (node) => {
        if (ts.isExpressionStatement(node)) {
            const call = nameCall(node.expression);
            if (call !== null && call.target.kind === ts.SyntaxKind.ThisKeyword) {
                const block = node.parent.parent;   // statement -> block -> static block
                if (ts.isClassStaticBlockDeclaration(block) && block.body.statements.length === 1) {
                    found.push({ cls: block.parent, name: call.name, remove: block });
                } else {
                    throw new Error(`__name(this, "${call.name}") outside a static block of its own`);
                }
            } else if (call !== null && ts.isClassExpression(call.target)) {
                throw new Error(`__name of a class expression ("${call.name}"), a form this script does not know`);
            } else if (call !== null && ts.isIdentifier(call.target)) {
                const cls = classOfVariable(node.parent.statements || [], call.target.text);
                if (cls !== null) found.push({ cls, name: call.name, remove: node });
            }
        }
        ts.forEachChild(node, visit);
    };
    visit(sourceFile);
    return found;
}

// source with every class named at creation; throws where that would change what a name means
function nameClasses(source, file) {
    const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const edits = [];
    for (const { cls, name, remove } of findNamings(sourceFile)) {
        const own = cls.name ? cls.name.text : null;
        for (const ref of referencesIn(cls)) {
            if (ref.node.text === name && ref.node !== cls.name) {
                throw new Error(`${file}: class ${own || name} refers to another binding named ${name}`);
            }
            if (ref.node.text === own && ref.shorthand) throw new Error(`${file}: class ${own} is a shorthand property`);
            if (own !== null && ref.node.text === own) edits.push({ start: ref.node.getStart(), end: ref.node.end, text: name });
        }
        if (own === null) {
            const at = cls.getStart() + 'class'.length;
            if (source.slice(cls.getStart(), at) !== 'class') throw new Error(`${file}: unexpected class text for ${name}`);
            edits.push({ start: at, end: at, text: ' ' + name });
        }
        edits.push({ start: remove.getFullStart(), end: remove.end, text: '' });
    }
    edits.sort((a, b) => b.start - a.start);
    let out = source;
    for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    const left = classesNamedLate(out, file);
    if (left.length !== 0) throw new Error(`${file}: the names of ${left.join(', ')} are still set after creation`);
    return { source: out, named: edits.filter((e) => e.text === '').length };
}

// keepNames also writes `__name(f, "f");` after every function, a call at load that sets the
// name f already has: those lines go (670 of the browser bundle's 790 calls; importing it in
// Node took 27-30 ms without them against 32-35 ms with them, medians of 9).
function dropSameNames(source) {
    return source.split('\n').filter((line) => !/^\s*__name\((\w+), "\1"\);$/.test(line)).join('\n');
}

// the classes of a built file whose name is set after they are created (none, once nameClasses ran)
function classesNamedLate(source, file) {
    return findNamings(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS)).map((f) => f.name);
}

module.exports = { nameClasses, dropSameNames, classesNamedLate };
