/**
 * A derived command = its data (generated from the route and its `cli` declaration by
 * scripts/gen-commands.mjs into src/cli/generated/) + its hooks (src/cli/commands/<area>.ts,
 * `export const hooks = { 'space move': { … } } satisfies Hooks`): behaviour that data
 * cannot say. Kept apart from operation.ts so the generated files import only this.
 */
import type { RawInput } from '../api/validate.js';
import type { RouteId } from '../api/route-id.js';
import type { ApiResponse, Transport } from '../transport/types.js';
import type { Lookup } from './lookups.js';
import type { ArgSpec, FlagSpec, OperationCommandSpec } from './operation.js';

/** What the generator writes for one command: an OperationCommandSpec without functions, the confirmation a template. */
export type CommandData = Omit<OperationCommandSpec, 'confirm' | 'resolve' | 'build' | 'printItems' | 'emptyHint' | 'failWhen' | 'request' | 'after' | 'web' | 'unchanged' | 'route'> & {
  route: Exclude<OperationCommandSpec['route'], (...args: never[]) => unknown>;
  /** `{param}` and `{body.field}` are filled in from the input. */
  confirm?: string;
};

/** Behaviour a command's data cannot say, keyed by command name in `hooks` of src/cli/commands/<area>.ts. */
export interface CommandHooks
  extends Partial<Pick<OperationCommandSpec, 'route' | 'confirm' | 'resolve' | 'build' | 'printItems' | 'emptyHint' | 'failWhen' | 'request' | 'after' | 'web' | 'unchanged'>> {
  /** Flags no field gives (read by `build`); one with the long name of a derived flag replaces it in place. */
  flags?: readonly FlagSpec[];
  /** Arguments naming an object that has another name, by argument name (lookups.ts). */
  lookups?: Readonly<Record<string, Lookup>>;
}

export type Hooks = Record<string, CommandHooks>;

/**
 * A hook's `request` for an answer whose list is not under `items` (a bare array, `{results}`,
 * `{templates}`…): the answer of `routeId` with its list under `items`, as list commands read it.
 */
export const listed =
  (routeId: RouteId, itemsOf: (body: unknown) => unknown[]) =>
  async (transport: Transport, input: RawInput): Promise<ApiResponse> => {
    const response = await transport.request(routeId, input);
    return { ...response, body: { items: itemsOf(response.body) } };
  };

/** The long option as written (`--no-x` stays apart from `--x`, which it does not replace). */
const longName = (flags: string) => /--[a-z0-9-]+/i.exec(flags)?.[0] ?? flags;

/** `Delete space {spaceId}?` with the input's path parameters and `{body.x}` fields filled in. */
function fill(template: string, input: RawInput): string {
  return template.replace(/\{(body\.)?(\w+)\}/g, (_, body: string | undefined, name: string) => {
    const source = (body ? input.body : input.params) as Record<string, unknown> | undefined;
    return String(source?.[name]);
  });
}

/** The command: its data with its hooks applied. */
export function withHooks(data: CommandData, hooks: CommandHooks = {}): OperationCommandSpec {
  const { flags: extraFlags, lookups, confirm, ...rest } = hooks;
  const { confirm: template, ...fields } = data;
  let flags: FlagSpec[] | undefined = data.flags ? [...data.flags] : undefined;
  for (const extra of extraFlags ?? []) {
    flags ??= [];
    const at = flags.findIndex((f) => longName(f.flags) === longName(extra.flags));
    if (at === -1) flags.push(extra);
    else flags[at] = extra;
  }
  const args: ArgSpec[] | undefined = lookups && data.args ? data.args.map((arg) => (lookups[arg.name] ? { ...arg, lookup: lookups[arg.name] } : arg)) : data.args;
  return {
    ...fields,
    ...(args ? { args } : {}),
    ...(flags ? { flags } : {}),
    ...(confirm ? { confirm } : template === undefined ? {} : { confirm: (input: RawInput) => fill(template, input) }),
    ...rest,
  };
}
