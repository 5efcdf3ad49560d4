import { describe, expect, it } from 'vitest';
import { PathMatcher } from '../../src/api/match.js';
import { routes } from '../../src/api/table.js';

/** A concrete path for a template: each `{name}` becomes `name-value` (`pagePath` spans two segments). */
function concrete(path: string): { url: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const url = path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const value = name === 'pagePath' ? 'guides/set up' : `${name}-v`;
    params[name] = value;
    return value.split('/').map(encodeURIComponent).join('/');
  });
  return { url, params };
}

describe('the precompiled router', () => {
  const matcher = new PathMatcher(routes);

  it('matches every route of the table to itself, with its params decoded', () => {
    for (const route of routes) {
      const { url, params } = concrete(route.path);
      const found = matcher.match(route.method, url);
      expect(found?.item.id, `${route.method} ${url}`).toBe(route.id);
      expect(found?.params).toEqual(params);
      const slashed = url.endsWith('/') ? url : `${url}/`; // GET /v1/ (getApiInformation) has its own
      expect(matcher.match(route.method, slashed)?.item.id, 'trailing slash').toBe(route.id);
    }
  });

  it('prefers a literal segment over a parameter, and backtracks when the literal branch dead-ends', () => {
    const m = new PathMatcher([
      { method: 'GET', path: '/v1/spaces/{spaceId}' },
      { method: 'GET', path: '/v1/spaces/search' },
      { method: 'GET', path: '/v1/spaces/{spaceId}/links' },
      { method: 'GET', path: '/v1/spaces/{spaceId}/content/path/{pagePath}' },
      { method: 'GET', path: '/v1/spaces/{spaceId}/content/path/{pagePath}/backlinks' },
    ] as const);
    expect(m.match('GET', '/v1/spaces/search')?.item.path).toBe('/v1/spaces/search');
    expect(m.match('GET', '/v1/spaces/search/links')?.params).toEqual({ spaceId: 'search' });
    expect(m.match('GET', '/v1/spaces/s/content/path/a/b/c')?.params).toEqual({ spaceId: 's', pagePath: 'a/b/c' });
    expect(m.match('GET', '/v1/spaces/s/content/path/a/b/backlinks')?.item.path).toMatch(/backlinks$/);
    expect(m.match('get', '/v1/spaces/x')?.params).toEqual({ spaceId: 'x' });
  });

  it('answers nothing for unknown paths, empty segments and malformed escapes; lists the methods of a path', () => {
    expect(matcher.match('GET', '/v1/nope')).toBeUndefined();
    expect(matcher.match('GET', '/v1/spaces/')).toBeUndefined();
    expect(matcher.match('GET', '/v1/spaces//')).toBeUndefined();
    expect(matcher.match('GET', '/v1/spaces/%E0%A4%A')).toBeUndefined();
    expect(matcher.match('GET', 'v1/spaces/x')).toBeUndefined();
    expect(matcher.match('BREW', '/v1/spaces/x')).toBeUndefined();
    expect(matcher.methodsFor('/v1/spaces/x').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    expect(matcher.methodsFor('/v1/nope')).toEqual([]);
  });
});
