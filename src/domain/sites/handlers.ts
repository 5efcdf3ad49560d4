/** Every handler of the sites area (API doc §4.3–4.7 and the real API's publish/structure routes). */
import type { Handler } from '../handler.js';
import { customizationHandlers } from './customization.js';
import { mcpServerHandlers } from './mcp-servers.js';
import { redirectHandlers } from './redirects.js';
import { shareLinkHandlers } from './share-links.js';
import { siteHandlers } from './site-handlers.js';
import { structureHandlers } from './structure-handlers.js';

export const sitesAreaHandlers: Record<string, Handler> = {
  ...siteHandlers,
  ...structureHandlers,
  ...shareLinkHandlers,
  ...customizationHandlers,
  ...redirectHandlers,
  ...mcpServerHandlers,
};
