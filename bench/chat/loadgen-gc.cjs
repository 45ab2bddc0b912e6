// Preloaded into the peers' load generator (`node -r bench/chat/loadgen-gc.cjs load.mjs …`, chat.bench.ts
// --loadgen-gc): its garbage collections, so a stall of the client's own event loop can be told apart from a
// server's. At exit, one stderr line: `[loadgen-gc] [[at (epoch ms), ms, kind], …]`, every collection; chat.bench.ts
// keeps those of the measured window.
// Nothing of load.mjs changes; the observer costs a callback per collection.
'use strict';
const { PerformanceObserver, constants, performance } = require('node:perf_hooks');

const kinds = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const all = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    all.push([
      Math.round(performance.timeOrigin + e.startTime),
      Math.round(e.duration * 10) / 10,
      kinds[e.detail?.kind] ?? String(e.detail?.kind),
    ]);
}).observe({ entryTypes: ['gc'] });

process.on('exit', () => process.stderr.write(`[loadgen-gc] ${JSON.stringify(all)}\n`));
