// The runtime benchmark in the runtime that loads this file (Node, Bun, Deno;
// no Node built-in), printing its result as one line of JSON:
//   <runtime> benchmark/runtimes/run-module.mjs DATASETS QBSON_MODULE BSON_MODULE MODE [FILTER]

import { runBenchmark } from './core.mjs';

const args = globalThis.Deno ? globalThis.Deno.args : globalThis.process.argv.slice(2);
const [datasetsModule, qbsonModule, bsonModule, mode, filter] = args;
const toURL = (file) => (file.includes('://') ? file : new URL(`file://${file}`).href);

const datasets = (await import(toURL(datasetsModule))).default;
const qbson = await import(toURL(qbsonModule));
const bson = await import(toURL(bsonModule));
console.log(JSON.stringify(runBenchmark(qbson, bson, datasets, { mode, filter: filter ? filter.split(',') : [] })));
