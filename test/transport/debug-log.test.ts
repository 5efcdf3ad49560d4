import { describe, expect, it } from 'vitest';
import { formatHeaders, redactAuthorization, redactToken, redactUrl, redactingLogger } from '../../src/transport/debug-log.js';

describe('debug-log redaction', () => {
  it('masks tokens, keeping a recognisable prefix', () => {
    expect(redactToken('gb_api_abcdefghijklmnop')).toBe('gb_api_****');
    expect(redactToken('abcdefghijklmnop')).toBe('****');
    expect(redactToken('gb_')).toBe('****');
    expect(redactAuthorization('Bearer gb_api_abcdef')).toBe('Bearer gb_api_****');
    expect(redactAuthorization('Basic YWRhOmh1bnRlcjI=')).toBe('Basic ****');
    expect(redactAuthorization('garbage')).toBe('****');
  });

  it('masks credentials and secret query parameters of URLs', () => {
    expect(redactUrl('https://user:pass@api.example.com/v1/x')).toBe('https://****:****@api.example.com/v1/x');
    expect(redactUrl('https://user@api.example.com/')).toBe('https://****@api.example.com/');
    expect(redactUrl('https://api.example.com/v1/x?token=abc&limit=2')).toBe('https://api.example.com/v1/x?token=****&limit=2');
    expect(redactUrl('https://api.example.com/v1/x?limit=2')).toBe('https://api.example.com/v1/x?limit=2');
    expect(redactUrl('not a url //u:p@h')).toBe('not a url //****@h');
  });

  it('formats headers one per line, secrets masked', () => {
    expect(
      formatHeaders({ authorization: 'Bearer gb_api_xyz123', accept: 'application/json', 'set-cookie': ['a=1', 'b=2'], x: undefined }),
    ).toEqual(['authorization: Bearer gb_api_****', 'accept: application/json', 'set-cookie: ****', 'set-cookie: ****']);
  });

  it('masks known secrets in any line as a last resort', () => {
    const lines: string[] = [];
    const log = redactingLogger((line) => lines.push(line), ['gb_api_topsecret', undefined]);
    log('error while sending gb_api_topsecret to host');
    expect(lines).toEqual(['error while sending gb_api_**** to host']);
  });
});

describe('debug-log redaction of unparsable URLs', () => {
  it('hides a password holding "/" (which stops a URL parser)', () => {
    expect(redactUrl('https://bob:Pa/ss-77@host/x.git')).toBe('https://****@host/x.git');
  });
});
