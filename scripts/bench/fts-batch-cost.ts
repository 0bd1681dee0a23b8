/**
 * What the search indexing of a new comment costs by batch size (issue 32 item 3): posts comments
 * through the service on a copy of a bench data set, indexes the queue every K comments, and
 * prints the CPU µs per comment of indexQueuedComments (and of the posts) for each K.
 *
 *   npx tsx scripts/bench/fts-batch-cost.ts DIR [--sizes 10,50,250,1000] [--comments 1000]
 */
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeDb } from '../../db/client';
import { createComment } from '../../server/services/comments/comments';
import { indexQueuedComments } from '../../server/services/comments/comment-search';
import { benchActors, benchDeps, copyDataSet } from './in-process';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { sizes: { type: 'string', default: '10,50,250,1000' }, comments: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '2' } },
});
const source = positionals[0];
if (!source) throw new Error('usage: fts-batch-cost.ts DATA_DIR [--sizes 10,50,250,1000] [--comments N]');
const { dir, db } = copyDataSet(source, 'recensera-fts-cost-');
const deps = benchDeps(db, dir);
type Meta = { benchUsers: { id: string }[]; commentTargets: { businessId: string; locations: string[] }[] };
const meta = JSON.parse(readFileSync(path.join(source, 'bench-meta.json'), 'utf8')) as Meta;
const actors = benchActors(
  db,
  meta.benchUsers.map((u) => u.id),
);
let seed = 7;
const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
let serial = 0;
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
indexQueuedComments(db);
const n = Number(values.comments);
for (let round = 0; round < Number(values.rounds); round++) {
  for (const k of values.sizes.split(',').map(Number)) {
    let posting = 0;
    let indexing = 0;
    for (let i = 0; i < n; i++) {
      const t = pick(meta.commentTargets);
      const c0 = cpu();
      await createComment(deps, pick(actors), {
        businessId: t.businessId,
        text: `Bänktest ${process.pid}-${++serial}: personalen var trevlig och kön gick snabbt. Kommer gärna tillbaka.`,
        businessLocation: pick(t.locations),
      });
      const c1 = cpu();
      posting += c1 - c0;
      if ((i + 1) % k === 0) {
        indexQueuedComments(db);
        indexing += cpu() - c1;
      }
    }
    console.log(
      `batch ${String(k).padStart(5)}: indexing ${Math.round(indexing / n)} µs/comment, posting ${Math.round(posting / n)} µs/comment (round ${round + 1}, load ${os.loadavg()[0].toFixed(2)})`,
    );
  }
}
closeDb(db);
rmSync(dir, { recursive: true, force: true });
