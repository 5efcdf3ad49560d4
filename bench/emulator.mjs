// `serve` as a CI emulator: `serve snapshot save` and `serve snapshot restore` on a store of 10
// spaces and on one of 10,000 (100 collections), through the binary, as ratios to `node -e 0`.
// A snapshot is the root hash of each table and a restore one commit setting them again, so
// both must cost the same at either size (target: the 10,000-space ratio ≤ 1.2× the 10-space one).
import { join } from 'node:path';

export async function emulatorBench({ bin, work, paired, generator, generate }) {
  const script = await generator();
  console.log('serve snapshots (O(1): a snapshot is the store\'s table roots, not a copy):');
  const ratios = {};
  for (const [spaces, collections] of [[10, 1], [10_000, 100]]) {
    const dir = join(work, `emulator-${spaces}`);
    generate(script, dir, spaces, collections, spaces + collections + 1);
    const env = { DOCSCTL_STORE: dir };
    const save = paired(`serve snapshot save (${spaces} spaces)`, [bin, 'serve', 'snapshot', 'save', 'bench', '--json'], env);
    const restore = paired(`serve snapshot restore (${spaces} spaces)`, [bin, 'serve', 'snapshot', 'restore', 'bench', '--json'], env);
    ratios[spaces] = { save, restore };
  }
  for (const op of ['save', 'restore']) {
    const growth = ratios[10_000][op] / ratios[10][op];
    console.log(`  ${op} at 10,000 spaces / at 10: ${growth.toFixed(2)} (target ≤ 1.2)${growth <= 1.2 ? '  ok' : '  OVER'}`);
  }
}
