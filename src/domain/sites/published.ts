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
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: true },
  pdf: { enabled: true },
  feedback: { enabled: false },
  ai: { mode: 'search' },
  advancedCustomization: { enabled: true },
  git: { showEditLink: false },
  pageActions: { externalAI: true, markdown: true, mcp: true },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  trademark: { enabled: true },
  privacyPolicy: {},
  socialPreview: {},
  insights: { trackingCookie: true },
} as const;
