// Writes the files the build derives from the source (not committed): the route catalog
// (src/api/manifest.ts), the commands derived from the route table (src/cli/generated/) and the
// organization file's shape for its zod-free check (src/orgcode/file-shape.ts).
// Run before type-checking (`npm run build`, `npm test`, `npm run lint` need them).
import { pathToFileURL } from 'node:url';
import { writeCommands } from './gen-commands.mjs';
import { writeManifest } from './gen-manifest.mjs';
import { writeOrgFileShape } from './gen-orgfile-shape.mjs';

export async function generate() {
  await writeManifest();
  await writeCommands();
  await writeOrgFileShape();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await generate();
