/**
 * Numbered, append-only migrations. Never edit a shipped one: add the next number.
 * Applied in order at start and recorded in `schema_migrations`.
 */
export const MIGRATIONS: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'init',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY,
        key_hash TEXT NOT NULL UNIQUE,
        team_id TEXT NOT NULL,
        last4 TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );

      -- Public ids are an encoding of this integer key (storage/ids.ts).
      CREATE TABLE emails (
        id INTEGER PRIMARY KEY,
        team_id TEXT NOT NULL,
        api_key_id INTEGER NOT NULL,
        source TEXT NOT NULL,
        message_id TEXT NOT NULL,
        from_address TEXT NOT NULL,
        from_name TEXT NOT NULL,
        to_addresses TEXT NOT NULL,
        subject TEXT NOT NULL,
        size INTEGER NOT NULL,
        inline INTEGER NOT NULL,
        attachments INTEGER NOT NULL,
        snippet TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        metadata TEXT NOT NULL,
        opened_at INTEGER,
        delivered_at INTEGER,
        click_count INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        credits_used INTEGER NOT NULL,
        is_read INTEGER NOT NULL DEFAULT 0,
        flags TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX emails_team ON emails (team_id, id);
      CREATE INDEX emails_team_status ON emails (team_id, status, id);
      CREATE INDEX emails_team_key ON emails (team_id, api_key_id, id);
      CREATE INDEX emails_team_created ON emails (team_id, created_at);
      CREATE INDEX emails_status ON emails (status, id);
      CREATE INDEX emails_created ON emails (created_at);

      -- Content lives apart so that list queries scan narrow rows.
      CREATE TABLE email_bodies (
        email_id INTEGER PRIMARY KEY,
        text TEXT NOT NULL,
        html TEXT NOT NULL,
        raw BLOB NOT NULL
      );

      CREATE TABLE recipients (
        email_id INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        address TEXT NOT NULL,
        type TEXT NOT NULL,
        state TEXT NOT NULL,
        outcome TEXT NOT NULL,
        outcome_code TEXT,
        outcome_response TEXT,
        outcome_delay_ms INTEGER NOT NULL DEFAULT 0,
        decided_by TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        due_at INTEGER,
        queued_at INTEGER,
        PRIMARY KEY (email_id, idx)
      ) WITHOUT ROWID;
      CREATE INDEX recipients_due ON recipients (due_at) WHERE due_at IS NOT NULL;

      CREATE TABLE email_logs (
        id INTEGER PRIMARY KEY,
        email_id INTEGER NOT NULL,
        recipient TEXT NOT NULL,
        recipient_type TEXT NOT NULL,
        status TEXT NOT NULL,
        code TEXT NOT NULL,
        response TEXT NOT NULL,
        mx_hostname TEXT NOT NULL,
        time INTEGER NOT NULL,
        queued_at INTEGER
      );
      CREATE INDEX email_logs_email ON email_logs (email_id, id);

      -- Opens and clicks, for the inbox and the sandbox view.
      CREATE TABLE email_events (
        id INTEGER PRIMARY KEY,
        email_id INTEGER NOT NULL,
        type TEXT NOT NULL,
        recipient TEXT NOT NULL,
        url TEXT,
        at INTEGER NOT NULL
      );
      CREATE INDEX email_events_email ON email_events (email_id, id);

      -- Substring search (CONTRACT §3) without a full scan; rowid = emails.id.
      CREATE VIRTUAL TABLE email_search USING fts5 (subject, recipients, sender, tokenize = 'trigram');

      CREATE TABLE domains (
        id INTEGER PRIMARY KEY,
        public_id TEXT NOT NULL UNIQUE,
        team_id TEXT NOT NULL,
        value TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        verified_at INTEGER,
        last_checked_at INTEGER NOT NULL,
        status TEXT NOT NULL,
        error_type TEXT NOT NULL DEFAULT '',
        selector TEXT NOT NULL,
        dkim_public TEXT NOT NULL,
        dkim_private TEXT NOT NULL,
        spf_include TEXT NOT NULL,
        bounce_host TEXT NOT NULL,
        records TEXT NOT NULL,
        verified_for_sending INTEGER NOT NULL DEFAULT 0,
        UNIQUE (team_id, value)
      );
    `,
  },
  {
    version: 2,
    name: 'sandbox rules',
    sql: `
      -- Scenario rules (CONTRACT §8); AUTOINCREMENT so a deleted rule's id is never reused
      -- (emails keep "rule:<id>" as the source of their outcome).
      CREATE TABLE rules (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        team_id TEXT,
        match TEXT NOT NULL,
        action TEXT NOT NULL,
        times INTEGER,
        nth INTEGER,
        uses INTEGER NOT NULL DEFAULT 0,
        matches INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
    `,
  },
];
