/**
 * `docsctl auth login|status|logout`: who the CLI talks as, kept in a profile
 * (src/cli/config.ts: the config file, written through conf with mode 0600).
 *
 * Remote (an endpoint from --endpoint, DOCSCTL_ENDPOINT or the profile): login asks
 * for a token with hidden input (or reads --token-stdin), checks it with
 * `GET /v1/user`, shows who it is and saves endpoint + token in a profile.
 * Local (no endpoint): commands act as the store's owner; login saves a token of
 * the store so they act as that token's user, logout goes back to the owner.
 * Non-interactive use is unchanged: --endpoint/--token and DOCSCTL_* still win.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ApiError, type DocsctlError, NetworkError, UsageError } from '../../api/errors.js';
import type { RouteId } from '../../api/route-id.js';
import { type ConfigFile, type Profile, type Settings, configFilePath, profileStorePath, readConfig, resolveSettings, updateConfig } from '../config.js';
import { readTextInput } from '../io.js';
import { type GlobalFlags, Session } from '../session.js';

type GetSession = (command: Command) => Session;

const LOCAL_MEANING = `Without an endpoint (local mode) commands act as the store's owner. "auth login" then saves a
token of the store (from "docsctl init" or "docsctl token create") in the store's profile, so
commands act as that token's user; "auth logout" removes it (back to the owner); "auth status"
shows the store, the user commands act as and their organizations.`;

interface UserView {
  id: string;
  displayName?: string;
  email?: string;
}
interface OrgView {
  id: string;
  title: string;
}

/** `gb_api_abc…wxyz`: enough to tell tokens apart, never the secret. */
export const redactToken = (token: string | undefined): string | undefined =>
  token === undefined ? undefined : token.length <= 12 ? '***' : `${token.slice(0, 7)}…${token.slice(-4)}`;

/** The value of an option typed on the command line, by this command or a parent (not from DOCSCTL_* variables). */
function fromCommandLine(command: Command, name: string): string | undefined {
  for (let current: Command | null = command; current; current = current.parent) {
    if (current.getOptionValueSource(name) === 'cli') return current.getOptionValue(name) as string | undefined;
  }
  return undefined;
}

/**
 * The settings `auth login` targets. A profile named with --profile / DOCSCTL_PROFILE
 * that does not exist yet is the one login creates: its name is not an error here.
 */
function loginSettings(session: Session, file: ConfigFile): { settings: Settings; named: string | undefined } {
  const flags = session.flags;
  const named = flags.profile ?? session.ctx.env.DOCSCTL_PROFILE;
  const known = named !== undefined && file.profiles?.[named] !== undefined;
  const settings = resolveSettings(
    { ...flags, profile: known ? named : undefined },
    { ...session.ctx.env, DOCSCTL_PROFILE: undefined },
    named !== undefined && !known ? { ...file, currentProfile: undefined } : file,
  );
  return { settings, named };
}

/** Which profile a login saves to: the one named, else one already on this endpoint/store, else a new one. */
export function profileNameFor(file: ConfigFile, settings: Settings, named: string | undefined): string {
  if (named !== undefined) return named;
  const profiles = file.profiles ?? {};
  const targets = (profile: Profile) =>
    settings.mode === 'remote' ? profile.endpoint === settings.endpoint : profile.endpoint === undefined && resolve(profile.store ?? '') === resolve(settings.storeDir);
  const current = file.currentProfile;
  if (current !== undefined && profiles[current] && targets(profiles[current] as Profile)) return current;
  const existing = Object.keys(profiles).find((name) => targets(profiles[name] as Profile));
  if (existing !== undefined) return existing;
  let base = 'local';
  if (settings.mode === 'remote') {
    const url = new URL(settings.endpoint as string);
    base = url.host.replace(/[^A-Za-z0-9.-]+/g, '-') || 'remote';
  }
  let name = base;
  for (let n = 2; profiles[name] !== undefined; n++) name = `${base}-${n}`;
  return name;
}

/** The user and organizations a token stands for, read through a session with that token. */
async function whoIs(session: Session): Promise<{ user: UserView; organizations: OrgView[]; more: boolean }> {
  const transport = await session.transport();
  const get = async (route: RouteId, query: Record<string, unknown> = {}) => (await transport.request(route, { query })).body;
  const user = (await get('getAuthenticatedUser')) as UserView;
  // Locally a query would load the route's validation (zod); the default page is enough there.
  const orgs = (await get('listOrganizationsForAuthenticatedUser', transport.mode === 'local' ? {} : { limit: 100 })) as {
    items?: OrgView[];
    next?: unknown;
  };
  return { user, organizations: (orgs.items ?? []).map((org) => ({ id: org.id, title: org.title })), more: Boolean(orgs.next) };
}

const where = (settings: Settings) => (settings.mode === 'remote' ? (settings.endpoint as string) : `the store at ${settings.storeDir}`);
const userLine = (user: UserView) => `${user.displayName ?? user.id}${user.email ? ` <${user.email}>` : ''}`;
const orgsLine = (organizations: OrgView[], more: boolean) =>
  organizations.length === 0 ? '(none)' : `${organizations.map((org) => `${org.title} (${org.id})`).join(', ')}${more ? ', …' : ''}`;

/** A refused token as the one error auth commands give for it (exit 3). */
function refused(settings: Settings, error: ApiError): ApiError {
  return new ApiError(401, `The token was refused by ${where(settings)} (${error.status}: ${error.message})`, {
    hint:
      settings.mode === 'remote'
        ? `log in again: docsctl auth login --endpoint ${settings.endpoint}`
        : 'create a token with "docsctl token create" and run "docsctl auth login", or "docsctl auth logout" to act as the owner',
  });
}

const isRefusal = (error: unknown): error is ApiError => error instanceof ApiError && (error.status === 401 || error.status === 403);

async function readToken(session: Session, command: Command, options: { tokenStdin?: boolean }, settings: Settings): Promise<string> {
  if (options.tokenStdin) {
    const token = (await readTextInput(session.ctx.io.in, '-', '--token-stdin')).trim();
    if (token === '') throw new UsageError('--token-stdin read an empty token', { hint: 'pipe the token: docsctl auth login --token-stdin < token.txt' });
    return token;
  }
  const typed = fromCommandLine(command, 'token');
  if (typed) return typed;
  if (session.ctx.env.DOCSCTL_TOKEN) {
    throw new UsageError('DOCSCTL_TOKEN is set, and it wins over a saved token', {
      hint: 'unset it to log in (commands already use it), or pass the token to save with --token-stdin',
    });
  }
  if (!session.canPrompt) {
    throw new UsageError('auth login needs a token: no terminal to ask for it', { hint: 'pass it on stdin: docsctl auth login --token-stdin < token.txt' });
  }
  const source = settings.mode === 'remote' ? `an API token for ${settings.endpoint}` : `an API token of the store at ${settings.storeDir} (docsctl token create)`;
  const token = await session.ctx.prompter.password(`Paste ${source}:`, {
    validate: (value) => (value.trim() !== '' ? true : 'The token is empty'),
  });
  return token.trim();
}

async function login(session: Session, command: Command, options: { tokenStdin?: boolean }): Promise<void> {
  const file = readConfig(session.ctx.env);
  const { settings, named } = loginSettings(session, file);
  if (settings.mode === 'remote') {
    try {
      const url = new URL(settings.endpoint as string);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    } catch {
      throw new UsageError(`--endpoint expects an http(s) URL, got "${settings.endpoint}"`);
    }
  }
  const token = await readToken(session, command, options, settings);
  // Check the token with a session of its own: the endpoint (or store) and this token, nothing from the profile.
  const target: GlobalFlags = settings.mode === 'remote' ? { endpoint: settings.endpoint, token } : { store: settings.storeDir, token };
  const check = new Session({ ...session.ctx, env: { ...session.ctx.env, DOCSCTL_PROFILE: undefined } }, { ...session.flags, ...target, profile: undefined });
  let who: Awaited<ReturnType<typeof whoIs>>;
  try {
    who = await whoIs(check);
  } catch (error) {
    throw isRefusal(error) ? refused(settings, error) : error;
  } finally {
    await check.close();
  }
  const name = profileNameFor(file, settings, named);
  const path = await updateConfig(session.ctx.env, (current) => {
    const profiles = { ...(current.profiles ?? {}) };
    const previous: Profile = profiles[name] ?? {};
    const next: Profile =
      settings.mode === 'remote'
        ? { ...(previous.endpoint === settings.endpoint ? previous : {}), endpoint: settings.endpoint as string, token }
        : { ...(previous.endpoint === undefined ? previous : {}), store: profileStorePath(settings.storeDir), token };
    if (settings.mode === 'remote') delete next.store;
    profiles[name] = next;
    return { ...current, profiles, currentProfile: name };
  });
  await session.info(`Logged in to ${where(settings)} as ${userLine(who.user)}`);
  await session.info(`Saved profile "${name}" (now current) in ${path}`);
  if (session.ctx.env.DOCSCTL_ENDPOINT === undefined && session.ctx.env.DOCSCTL_STORE === undefined && session.ctx.env.DOCSCTL_TOKEN !== undefined) {
    await session.info('note: DOCSCTL_TOKEN is set in the environment and wins over the saved token');
  }
  await session.printObject(
    {
      profile: name,
      mode: settings.mode,
      ...(settings.mode === 'remote' ? { endpoint: settings.endpoint } : { store: settings.storeDir }),
      user: who.user,
      organizations: who.organizations,
    },
    [
      { header: 'PROFILE', get: (item: Record<string, unknown>) => item.profile },
      { header: settings.mode === 'remote' ? 'ENDPOINT' : 'STORE', get: () => (settings.mode === 'remote' ? settings.endpoint : settings.storeDir) },
      { header: 'USER', get: () => `${userLine(who.user)}  ${who.user.id}` },
      { header: 'ORGANIZATIONS', get: () => orgsLine(who.organizations, who.more) },
    ],
  );
}

/** Where the token in effect comes from. */
function tokenSource(command: Command, session: Session): 'flag' | 'environment' | 'profile' | undefined {
  if (session.settings.token === undefined) return undefined;
  if (fromCommandLine(command, 'token') !== undefined) return 'flag';
  if (session.ctx.env.DOCSCTL_TOKEN) return 'environment';
  return 'profile';
}

async function status(session: Session, command: Command): Promise<void> {
  const settings = session.settings;
  const source = tokenSource(command, session);
  let who: Awaited<ReturnType<typeof whoIs>> | undefined;
  let failure: DocsctlError | undefined;
  if (settings.mode === 'remote' && settings.token === undefined) {
    failure = new ApiError(401, `Not logged in to ${settings.endpoint}`, { hint: `docsctl auth login --endpoint ${settings.endpoint}` });
  } else {
    try {
      who = await whoIs(session);
    } catch (error) {
      if (isRefusal(error)) failure = refused(settings, error);
      else if (error instanceof NetworkError || error instanceof ApiError) failure = error;
      else throw error;
    }
  }
  const actingAs = settings.mode === 'local' && settings.token === undefined ? 'owner' : 'token';
  const answer = {
    mode: settings.mode,
    ...(settings.mode === 'remote' ? { endpoint: settings.endpoint } : { store: settings.storeDir }),
    profile: settings.profileName ?? null,
    token: redactToken(settings.token) ?? null,
    tokenSource: source ?? null,
    ...(settings.mode === 'local' ? { actingAs } : {}),
    valid: failure === undefined,
    user: who?.user ?? null,
    organizations: who?.organizations ?? [],
    ...(failure ? { error: failure.message } : {}),
    configFile: configFilePath(session.ctx.env),
  };
  const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  await session.printObject(answer, [
    { header: 'MODE', get: () => settings.mode },
    { header: settings.mode === 'remote' ? 'ENDPOINT' : 'STORE', get: () => (settings.mode === 'remote' ? settings.endpoint : settings.storeDir) },
    { header: 'PROFILE', get: () => text(answer.profile) },
    {
      header: 'TOKEN',
      get: () => (answer.token === null ? (settings.mode === 'local' ? 'none: acting as the store owner' : 'none') : `${answer.token} (from ${source})`),
    },
    { header: 'USER', get: () => (who ? `${userLine(who.user)}  ${who.user.id}` : '') },
    { header: 'ORGANIZATIONS', get: () => (who ? orgsLine(who.organizations, who.more) : '') },
    { header: 'STATUS', get: () => (failure ? `not working: ${failure.message}` : settings.token === undefined ? "ok: the store's owner" : 'ok: the token works') },
  ]);
  if (failure) throw failure;
}

async function logout(session: Session): Promise<void> {
  const file = readConfig(session.ctx.env);
  const named = session.flags.profile ?? session.ctx.env.DOCSCTL_PROFILE;
  const name = named ?? file.currentProfile ?? (() => {
    // No profile selected: the one login would have saved this endpoint or store to.
    const { settings } = loginSettings(session, file);
    return profileNameFor(file, settings, undefined);
  })();
  const profile = file.profiles?.[name];
  const removed = profile?.token !== undefined;
  if (removed) {
    await updateConfig(session.ctx.env, (current) => {
      const profiles = { ...(current.profiles ?? {}) };
      const { token: _token, ...rest } = profiles[name] as Profile;
      profiles[name] = rest;
      return { ...current, profiles };
    });
    const target = profile?.endpoint ?? `the store at ${profile?.store ?? '?'}`;
    await session.info(
      `Logged out of ${target}: removed the token of profile "${name}"${profile?.endpoint === undefined ? ' (commands act as the store owner again)' : ''}`,
    );
  } else {
    await session.info(`Not logged in: profile "${name}" holds no token${profile ? '' : ' (no such profile)'}`);
  }
  if (session.ctx.env.DOCSCTL_TOKEN) await session.info('note: DOCSCTL_TOKEN is still set in the environment, and commands keep using it');
  if (session.format === 'json' || session.format === 'yaml') await session.printObject({ profile: name, removed }, []);
}

export function registerAuthCommands(program: Command, getSession: GetSession): void {
  const auth = program
    .command('auth')
    .description('Log in to an endpoint (or a local store) and see who commands act as')
    .addHelpText('after', `\n${LOCAL_MEANING}\n`);

  auth
    .command('login')
    .description('Check a token with GET /v1/user and save it in a profile (mode 0600)')
    .option('--token-stdin', 'read the token from stdin (for scripts: keeps it out of shell history)')
    .addHelpText(
      'after',
      `
The endpoint is --endpoint, DOCSCTL_ENDPOINT or the profile's; the token is asked with hidden
input on a terminal. The profile is --profile NAME, else one already on that endpoint, else a
new one named after its host; it becomes the current profile.

${LOCAL_MEANING}

Examples:
  $ docsctl auth login --endpoint https://api.gitbook.com
  $ docsctl auth login --endpoint http://127.0.0.1:4000 --token-stdin < token.txt
  $ docsctl auth login --profile work --endpoint https://api.gitbook.com
  $ docsctl token create --json | jq -r .token | docsctl auth login --token-stdin    # local: act as another user
`,
    )
    .action(async (options: { tokenStdin?: boolean }, command: Command) => {
      await login(getSession(command), command, options);
    });

  auth
    .command('status')
    .description('Show the endpoint or store, the user, the organizations, and whether the token works (exit 3 when not)')
    .addHelpText(
      'after',
      `
Exit codes: 0 the token works (or, locally, the store's owner is used), 3 refused or missing,
6 the endpoint cannot be reached.

Examples:
  $ docsctl auth status
  $ docsctl auth status --json | jq -r .user.email
`,
    )
    .action(async (_options: unknown, command: Command) => {
      const session = getSession(command);
      await status(session, command);
    });

  auth
    .command('logout')
    .description("Remove the saved token of the profile (the endpoint stays; locally, commands act as the store's owner again)")
    .addHelpText('after', '\nExamples:\n  $ docsctl auth logout\n  $ docsctl auth logout --profile work\n')
    .action(async (_options: unknown, command: Command) => {
      await logout(getSession(command));
    });
}
