// Runs the docsctl binary in this process (`node maxrss.mjs ARGS…` is `docsctl ARGS…`) and, when the
// process exits, writes its peak resident memory in KiB to $MAXRSS_FILE: a test's view of what one
// CLI command cost, without /usr/bin/time.
import { writeFileSync } from 'node:fs';

process.on('exit', () => writeFileSync(process.env.MAXRSS_FILE, String(process.resourceUsage().maxRSS)));
await import('../../bin/docsctl.js');
