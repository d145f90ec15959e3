import { describe, expect, it } from 'vitest';
import { compileGlob, globProblem, longestLiteral } from './glob.js';

describe('globs', () => {
  it.each([
    ['alice@example.com', 'ALICE@Example.com', true],
    ['*@example.com', 'bob@example.com', true],
    ['*@example.com', 'bob@example.org', false],
    ['*+late@*', 'jane+late@acme.test', true],
    ['*+late@*', 'jane@acme.test', false],
    ['user?@x.test', 'user1@x.test', true],
    ['user?@x.test', 'user12@x.test', false],
    ['a.b@x.test', 'aXb@x.test', false],
    ['*', '', true],
    ['*é*', 'josé@x.test', true],
  ])('%s matches %s: %s', (pattern, value, expected) => {
    expect(compileGlob(pattern).test(value)).toBe(expected);
  });

  it('stays linear on patterns that make backtracking regexes explode', () => {
    expect(compileGlob('*a'.repeat(40) + 'b').test('a'.repeat(320))).toBe(false);
  });

  it('explains what is wrong with a pattern', () => {
    expect(globProblem('')).toBe('must not be empty');
    expect(globProblem('a b')).toBe('must not contain spaces or control characters');
    expect(globProblem('[ab]')).toBe('only * and ? are supported as wildcards ([ ] { } are not)');
    expect(globProblem('x'.repeat(321))).toBe('must be at most 320 characters');
    expect(globProblem('*@x.test')).toBeNull();
  });

  it('finds the longest literal run for storage prefilters', () => {
    expect(longestLiteral('*+late@acme.test')).toBe('+late@acme.test');
    expect(longestLiteral('*')).toBe('');
  });
});
