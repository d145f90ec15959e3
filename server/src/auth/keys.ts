import { createHash, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { KeyStore } from '../storage/keys.js';
import { ConfigError } from '../config.js';

/** Who a key is: its team and its api_key_id. */
export interface Principal {
  teamId: string;
  apiKeyId: number;
  /** Last 4 characters, the only part ever logged or shown. */
  keyHint: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A key is printable ASCII without spaces, at most 256 characters. */
export const isWellFormedKey = (key: string) => /^[\x21-\x7E]{1,256}$/.test(key);

/** The team of an open-mode key: `team_` + the first 12 hex of sha256(key). */
export const openTeamId = (key: string) => `team_${sha256(key).slice(0, 12)}`;

const configuredSchema = z.array(z.object({
  key: z.string().refine(isWellFormedKey, 'key must be printable ASCII without spaces'),
  team_id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'team_id must be letters, digits, _ . -'),
  api_key_id: z.number().int().positive().optional(),
}));

interface ConfiguredKey {
  hash: Buffer;
  /** Kept for CRAM-MD5, whose server side needs the password itself. */
  key: string;
  principal: Principal;
}

/**
 * Resolves keys to principals. Open mode registers unknown keys on first use;
 * configured mode accepts only the listed keys, compared in constant time.
 */
export class KeyRegistry {
  private readonly configured: ConfiguredKey[] | null;
  private readonly cache = new Map<string, Principal>();

  constructor(private readonly store: KeyStore, keysSetting: string | undefined, private readonly now: () => number) {
    this.configured = keysSetting === undefined ? null : parseKeys(keysSetting);
  }

  get mode(): 'open' | 'configured' {
    return this.configured ? 'configured' : 'open';
  }

  resolve(key: string): Principal | null {
    if (!isWellFormedKey(key)) return null;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const principal = this.configured ? this.matchConfigured(key) : this.registerOpen(key);
    // The cache is bounded: a flood of random keys must not grow memory forever.
    if (principal && this.cache.size < 10_000) this.cache.set(key, principal);
    return principal;
  }

  /**
   * CRAM-MD5 (RFC 2195) sends only the user name and an HMAC of the password, so the
   * server must know the password. Configured mode: the key whose HMAC matches (the user
   * name is free, as for PLAIN). Open mode has never seen the key: the user name is the
   * key, and the password must be that key too.
   */
  resolveChallenge(username: string, validates: (password: string) => boolean): Principal | null {
    if (!this.configured) return isWellFormedKey(username) && validates(username) ? this.resolve(username) : null;
    let found: string | null = null;
    // Every key is tried, so the time taken does not depend on which one matched.
    for (const candidate of this.configured) {
      if (validates(candidate.key)) found = candidate.key;
    }
    return found === null ? null : this.resolve(found);
  }

  /** Every known principal (for the inbox's mailboxes). */
  principals(): Principal[] {
    if (this.configured) return this.configured.map((k) => k.principal);
    return this.store.all().map((row) => ({ teamId: row.team_id, apiKeyId: row.id, keyHint: row.last4 }));
  }

  private matchConfigured(key: string): Principal | null {
    const hash = createHash('sha256').update(key).digest();
    let found: Principal | null = null;
    // Compare against every key so the time taken does not depend on which one matched.
    for (const candidate of this.configured!) {
      if (timingSafeEqual(candidate.hash, hash)) found = candidate.principal;
    }
    return found;
  }

  private registerOpen(key: string): Principal {
    const row = this.store.register(sha256(key), openTeamId(key), key.slice(-4), this.now());
    return { teamId: row.team_id, apiKeyId: row.id, keyHint: row.last4 };
  }
}

/** `--keys`: a JSON file, or `team:key,team:key` (api_key_id 1, 2, 3 … in order). */
export function parseKeys(setting: string): ConfiguredKey[] {
  let entries: { key: string; team_id: string; api_key_id?: number }[];
  if (existsSync(setting)) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(setting, 'utf8'));
    } catch (error) {
      throw new ConfigError(`--keys file ${setting} is not valid JSON: ${(error as Error).message}`, 'keys');
    }
    const parsed = configuredSchema.safeParse(json);
    if (!parsed.success) throw new ConfigError(`--keys file ${setting}: ${parsed.error.issues[0].path.join('.')} ${parsed.error.issues[0].message}`, 'keys');
    entries = parsed.data;
  } else {
    entries = setting.split(',').map((pair) => pair.trim()).filter(Boolean).map((pair) => {
      const colon = pair.indexOf(':');
      if (colon <= 0 || colon === pair.length - 1) throw new ConfigError('SENDBOX_KEYS / --keys must be a JSON file or team:key,team:key', 'keys');
      return { team_id: pair.slice(0, colon), key: pair.slice(colon + 1) };
    });
    const parsed = configuredSchema.safeParse(entries);
    if (!parsed.success) throw new ConfigError(`--keys entry ${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}`, 'keys');
  }
  if (entries.length === 0) throw new ConfigError('--keys lists no keys', 'keys');
  const used = new Set<number>();
  return entries.map((entry, index) => {
    const apiKeyId = entry.api_key_id ?? index + 1;
    if (used.has(apiKeyId)) throw new ConfigError(`--keys: api_key_id ${apiKeyId} is used twice`, 'keys');
    used.add(apiKeyId);
    return { hash: createHash('sha256').update(entry.key).digest(), key: entry.key, principal: { teamId: entry.team_id, apiKeyId, keyHint: entry.key.slice(-4) } };
  });
}
