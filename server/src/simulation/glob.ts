/**
 * Case-insensitive globs for rule matching and wait's `to`: `*` is any run of characters,
 * `?` exactly one. Bracket and brace syntax is refused rather than silently taken literally.
 */

const MAX_GLOB = 320;

/** A plain-language reason the pattern is not a usable glob, or null when it is fine. */
export function globProblem(pattern: string): string | null {
  if (pattern.length === 0) return 'must not be empty';
  if (pattern.length > MAX_GLOB) return `must be at most ${MAX_GLOB} characters`;
  if (/[\s\x00-\x1f\x7f]/.test(pattern)) return 'must not contain spaces or control characters';
  if (/[[\]{}]/.test(pattern)) return 'only * and ? are supported as wildcards ([ ] { } are not)';
  return null;
}

export interface GlobMatcher {
  test(value: string): boolean;
}

/**
 * Compiles a glob (validate with `globProblem` first). Matching is the greedy two-pointer
 * wildcard walk, O(pattern × text) at worst: a RegExp of `.*` runs would backtrack
 * exponentially on patterns like `*a*a*a*a*b`, and the wait endpoint takes globs from anyone.
 */
export function compileGlob(pattern: string): GlobMatcher {
  const p = [...pattern.toLowerCase()];
  return {
    test(value: string): boolean {
      const s = [...value.toLowerCase()];
      let pi = 0;
      let si = 0;
      let star = -1;
      let resume = 0;
      while (si < s.length) {
        if (pi < p.length && (p[pi] === '?' || (p[pi] !== '*' && p[pi] === s[si]))) {
          pi++;
          si++;
        } else if (pi < p.length && p[pi] === '*') {
          star = pi++;
          resume = si;
        } else if (star >= 0) {
          // Let the last star swallow one more character and retry from there.
          pi = star + 1;
          si = ++resume;
        } else {
          return false;
        }
      }
      while (pi < p.length && p[pi] === '*') pi++;
      return pi === p.length;
    },
  };
}

/** The longest run without wildcards: a cheap substring prefilter for storage queries. */
export function longestLiteral(pattern: string): string {
  return pattern.split(/[*?]+/).reduce((best, part) => (part.length > best.length ? part : best), '');
}
