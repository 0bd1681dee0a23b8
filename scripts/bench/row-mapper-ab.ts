/**
 * A/B micro-benchmark of the flat-row mapper (docs/decisions/003): CPU time per call of the hot
 * list reads, in process, on a bench data set (`npm run bench -- --data-dir DIR` builds one).
 *
 *   npx tsx scripts/bench/row-mapper-ab.ts DIR
 *
 * prints the median µs of CPU per call. For B, prepare with `query.prepare()` instead of
 * `withFlatRows(query.prepare())` in server/lib/prepared.ts and run it again; alternate A and B
 * a few times (CPU time, not wall time, so other processes on the machine matter less).
 */
import { openDb, migrateDb, type Db } from '../../db/client';
import type { Deps } from '../../server/services/deps';
import { listFeed, listBusinessComments, listLatestComments } from '../../server/services/comments/comments';
import { listAllReplies, listReplies, replyPreviews } from '../../server/services/comments/replies';
import { readFileSync } from 'node:fs';

const dir = process.argv[2];
const db: Db = openDb(`${dir}/recensera.sqlite`);
migrateDb(db);
const deps = { db } as unknown as Deps;
const meta = JSON.parse(readFileSync(`${dir}/bench-meta.json`, 'utf8')) as { searchTerms: { comment: string } };
const businessIds: string[] = db.$client
  .prepare('select business_id from comments group by business_id order by count(*) desc limit 50')
  .pluck()
  .all() as string[];
const commentIds: string[] = db.$client.prepare('select id from comments where reply_count > 5 limit 50').pluck().all() as string[];
const term = meta.searchTerms.comment;

const cases: [string, (i: number) => unknown][] = [
  ['feed first page (12)', () => listFeed(deps, null, { filter: 'all' } as never)],
  ['comments newest ?limit=50', () => listLatestComments(deps, null, { limit: 50 })],
  ['business comments page', (i) => listBusinessComments(deps, null, { businessId: businessIds[i % businessIds.length] })],
  ['business comment search', (i) => listBusinessComments(deps, null, { businessId: businessIds[i % businessIds.length], search: term })],
  ['replies of a comment', (i) => listReplies(deps, null, { commentId: commentIds[i % commentIds.length] })],
  ['replies newest ?limit=50', () => listAllReplies(deps, null, { limit: 50 })],
  ['reply previews x12', (i) => replyPreviews(db, null, commentIds.slice(i % 38, (i % 38) + 12), 3)],
];
const out: Record<string, number> = {};
for (const [name, fn] of cases) {
  for (let i = 0; i < 300; i++) fn(i); // warm-up
  const rounds: number[] = [];
  for (let r = 0; r < 7; r++) {
    const n = 200;
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) fn(i);
    const c = process.cpuUsage(c0);
    rounds.push((c.user + c.system) / n);
  }
  rounds.sort((a, b) => a - b);
  out[name] = Math.round(rounds[3] * 10) / 10;
}
console.log(JSON.stringify(out));
