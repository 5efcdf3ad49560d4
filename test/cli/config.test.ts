import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { resolveSettings } from '../../src/cli/config.js';

const env = (values: Record<string, string> = {}) => ({ HOME: '/home/u', XDG_DATA_HOME: '/data', ...values }) as NodeJS.ProcessEnv;
const config = {
  currentProfile: 'work',
  profiles: {
    work: { endpoint: 'https://api.example.com', token: 'gb_api_work', org: 'org-work' },
    scratch: { store: '/tmp/scratch', org: 'org-scratch' },
  },
};

describe('settings: flag > environment > profile > default', () => {
  it('is local on the default store with no configuration at all', () => {
    const s = resolveSettings({}, env(), {});
    expect(s).toMatchObject({ mode: 'local', storeDir: '/data/docsctl/store', endpoint: undefined, token: undefined });
  });

  it('takes the current profile', () => {
    expect(resolveSettings({}, env(), config)).toMatchObject({
      mode: 'remote',
      endpoint: 'https://api.example.com',
      token: 'gb_api_work',
      org: 'org-work',
      profileName: 'work',
    });
  });

  it('lets --profile and DOCSCTL_PROFILE pick another profile', () => {
    expect(resolveSettings({ profile: 'scratch' }, env(), config)).toMatchObject({ mode: 'local', storeDir: '/tmp/scratch', org: 'org-scratch' });
    expect(resolveSettings({}, env({ DOCSCTL_PROFILE: 'scratch' }), config)).toMatchObject({ mode: 'local', storeDir: '/tmp/scratch' });
  });

  it('prefers environment variables over the profile and flags over both', () => {
    expect(resolveSettings({}, env({ DOCSCTL_TOKEN: 'gb_api_env', DOCSCTL_ORG: 'o-env' }), config)).toMatchObject({ token: 'gb_api_env', org: 'o-env' });
    expect(resolveSettings({ token: 'gb_api_flag', org: 'o-flag' }, env({ DOCSCTL_TOKEN: 'gb_api_env' }), config)).toMatchObject({
      token: 'gb_api_flag',
      org: 'o-flag',
    });
  });

  it('selects local mode when a store is given explicitly, even if the profile is remote', () => {
    expect(resolveSettings({ store: '/s' }, env(), config)).toMatchObject({ mode: 'local', storeDir: '/s', endpoint: undefined });
    expect(resolveSettings({}, env({ DOCSCTL_STORE: '/e' }), config)).toMatchObject({ mode: 'local', storeDir: '/e' });
  });

  it('selects remote mode with an endpoint, without leaking the profile token to another endpoint', () => {
    const s = resolveSettings({ endpoint: 'http://127.0.0.1:4000' }, env(), config);
    expect(s).toMatchObject({ mode: 'remote', endpoint: 'http://127.0.0.1:4000', token: undefined });
  });

  it("applies the profile's organization only to the profile's own store or endpoint", () => {
    // The same store, written another way: the organization applies.
    expect(resolveSettings({ profile: 'scratch', store: '/tmp/scratch/' }, env(), config).org).toBe('org-scratch');
    expect(resolveSettings({ profile: 'scratch' }, env({ DOCSCTL_STORE: '/tmp/../tmp/scratch' }), config).org).toBe('org-scratch');
    // Another store or an endpoint: its ids are not the profile's.
    expect(resolveSettings({ profile: 'scratch', store: '/tmp/other' }, env(), config).org).toBeUndefined();
    expect(resolveSettings({ profile: 'scratch' }, env({ DOCSCTL_STORE: '/tmp/other' }), config).org).toBeUndefined();
    expect(resolveSettings({ profile: 'scratch', endpoint: 'http://127.0.0.1:4000' }, env(), config).org).toBeUndefined();
    expect(resolveSettings({ store: '/s' }, env(), config).org).toBeUndefined();
    expect(resolveSettings({ endpoint: 'http://127.0.0.1:4000' }, env(), config).org).toBeUndefined();
    // An explicit organization still wins everywhere.
    expect(resolveSettings({ store: '/s', org: 'o-flag' }, env(), config).org).toBe('o-flag');
    // A profile with neither store nor endpoint targets the default store.
    const plain = { currentProfile: 'p', profiles: { p: { org: 'org-default' } } };
    expect(resolveSettings({}, env(), plain).org).toBe('org-default');
    expect(resolveSettings({ store: '/data/docsctl/store' }, env(), plain).org).toBe('org-default');
    expect(resolveSettings({ store: '/elsewhere' }, env(), plain).org).toBeUndefined();
  });

  it('rejects an unknown profile named explicitly', () => {
    expect(() => resolveSettings({ profile: 'nope' }, env(), config)).toThrow(UsageError);
    expect(() => resolveSettings({ profile: 'nope' }, env(), config)).toThrow(/Unknown profile "nope"/);
  });
});
