/**
 * Sums a V8 CPU profile (`.cpuprofile`, e.g. from `write-cost.ts --cpu-prof FILE` or `node
 * --cpu-prof`) by self time: per module (our files by path, packages by name, Node's internals,
 * native calls and the garbage collector apart) and per function.
 *
 *   npx tsx scripts/bench/profile-summary.ts FILE [--top 25]
 *
 * A native call (a better-sqlite3 statement's `run`, a hash) has no file of its own: its time is
 * counted under "(native)" with its function name, and it shows under the caller's module in the
 * "called from" column of the function table.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });
if (positionals.length === 0) throw new Error('usage: profile-summary.ts FILE [--top N]');
const top = Number(values.top);

/** Where a frame's code lives, short: `server/services/comments/comment-ratings.ts`, `fastify`, `node:internal`. */
export function moduleOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const inPackages = url.lastIndexOf('/node_modules/');
  if (inPackages !== -1) {
    const rest = url.slice(inPackages + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const ours = /\/(server|db|shared|scripts)\/.*$/.exec(url);
  return ours ? ours[0].slice(1) : url;
}

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile | { profiles: Profile[] };
  // write-cost.ts writes one profile per case; take each in turn.
  const list = 'profiles' in profile ? profile.profiles : Array.isArray(profile) ? (profile as Profile[]) : [profile];
  for (const [index, p] of list.entries()) {
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const self = new Map<number, number>();
    let total = 0;
    for (let i = 0; i < p.samples.length; i++) {
      const dt = p.timeDeltas[i] ?? 0;
      self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + dt);
      total += dt;
    }
    const idle = [...self].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((s, [, t]) => s + t, 0);
    const busy = total - idle;
    const modules = new Map<string, number>();
    const functions = new Map<string, { time: number; caller: Map<string, number> }>();
    for (const [id, time] of self) {
      const node = byId.get(id)!;
      if (node.callFrame.functionName === '(idle)') continue;
      const mod = moduleOf(node.callFrame);
      modules.set(mod, (modules.get(mod) ?? 0) + time);
      const key = `${node.callFrame.functionName || '(anonymous)'}  ${mod}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''}`;
      const entry = functions.get(key) ?? { time: 0, caller: new Map<string, number>() };
      entry.time += time;
      // For native and Node-internal frames, the first caller of ours or of a package says who asked.
      let up = parent.get(id);
      while (up !== undefined && ['(native)', 'node:internal'].includes(moduleOf(byId.get(up)!.callFrame))) up = parent.get(up);
      const callerName = up === undefined ? '' : `${byId.get(up)!.callFrame.functionName || '(anonymous)'} ${moduleOf(byId.get(up)!.callFrame)}`;
      entry.caller.set(callerName, (entry.caller.get(callerName) ?? 0) + time);
      functions.set(key, entry);
    }
    const pct = (t: number) => `${((100 * t) / busy).toFixed(1)}%`;
    console.log(`\n## ${file}${list.length > 1 ? ` #${index + 1}` : ''}: ${(busy / 1000).toFixed(0)} ms busy of ${(total / 1000).toFixed(0)} ms`);
    console.log('\n| module | self | share |\n|---|---|---|');
    for (const [mod, time] of [...modules].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| ${mod} | ${(time / 1000).toFixed(1)} ms | ${pct(time)} |`);
    console.log('\n| function | self | share | mostly called from |\n|---|---|---|---|');
    for (const [name, { time, caller }] of [...functions].sort((a, b) => b[1].time - a[1].time).slice(0, top)) {
      const from = [...caller].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
      console.log(`| ${name} | ${(time / 1000).toFixed(1)} ms | ${pct(time)} | ${from} |`);
    }
  }
}
