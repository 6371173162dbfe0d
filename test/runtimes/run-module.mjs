// Runs the conformance bundle in the runtime that loads this file (Node, Bun,
// Deno) and prints its report as one line of JSON:
//   <runtime> test/runtimes/run-module.mjs BUNDLE QBSON_MODULE BSON_MODULE RUNS
// Paths are resolved by the caller; it uses no Node built-in, so Deno runs it
// with --no-npm and no access to node: modules needed.

const args = globalThis.Deno ? globalThis.Deno.args : globalThis.process.argv.slice(2);
const [bundle, qbsonModule, bsonModule, runs] = args;

function toURL(file) {
    return file.includes('://') ? file : new URL(`file://${file}`).href;
}

const { run } = await import(toURL(bundle));
const qbson = await import(toURL(qbsonModule));
const bson = await import(toURL(bsonModule));
const started = Date.now();
const report = run(qbson, bson, { runs: Number(runs) || undefined });
report.seconds = (Date.now() - started) / 1000;
console.log(JSON.stringify(report));
