/**
 * Which list of patterns a GitBook Agent channel takes, by tool (0.202 `SiteChannelSetup`):
 * shared by the handler that checks a setup and the CLI that builds one from `--allow`.
 * Plain data: loads neither zod nor a route module.
 */
export type SiteChannelType = 'builtin:slack' | 'builtin:linear' | 'builtin:github' | 'builtin:discord';

export const CHANNEL_SETTING: Readonly<Record<SiteChannelType, 'allowedChannels' | 'allowedTeams' | 'allowedRepositories'>> = {
  'builtin:slack': 'allowedChannels',
  'builtin:discord': 'allowedChannels',
  'builtin:linear': 'allowedTeams',
  'builtin:github': 'allowedRepositories',
};
