import { describe, expect, it } from 'vitest';
import { copyJson } from '../../src/util/json-copy.js';

describe('copyJson', () => {
  it('copies a JSON value deeply: equal, key order kept, nothing shared', () => {
    const value = JSON.parse('{"b":1,"a":[{"x":null,"y":[true,"s"]}],"c":{"d":{"e":2.5}}}') as Record<string, unknown>;
    const copy = copyJson(value);
    expect(copy).toEqual(value);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    expect(copy.a).not.toBe(value.a);
    ((copy.c as { d: { e: number } }).d).e = 3;
    expect((value.c as { d: { e: number } }).d.e).toBe(2.5);
  });

  it('keeps an own __proto__ key as a key (it does not become the prototype)', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"ok":1}') as Record<string, unknown>;
    const copy = copyJson(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__', 'ok']);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"ok":1}');
  });

  it('returns primitives and null as they are', () => {
    for (const value of [null, 0, 'text', false]) expect(copyJson(value)).toBe(value);
  });
});
