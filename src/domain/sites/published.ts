/**
 * The customization a site has until someone customizes it (customization.ts): GitBook's
 * defaults, shaped as the spec's `SiteCustomizationSettings` (every required member).
 */
const color = (light: string, dark: string) => ({ light, dark });

export const DEFAULT_CUSTOMIZATIONS = {
  styling: {
    theme: 'clean',
    primaryColor: color('#346DDB', '#346DDB'),
    infoColor: color('#787878', '#787878'),
    successColor: color('#00C950', '#00C950'),
    warningColor: color('#FE9A00', '#FE9A00'),
    dangerColor: color('#FB2C36', '#FB2C36'),
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    codeTheme: { default: { light: 'default-light', dark: 'default-dark' }, openapi: { light: 'default-light', dark: 'default-dark' } },
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: true },
  feedback: { enabled: false },
  ai: { mode: 'search' },
  advancedCustomization: { enabled: true },
  // 0.202: the enabled page actions in menu order (0.143's pdf.enabled and git.showEditLink became `pdf` and `git`).
  pageActions: { items: ['external-ai', 'markdown', 'mcp', 'pdf'] },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  trademark: { enabled: true },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
} as const;
