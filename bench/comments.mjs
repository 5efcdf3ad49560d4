// Comments and search benchmark (npm run bench -- --comments): `comment list` (first page of
// 100) and `comment add` on a change request with 1,000 and with 10,000 comments (flat as the
// comments grow ×10), and `search` over a 5,000-page space; wall time as a ratio to `node -e 0`.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** @param {{ bin: string, work: string, generator: (name: string) => Promise<string>, paired: (label: string, args: string[], env: object, target: number) => number }} h */
export async function commentsBench({ bin, work, generator, paired }) {
  console.log('\ncomments and search: a change request with 1,000 and 10,000 comments, a 5,000-page space:');
  const script = await generator('generate-comments');
  const ratios = {};
  for (const count of [1000, 10000]) {
    const dir = join(work, `comments-${count}`);
    const info = JSON.parse(execFileSync('node', [script, dir, String(count)], { encoding: 'utf8', maxBuffer: 1 << 26 }));
    console.log(`  generated ${info.pages} pages and ${info.comments} comments in ${info.seconds.toFixed(1)} s`);
    const env = { DOCSCTL_STORE: dir };
    const cr = String(info.changeRequest);
    ratios[count] = {
      list: paired(`comment list --limit 100 (${count} comments)`, [bin, 'comment', 'list', info.spaceId, '--cr', cr, '--limit', '100', '--json'], env, 2),
      add: paired(`comment add (${count} comments)`, [bin, 'comment', 'add', info.spaceId, '--cr', cr, '--body', 'One more question', '--format', 'ids'], env, 2.5),
    };
    if (count === 10000) paired('search (5,000-page space)', [bin, 'search', 'section 12.3 explains', '--space', info.spaceId, '--json'], env, 3);
  }
  for (const what of ['list', 'add']) {
    const growth = ratios[10000][what] / ratios[1000][what];
    console.log(`  comment ${what}: 10,000 vs 1,000 comments ${growth.toFixed(2)}×${growth <= 1.2 ? '  flat' : '  GROWS'}`);
  }
}
