import { describe, expect, it } from 'vitest';
import { pathSegments } from './workspace-path.ts';

describe('pathSegments', () => {
  it('splits relative paths, dropping . and empty segments', () => {
    expect(pathSegments('a/b.md')).toEqual({ ok: true, value: ['a', 'b.md'] });
    expect(pathSegments('./a//b/')).toEqual({ ok: true, value: ['a', 'b'] });
    expect(pathSegments('.')).toEqual({ ok: true, value: [] });
    expect(pathSegments('..a/b..')).toEqual({ ok: true, value: ['..a', 'b..'] });
  });

  it('quotes a long refused path briefly, never splitting a surrogate pair', () => {
    for (let at = 70; at <= 80; at++) {
      const result = pathSegments(`${'a'.repeat(at)}\u{1F600}${'/..'.repeat(400)}`);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      const quoted = /^Path (".*") is/.exec(result.error.message)?.[1] ?? '""';
      expect((JSON.parse(quoted) as string).length).toBeLessThanOrEqual(80);
      expect(result.error.message).not.toMatch(/\p{Cs}/u);
    }
  });

  it('refuses what could leave the root, naming the rule', () => {
    const cases: [unknown, string][] = [
      ['../etc/passwd', 'contains "..", which could leave the workspace'],
      ['a/../../b', 'contains "..", which could leave the workspace'],
      ['/etc/passwd', 'is absolute; use a path relative to the workspace root'],
      ['C:/Windows', 'is absolute; use a path relative to the workspace root'],
      ['a\\..\\b', 'contains a backslash; use / between folders'],
      ['todos.yaml\0.png', 'contains a NUL byte'],
      ['', 'must be a non-empty string'],
      [42, 'must be a non-empty string'],
      ['x'.repeat(1025), 'is longer than 1024 characters'],
    ];
    for (const [path, rule] of cases) {
      const result = pathSegments(path);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('path_invalid');
        expect(result.error.message).toContain(rule);
      }
    }
  });
});
