import type { Db } from './db.js';

export interface KeyRow {
  id: number;
  key_hash: string;
  team_id: string;
  last4: string;
}

/** API keys registered in open mode (configured keys live in config, not here). */
export class KeyStore {
  private readonly byHash;
  private readonly insert;

  constructor(private readonly db: Db) {
    this.byHash = db.prepare('SELECT id, key_hash, team_id, last4 FROM api_keys WHERE key_hash = ?');
    this.insert = db.prepare('INSERT INTO api_keys (key_hash, team_id, last4, created_at) VALUES (?, ?, ?, ?)');
  }

  find(hash: string): KeyRow | undefined {
    return this.byHash.get(hash) as KeyRow | undefined;
  }

  /** Registers a key on first use; api_key_id is the row id (1, 2, 3 …). */
  register(hash: string, teamId: string, last4: string, now: number): KeyRow {
    const existing = this.find(hash);
    if (existing) return existing;
    const id = Number(this.insert.run(hash, teamId, last4, now).lastInsertRowid);
    return { id, key_hash: hash, team_id: teamId, last4 };
  }

  all(): KeyRow[] {
    return this.db.prepare('SELECT id, key_hash, team_id, last4 FROM api_keys ORDER BY id').all() as KeyRow[];
  }
}
