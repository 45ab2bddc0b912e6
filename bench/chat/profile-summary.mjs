// Where a chat replica's (or the gateway's) CPU went during a measured window, from a `node --cpu-prof` profile
// (chat.bench.ts --cpu-prof DIR):
//   node bench/chat/profile-summary.mjs FILE.cpuprofile [--from EPOCH_MS --to EPOCH_MS] [--top 25] [--stalls MS]
// The window is placed with the profile file's mtime (= the profile's end). Prints self time by package/file
// group and the top functions by self time, in ms and % of the window's non-idle samples. With --stalls, also
// every stretch of the window in which the main thread never went idle for MS ms or more (a stall of the event
// loop), with the work it did: the outermost frame of our own code (services/, libs/) on each sample's stack, and
// the functions' self time.
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: a, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    top: { type: 'string', default: '25' },
    stalls: { type: 'string' },
  },
});
const file = positionals[0];
const prof = JSON.parse(readFileSync(file, 'utf8'));
const endEpoch = statSync(file).mtimeMs;
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const toEpoch = (t) => endEpoch - (prof.endTime - t) / 1000;
const from = a.from ? Number(a.from) : -Infinity;
const to = a.to ? Number(a.to) : Infinity;

function group(cf) {
  const url = cf.url || '';
  if (!url) return cf.functionName.startsWith('(') ? cf.functionName : '(native / V8 builtins)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const m = /\/(services|libs|gateway|launcher)\/(.*)$/.exec(url);
  return m ? `${m[1]}/${m[2]}` : url;
}

/** The window's samples in order: the node sampled, its epoch time and how long it stands for (ms). */
function* windowSamples() {
  let t = prof.startTime;
  for (let i = 0; i < prof.samples.length; i++) {
    t += prof.timeDeltas[i];
    const at = toEpoch(t);
    if (at >= from && at <= to) yield { id: prof.samples[i], at, dt: (prof.timeDeltas[i + 1] ?? 0) / 1000 };
  }
}

const selfByNode = new Map();
let total = 0;
for (const { id, dt } of windowSamples()) selfByNode.set(id, (selfByNode.get(id) ?? 0) + dt);
const groups = new Map();
const fns = new Map();
for (const [id, ms] of selfByNode) {
  const cf = byId.get(id).callFrame;
  if (cf.functionName === '(idle)') continue;
  total += ms;
  const g = group(cf);
  groups.set(g, (groups.get(g) ?? 0) + ms);
  const k = `${cf.functionName || '(anonymous)'}  ${g}:${cf.lineNumber + 1}`;
  fns.set(k, (fns.get(k) ?? 0) + ms);
}
const top = Number(a.top);
const fmt = (entries) =>
  entries
    .sort((x, y) => y[1] - x[1])
    .slice(0, top)
    .map(([k, ms]) => `| ${k} | ${ms.toFixed(0)} | ${((100 * ms) / total).toFixed(1)} % |`)
    .join('\n');
console.log(`${file}: ${total.toFixed(0)} ms of non-idle samples in the window\n`);
console.log('| group (self time) | ms | share |\n|---|---|---|');
console.log(fmt([...groups]));
console.log('\n| function (self time) | ms | share |\n|---|---|---|');
console.log(fmt([...fns]));

if (a.stalls) {
  const min = Number(a.stalls);
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  /** The outermost frame of our own code on a sample's stack (what the loop was running), else the outermost JS frame. */
  const task = (id) => {
    let ours;
    let outer;
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const cf = byId.get(n).callFrame;
      if (cf.functionName === '(root)') break;
      const g = group(cf);
      if (/^(services|libs)\//.test(g))
        ours = `${cf.functionName || '(anonymous)'}  ${g}:${cf.lineNumber + 1}`;
      if (cf.url) outer = `${cf.functionName || '(anonymous)'}  ${g}:${cf.lineNumber + 1}`;
    }
    return ours ?? outer ?? byId.get(id).callFrame.functionName;
  };
  const stalls = [];
  let run = null;
  for (const { id, at: e, dt } of windowSamples()) {
    const idle = byId.get(id).callFrame.functionName === '(idle)';
    if (idle) {
      if (run && run.ms >= min) stalls.push(run);
      run = null;
      continue;
    }
    run ??= { at: e, ms: 0, tasks: new Map(), self: new Map() };
    run.ms += dt;
    const k = task(id);
    run.tasks.set(k, (run.tasks.get(k) ?? 0) + dt);
    const cf = byId.get(id).callFrame;
    const f = `${cf.functionName || '(anonymous)'}  ${group(cf)}:${cf.lineNumber + 1}`;
    run.self.set(f, (run.self.get(f) ?? 0) + dt);
  }
  if (run && run.ms >= min) stalls.push(run);
  const start = Number.isFinite(from) ? from : toEpoch(prof.startTime);
  console.log(`\n${stalls.length} stretches of ${min} ms or more without going idle`);
  const list = (m) =>
    [...m]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 6)
      .map(([k, ms]) => `${k} ${ms.toFixed(1)}`)
      .join('; ');
  for (const s of stalls.sort((x, y) => y.ms - x.ms).slice(0, top)) {
    console.log(`\n- at +${((s.at - start) / 1000).toFixed(2)} s, ${s.ms.toFixed(1)} ms`);
    console.log(`  running: ${list(s.tasks)}`);
    console.log(`  self: ${list(s.self)}`);
  }
}
