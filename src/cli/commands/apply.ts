/**
 * `docsctl apply -f FILE`, `docsctl diff -f FILE` (= `apply --dry-run`) and `docsctl export org`:
 * an organization as code (src/orgcode/). The file is checked whole before anything is read
 * (exit 2 naming the line); the plan is read from the organization through the transport and
 * printed as `+ ~ -` lines (or data with --json); `diff`/`--dry-run` exit 0 when nothing would
 * change and 1 when something would, so CI can gate on drift.
 */
import { randomUUID } from 'node:crypto';
import { open, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../api/errors.js';
import { ApplyStepError, applyPlan } from '../../orgcode/apply.js';
import { exportOrganization, formatOrgFile } from '../../orgcode/export.js';
import { MAX_FILE_BYTES, parseOrgFile, withLines } from '../../orgcode/parse.js';
import { type Plan, type Step, planOrganization, summarize } from '../../orgcode/plan.js';
import { OrgState } from '../../orgcode/state.js';
import { sanitizeLine } from '../../output/sanitize.js';
import { SilentExit } from '../io.js';
import { resolveOrganization } from '../operation.js';
import type { Session } from '../session.js';

interface ApplyOptions {
  file?: string;
  dryRun?: boolean;
  prune?: boolean;
  org?: string;
  schema?: boolean;
}

const EXIT_CODES_HELP = `
Exit codes:
  0  applied, or (diff, --dry-run) nothing would change
  1  (diff, --dry-run) something would change; or a step failed (its error says which)
  2  the file is invalid (a line, a key, a reference): nothing was read or changed
  3, 4, 5, …  a request failed with that status (see docsctl --help): the steps before it are applied`;

const FORMAT_HELP = `
The file (YAML or JSON; docsctl apply --schema prints its JSON Schema):
  organization: {title, emailDomains, hostname, defaultRole, inviteLinks}
  members:      [{email, role}]                      role: admin, create, edit, review, comment, read, guest
  customFields: [{name, type, title, options}]
  collections:  [{title, description, defaultLevel, collections: [...]}]   (nested)
  spaces:       [{title, emoji, parent: "Engineering/Handbook", defaultLevel, customFields: {tier: gold},
                  git: {url, ref: main, dir: docs}}]   (content imported when created or the source changes)
  teams:        [{title, members: [ada@acme.io, {email: bob@acme.io, role: owner}]}]   (the whole membership)
  sites:        [{title, type, visibility, sections: [{title, space: "Engineering/Handbook/Onboarding", path}],
                  sectionGroups: [{title, icon, sections: [...], sectionGroups: [...]}],
                  spaces: [{space, path}], shareLinks: [{name}], redirects: [{source, destination: {section | space}}],
                  customization: {styling: {primaryColor: {light: "#346DDB"}, font: {fontFamily: Brand}}}}]
  fonts:        [{fontFamily: Brand, fontFaces: [{weight: 400, storageKey: "https://cdn.acme.io/brand.woff2"}]}]
  samlProviders: [{label: Okta, ssoURL, entityID, certificate, defaultTeam: Writers, defaultRole: read}]
  translations: [{source: {space: "Engineering/Handbook", language: en}, language: fr, instructions}]
  openAPISpecs: [{slug: petstore, source: {url: "https://…"} | {file: specs/petstore.yaml}, visibility}]
  permissions:  on a collection, space or site: [{user: bob@acme.io, role: edit}, {team: Writers, role: read}]
Objects are matched by title path (collections, spaces) or title; "id:" pins one (then a new title renames it).
Objects missing from the file are left alone, unless --prune (of the kinds the file lists; grants of
objects that list permissions).`;

/** The file's text, read with its size bounded (a file or `-` for stdin). */
export async function readBounded(session: Session, file: string, what = '--file'): Promise<string> {
  const tooLarge = () => new UsageError(`${file}: the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`, { hint: 'split the organization into several files' });
  try {
    if (file === '-') {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of session.ctx.io.in) {
        size += (chunk as Buffer).length;
        if (size > MAX_FILE_BYTES) throw tooLarge();
        chunks.push(Buffer.from(chunk as Buffer));
      }
      return Buffer.concat(chunks).toString('utf8');
    }
    const handle = await open(file, 'r');
    try {
      if ((await handle.stat()).size > MAX_FILE_BYTES) throw tooLarge();
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** Reads a file the organization file names (an OpenAPI specification's source), relative to it; none for stdin. */
export function sourceReader(session: Session, file: string): ((path: string) => Promise<string>) | undefined {
  return file === '-' ? undefined : (path: string) => readBounded(session, resolve(dirname(file), path), 'source file');
}

const show = (value: unknown) => {
  const text = value === undefined ? '(none)' : JSON.stringify(value);
  return text.length > 100 ? `${text.slice(0, 97)}…` : text;
};

/** `+ space Engineering/Handbook/Onboarding` and one indented line per changed field. */
export function planLines(steps: readonly Step[]): string {
  return steps
    .map((step) => {
      const fields = step.changes.map((change) =>
        step.op === '~' ? `    ${change.field}: ${show(change.from)} → ${show(change.to)}` : `    ${change.field}: ${show(step.op === '-' ? change.from : change.to)}`,
      );
      return [`${step.op} ${step.kind} ${step.name}`, ...fields].map(sanitizeLine).join('\n');
    })
    .join('\n');
}

const counts = (plan: Plan) => {
  const { create, change, delete: remove } = summarize(plan);
  return `${create} to create, ${change} to change, ${remove} to delete`;
};

const planData = (plan: Plan, extra: Record<string, unknown>) => ({
  ...extra,
  summary: summarize(plan),
  changes: plan.steps.map((step) => ({ op: step.op, kind: step.kind, name: step.name, fields: step.changes, requests: step.requests })),
  notes: plan.notes,
});

async function planFor(session: Session, options: ApplyOptions, file: string): Promise<{ plan: Plan; state: OrgState }> {
  const located = await parseOrgFile(await readBounded(session, file), file === '-' ? 'stdin' : file);
  const organizationId = await resolveOrganization(session, options.org);
  const transport = await session.transport({ manyRequests: true });
  const [state, selfId] = await Promise.all([
    OrgState.read(transport, organizationId),
    options.prune ? transport.request('getAuthenticatedUser', {}).then((answer) => (answer.body as { id?: string }).id) : undefined,
  ]);
  const readSource = sourceReader(session, file);
  return { plan: await withLines(located, () => planOrganization(located, state, { prune: Boolean(options.prune), selfId, readSource })), state };
}

async function runApply(session: Session, options: ApplyOptions): Promise<void> {
  if (options.schema) {
    const { orgFileJsonSchema } = await import('../../orgcode/schema.js');
    await session.printJson(orgFileJsonSchema());
    return;
  }
  if (!options.file) throw new UsageError('apply needs -f FILE (the organization file; - for stdin)', { hint: 'docsctl export org -o org.yaml writes one to start from' });
  const { plan, state } = await planFor(session, options, options.file);
  const json = session.format === 'json' || session.format === 'yaml';
  for (const note of plan.notes) await session.info(`note: ${note}`);
  if (options.dryRun || plan.steps.length === 0) {
    if (json) await session.printObject(planData(plan, { dryRun: Boolean(options.dryRun), applied: false }), []);
    else if (plan.steps.length) await session.printSanitizedText(planLines(plan.steps));
    if (plan.steps.length === 0) {
      await session.info(`Nothing to change: the organization matches ${options.file === '-' ? 'the file' : options.file}`);
      return;
    }
    await session.info(`Plan: ${counts(plan)} (dry run: nothing changed)`);
    throw new SilentExit(1);
  }
  const deletions = plan.steps.filter((step) => step.op === '-');
  if (deletions.length) {
    if (!json) await session.printSanitizedText(planLines(plan.steps));
    await session.confirm(`Apply ${counts(plan)}, deleting ${deletions.length} object${deletions.length === 1 ? '' : 's'}?`);
  }
  let applied = 0;
  try {
    await applyPlan(state.transport, plan, async (step) => {
      applied += 1;
      if (!json) await session.printSanitizedText(planLines([step]));
    });
  } catch (error) {
    if (json && error instanceof ApplyStepError) {
      await session.printObject(planData({ ...plan, steps: plan.steps.slice(0, applied) }, { applied: true, complete: false }), []);
    }
    throw error;
  }
  if (json) await session.printObject(planData(plan, { applied: true, complete: true }), []);
  await session.info(`Applied: ${counts(plan).replaceAll(' to ', ' ').replace('create', 'created').replace('change', 'changed').replace('delete', 'deleted')}`);
}

function fileOptions(command: Command): Command {
  return command
    .option('-f, --file <file>', 'the organization file (YAML or JSON; - for stdin)')
    .option('--prune', 'delete what the file does not name (of the kinds it lists); asks first, or --yes')
    .option('--org <organizationId>', 'organization (default: DOCSCTL_ORG, the profile, or your only one)');
}

export function registerApplyCommand(program: Command, getSession: (command: Command) => Session): void {
  fileOptions(program.command('apply').description('Make an organization what a file says: its settings, members, collections, spaces, teams, custom fields, sites, permissions'))
    .option('--dry-run', 'print the plan and change nothing (exit 1 when something would change): docsctl diff')
    .option('--schema', "print the file's JSON Schema (for editors) and exit")
    .addHelpText(
      'after',
      `${FORMAT_HELP}
${EXIT_CODES_HELP}

Examples:
  $ docsctl export org -o org.yaml && $EDITOR org.yaml
  $ docsctl diff -f org.yaml
  $ docsctl apply -f org.yaml
  $ docsctl apply -f org.yaml --prune --yes
  $ docsctl apply --schema > org.schema.json`,
    )
    .action(async (options: ApplyOptions, command: Command) => runApply(getSession(command), options));
}

export function registerDiffCommand(program: Command, getSession: (command: Command) => Session): void {
  fileOptions(program.command('diff').description('Print what apply -f would change (exit 0: nothing, 1: something)'))
    .addHelpText(
      'after',
      `${EXIT_CODES_HELP}

Examples:
  $ docsctl diff -f org.yaml
  $ docsctl diff -f org.yaml --json | jq '.changes[] | .name'
  $ docsctl diff -f org.yaml || echo "the organization drifted from org.yaml"`,
    )
    .action(async (options: ApplyOptions, command: Command) => runApply(getSession(command), { ...options, dryRun: true }));
}

interface ExportOptions {
  output?: string;
  withIds?: boolean;
  org?: string;
}

/** Writes `text` to `path` whole or not at all (a temporary file renamed over it). */
async function writeWhole(path: string, text: string): Promise<void> {
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new UsageError(`Cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export function registerExportCommand(program: Command, getSession: (command: Command) => Session): void {
  program
    .command('export')
    .description('Write an organization as a file for apply -f')
    .command('org')
    .description('Write the organization (settings, members, collections, spaces, teams, custom fields, sites, permissions) as an apply file')
    .option('--output <file>', 'write to this file (.json: JSON, else YAML; -o works too) instead of stdout')
    .option('--with-ids', 'pin every object with id: (by default only objects whose names are not unique)')
    .option('--org <organizationId>', 'organization (default: DOCSCTL_ORG, the profile, or your only one)')
    .addHelpText(
      'after',
      `
Here -o FILE means --output FILE (not --format).

Examples:
  $ docsctl export org -o org.yaml
  $ docsctl export org -o org.json --with-ids
  $ docsctl export org | docsctl --store ./copy apply -f -`,
    )
    .action(async (options: ExportOptions, command: Command) => {
      const session = getSession(command);
      const organizationId = await resolveOrganization(session, options.org);
      const state = await OrgState.read(await session.transport({ manyRequests: true }), organizationId);
      const { file, skipped } = await exportOrganization(state, { withIds: Boolean(options.withIds) });
      for (const line of skipped) await session.info(`left out: ${line}`);
      const text = await formatOrgFile(file, options.output);
      if (options.output && options.output !== '-') {
        await writeWhole(options.output, text);
        await session.info(`Wrote ${options.output}`);
      } else await session.printText(text);
    });
}
