/**
 * GitBook Agent channels of a site (0.202 `SiteChannel`): the Slack, Linear, GitHub or Discord
 * places where the agent answers (`support`) or also opens change requests (`collaborator`).
 * One row per channel (`siteChannels`, a KeyedSet per site, listed in creation order).
 *
 * Rules decided here (the spec gives the shapes only):
 * - Each type takes one list of patterns: Slack and Discord `allowedChannels`, Linear
 *   `allowedTeams`, GitHub `allowedRepositories` (an empty or absent list: everything);
 *   another list is refused naming the one to use. Patterns are deduplicated, order kept.
 * - A channel's type does not change (its setup belongs to one tool): delete and add again.
 * - `status` is `pending`: the tool's side of the connection is made in the tool, which
 *   docsctl never contacts; `answers` counts none for the same reason.
 * - Deleting the site deletes its channels.
 */
import { badRequest, notFound } from '../../api/errors.js';
import { CHANNEL_SETTING } from '../../api/site-channel-settings.js';
import type * as routes from '../../api/routes/sites.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { type Handler, Reply, deleted, implementer, nothingToDelete } from '../handler.js';
import { siteAccess } from './access.js';
import { type SiteChannelRecord, type SiteRecord, siteChannels } from './site-records.js';
import { siteLocation } from './views.js';

const on = implementer<typeof routes>();

type ChannelType = SiteChannelRecord['type'];

function checkedSettings(type: ChannelType, settings: Record<string, string[] | undefined>): Record<string, string[]> {
  const key = CHANNEL_SETTING[type];
  for (const [name, value] of Object.entries(settings)) {
    if (name !== key && value !== undefined) throw badRequest(`Invalid setupSettings: a ${type} channel takes ${key}, not ${name}`);
  }
  const patterns = settings[key];
  return patterns === undefined ? {} : { [key]: [...new Set(patterns)] };
}

const location = (origin: string, site: SiteRecord, id: string) => `${siteLocation(origin, site)}/channels/${encodeURIComponent(id)}`;

function channelView(origin: string, site: SiteRecord, channel: SiteChannelRecord) {
  return {
    object: 'site-channel' as const,
    id: channel.id,
    type: channel.type,
    setupSettings: channel.setupSettings,
    status: 'pending' as const,
    role: channel.role,
    answers: 0,
    createdAt: channel.createdAt,
    urls: { location: location(origin, site, channel.id) },
  };
}

function requireChannel(tx: StoreReader, site: SiteRecord, id: string): SiteChannelRecord {
  const channel = siteChannels.get(tx, site.id, id);
  if (!channel) throw notFound(`Channel ${id} not found in site ${site.id}`);
  return channel;
}

/** Deletes every channel of a site (the site is being deleted). */
export function removeSiteChannels(tx: StoreWriter, siteId: string): void {
  for (const { id } of siteChannels.all(tx, siteId)) siteChannels.remove(tx, siteId, id);
}

export const channelHandlers: Record<string, Handler> = {
  ...on('listSiteChannels', (ctx, { params, query }) => {
    const { site } = siteAccess(ctx, params);
    return siteChannels.page(ctx.tx, site.id, query, ({ value }) => channelView(ctx.origin, site, value));
  }),

  ...on('createSiteChannel', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    const now = ctx.clock().toISOString();
    const channel: SiteChannelRecord = {
      id: ctx.ids(),
      type: body.type,
      setupSettings: checkedSettings(body.type, body.setupSettings),
      role: body.role ?? 'support',
      createdAt: now,
      updatedAt: now,
    };
    siteChannels.put(ctx.tx, site.id, channel.id, channel);
    const view = channelView(ctx.origin, site, channel);
    return new Reply(201, view, { Location: view.urls.location });
  }),

  ...on('getSiteChannelById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    return channelView(ctx.origin, site, requireChannel(ctx.tx, site, params.siteChannelId));
  }),

  ...on('updateSiteChannelById', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    const channel = requireChannel(ctx.tx, site, params.siteChannelId);
    if (body.type === undefined && body.setupSettings === undefined && body.role === undefined) {
      throw badRequest('Nothing to update: pass a setup (type and setupSettings), a role, or both');
    }
    if ((body.type === undefined) !== (body.setupSettings === undefined)) throw badRequest('Invalid setup: type and setupSettings go together');
    if (body.type !== undefined && body.type !== channel.type) {
      throw badRequest(`Channel ${channel.id} is a ${channel.type} channel; its type does not change (delete it and add a ${body.type} one)`);
    }
    const next: SiteChannelRecord = {
      ...channel,
      ...(body.setupSettings !== undefined ? { setupSettings: checkedSettings(channel.type, body.setupSettings) } : {}),
      ...(body.role !== undefined ? { role: body.role } : {}),
      updatedAt: ctx.clock().toISOString(),
    };
    siteChannels.put(ctx.tx, site.id, channel.id, next);
    return channelView(ctx.origin, site, next);
  }),

  ...on('deleteSiteChannelById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    if (!siteChannels.remove(ctx.tx, site.id, params.siteChannelId)) return nothingToDelete();
    return deleted();
  }),
};
