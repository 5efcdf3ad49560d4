/**
 * A site's AI agent settings (0.202 `SiteAgentSettings`): whether topics are scanned for
 * findings, whether findings open change requests, and the editing agent's instructions for the
 * site. One row per site (`siteAgentSettings`); a site that never set them answers the defaults
 * (no row is written by a read). The API's PUT replaces all three groups; the CLI's
 * `site agent set` fills what it is not given from the current settings.
 *
 * Defaults (the spec gives none): topics scanned (`auto`) but no change request opened by an
 * agent (`never`: an emulator should not promise edits nobody asked for), no instructions.
 */
import type * as routes from '../../api/routes/sites.js';
import type { StoreReader, StoreWriter } from '../../store/types.js';
import { type Handler, implementer } from '../handler.js';
import { siteAccess } from './access.js';
import { type SiteRecord, SiteTables } from './site-records.js';
import { siteLocation } from './views.js';

type Settings = routes.SiteAgentSettingsInput;

interface AgentSettingsRecord extends Settings {
  updatedAt: string;
  updatedBy: string;
}

const EMPTY_DOCUMENT = { object: 'document' as const, data: {}, nodes: [] };

export const DEFAULT_AGENT_SETTINGS: Settings = {
  scans: { topics: 'auto' },
  findings: { changeRequests: 'never' },
  editing: { customInstructions: EMPTY_DOCUMENT },
};

function agentSettingsView(tx: StoreReader, origin: string, site: SiteRecord) {
  const stored = tx.get<AgentSettingsRecord>(SiteTables.agentSettings, site.id);
  const { updatedAt, updatedBy, ...settings } = stored ?? { ...DEFAULT_AGENT_SETTINGS, updatedAt: undefined, updatedBy: undefined };
  return {
    object: 'site-agent-settings' as const,
    ...(updatedAt !== undefined ? { updatedAt } : {}),
    ...(updatedBy !== undefined ? { updatedBy } : {}),
    urls: { location: `${siteLocation(origin, site)}/agent-settings` },
    scans: settings.scans,
    findings: settings.findings,
    editing: settings.editing,
  };
}

/** Deleting a site deletes its settings. */
export function removeSiteAgentSettings(tx: StoreWriter, siteId: string): void {
  tx.delete(SiteTables.agentSettings, siteId);
}

const on = implementer<typeof routes>();

export const agentSettingsHandlers: Record<string, Handler> = {
  ...on('getSiteAgentSettingsById', (ctx, { params }) => {
    const { site } = siteAccess(ctx, params);
    return agentSettingsView(ctx.tx, ctx.origin, site);
  }),

  ...on('updateSiteAgentSettingsById', (ctx, { params, body }) => {
    const { site } = siteAccess(ctx, params);
    const record: AgentSettingsRecord = {
      scans: { topics: body.scans.topics },
      findings: { changeRequests: body.findings.changeRequests },
      editing: { customInstructions: body.editing.customInstructions },
      updatedAt: ctx.clock().toISOString(),
      updatedBy: ctx.actor.userId,
    };
    ctx.tx.put(SiteTables.agentSettings, site.id, record);
    return agentSettingsView(ctx.tx, ctx.origin, site);
  }),
};
