/**
 * A site's AI agent in the organization file: its settings (`agentSettings`: the API's three
 * groups, each optional) and its GitBook Agent channels (`channels`).
 *
 * - Settings: a group the file leaves out keeps its current value. The API's PUT replaces all
 *   three groups, so the request is merged into the settings read when it is sent.
 * - Channels are matched by id when pinned, otherwise by type in order: the file's first Slack
 *   channel is the site's first Slack channel not pinned elsewhere (the API lists them in
 *   creation order, so a file applied twice matches what it created). A channel's tool never
 *   changes; the list of patterns must be the tool's (Slack, Discord: allowedChannels; Linear:
 *   allowedTeams; GitHub: allowedRepositories). --prune deletes the channels the file leaves out.
 */
import { CHANNEL_SETTING, type SiteChannelType } from '../api/site-channel-settings.js';
import { describeInstructions, instructionsDocument, sameInstructions } from './instructions.js';
import { type FieldPath, fileError } from './parse.js';
import type { FileSite, FileSiteChannel } from './schema.js';
import type { CurrentChannel, OrgState } from './state.js';
import { type FieldChange, type PlannedRequest, type Ref, type StepOp, same } from './steps.js';

/** What the site planner lends this one. */
export interface SiteAgentContext {
  state: OrgState;
  prune: boolean;
  where(path: FieldPath): string;
  step(op: StepOp, kind: string, name: string, changes: FieldChange[], requests: PlannedRequest[]): void;
}

interface Target {
  site: FileSite;
  here: FieldPath;
  params: Record<string, string | Ref>;
  /** The site's id when it exists now (undefined: the run creates it). */
  currentId: string | undefined;
}


export async function planSiteAgentSettings(ctx: SiteAgentContext, target: Target): Promise<void> {
  const wanted = target.site.agentSettings;
  if (!wanted) return;
  const current = target.currentId === undefined ? undefined : await ctx.state.siteAgentSettings(target.currentId);
  const changes: FieldChange[] = [];
  const body: Record<string, unknown> = {};
  if (wanted.scans && !same(wanted.scans.topics, current?.scans?.topics)) {
    changes.push({ field: 'agentSettings.scans.topics', from: current?.scans?.topics, to: wanted.scans.topics });
    body.scans = wanted.scans;
  }
  if (wanted.findings && !same(wanted.findings.changeRequests, current?.findings?.changeRequests)) {
    changes.push({ field: 'agentSettings.findings.changeRequests', from: current?.findings?.changeRequests, to: wanted.findings.changeRequests });
    body.findings = wanted.findings;
  }
  const instructions = wanted.editing?.customInstructions;
  if (instructions !== undefined && !(current && sameInstructions(instructions, current.editing?.customInstructions))) {
    changes.push({
      field: 'agentSettings.editing.customInstructions',
      ...(current ? { from: describeInstructions(current.editing?.customInstructions) } : {}),
      to: describeInstructions(instructions),
    });
    body.editing = { customInstructions: instructionsDocument(instructions) };
  }
  if (!changes.length) return;
  ctx.step(current ? '~' : '+', 'site agent settings', target.site.title, changes, [
    { route: 'updateSiteAgentSettingsById', params: target.params, body, mergeWith: 'getSiteAgentSettingsById', mergeKeys: ['scans', 'findings', 'editing'] },
  ]);
}

/** The patterns a channel of the file allows, under the one key its tool takes (an error naming the line otherwise). */
function channelSettings(ctx: SiteAgentContext, channel: FileSiteChannel, here: FieldPath): { key: string; patterns: string[] | undefined } {
  const key = CHANNEL_SETTING[channel.type as SiteChannelType];
  for (const [name, value] of Object.entries(channel.setupSettings ?? {})) {
    if (name !== key && value !== undefined) {
      const path = [...here, 'setupSettings', name];
      throw fileError(ctx.where(path), path, `a ${channel.type} channel takes ${key}, not ${name}`, `write the patterns under ${key}`);
    }
  }
  const patterns = channel.setupSettings?.[key as keyof NonNullable<FileSiteChannel['setupSettings']>];
  return { key, patterns: patterns === undefined ? undefined : [...new Set(patterns)] };
}

export async function planSiteChannels(ctx: SiteAgentContext, target: Target): Promise<void> {
  const wanted = target.site.channels;
  if (!wanted) return;
  const title = target.site.title;
  const current = target.currentId === undefined ? [] : await ctx.state.siteChannels(target.currentId);
  const pinned = new Set(wanted.flatMap((channel) => (channel.id ? [channel.id] : [])));
  // Per type, the current channels the file does not pin, in the API's order: unpinned channels of the file take them in turn.
  const free = new Map<string, CurrentChannel[]>();
  for (const channel of current) if (!pinned.has(channel.id)) free.set(channel.type, [...(free.get(channel.type) ?? []), channel]);
  const perType = new Map<string, number>();
  const kept = new Set<string>();
  wanted.forEach((channel, i) => {
    const here = [...target.here, 'channels', i];
    const { key, patterns } = channelSettings(ctx, channel, here);
    const nth = (perType.get(channel.type) ?? 0) + 1;
    perType.set(channel.type, nth);
    const name = `${title}/${channel.type}${wanted.filter((c) => c.type === channel.type).length > 1 ? ` #${nth}` : ''}`;
    let found: CurrentChannel | undefined;
    if (channel.id) {
      found = current.find((c) => c.id === channel.id);
      if (!found) throw fileError(ctx.where([...here, 'id']), [...here, 'id'], `no channel with id ${channel.id} in site "${title}"`, 'remove the id to add the channel, or fix it');
      if (found.type !== channel.type) {
        throw fileError(ctx.where([...here, 'type']), [...here, 'type'], `channel ${channel.id} is a ${found.type} channel; the API cannot change its tool`, 'remove its id to add a new channel (and --prune the old one)');
      }
    } else {
      found = free.get(channel.type)?.shift();
    }
    if (!found) {
      ctx.step('+', 'site channel', name, [...(channel.role ? [{ field: 'role', to: channel.role }] : []), { field: key, to: patterns ?? [] }], [
        { route: 'createSiteChannel', params: target.params, body: { type: channel.type, setupSettings: patterns === undefined ? {} : { [key]: patterns }, ...(channel.role ? { role: channel.role } : {}) } },
      ]);
      return;
    }
    kept.add(found.id);
    const changes: FieldChange[] = [];
    const body: Record<string, unknown> = {};
    if (channel.role !== undefined && channel.role !== found.role) {
      changes.push({ field: 'role', from: found.role, to: channel.role });
      body.role = channel.role;
    }
    if (patterns !== undefined && !same(patterns, found.setupSettings[key] ?? [])) {
      changes.push({ field: key, from: found.setupSettings[key] ?? [], to: patterns });
      Object.assign(body, { type: channel.type, setupSettings: { [key]: patterns } });
    }
    if (changes.length) ctx.step('~', 'site channel', name, changes, [{ route: 'updateSiteChannelById', params: { ...target.params, siteChannelId: found.id }, body }]);
  });
  if (!ctx.prune) return;
  for (const channel of current.filter((c) => !kept.has(c.id))) {
    ctx.step('-', 'site channel', `${title}/${channel.type}`, [], [{ route: 'deleteSiteChannelById', params: { ...target.params, siteChannelId: channel.id } }]);
  }
}
