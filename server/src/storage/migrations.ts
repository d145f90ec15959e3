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
  {
    version: 3,
    name: 'domain scripts and webhooks',
    sql: `
      -- Scripted verification outcomes: a queue of steps per domain and team
      -- (team_id '' waits for the first team that checks the domain).
      CREATE TABLE domain_scripts (
        domain TEXT NOT NULL,
        team_id TEXT NOT NULL,
        steps TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (domain, team_id)
      );

      CREATE TABLE webhooks (
        id INTEGER PRIMARY KEY,
        public_id TEXT NOT NULL UNIQUE,
        url TEXT NOT NULL,
        -- NULL: signed with --webhook-secret.
        secret TEXT,
        -- JSON array of event types; NULL: every event.
        events TEXT,
        source TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );

      -- One row per event per webhook: the persisted queue, delivered in id order.
      CREATE TABLE webhook_deliveries (
        id INTEGER PRIMARY KEY,
        webhook_id INTEGER NOT NULL,
        event_id TEXT NOT NULL,
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at INTEGER
      );
      CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (webhook_id, state, id);

      CREATE TABLE webhook_attempts (
        id INTEGER PRIMARY KEY,
        delivery_id INTEGER NOT NULL,
        webhook_id INTEGER NOT NULL,
        attempt INTEGER NOT NULL,
        at INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        status_code INTEGER,
        error TEXT,
        response TEXT,
        ok INTEGER NOT NULL
      );
      CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, id);
      CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id);
    `,
  },
  {
    version: 4,
    name: 'list counters',
    sql: `
      -- Exact totals for the common list filters without counting index ranges:
      -- kept by triggers, so every writer (ingest, lifecycle, deletes) stays correct.
      CREATE TABLE email_counts (
        team_id TEXT NOT NULL,
        api_key_id INTEGER NOT NULL,
        status TEXT NOT NULL,
        is_read INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (team_id, api_key_id, status, is_read)
      ) WITHOUT ROWID;
      INSERT INTO email_counts SELECT team_id, api_key_id, status, is_read, COUNT(*) FROM emails GROUP BY 1, 2, 3, 4;
      CREATE TRIGGER email_counts_insert AFTER INSERT ON emails BEGIN
        INSERT INTO email_counts VALUES (NEW.team_id, NEW.api_key_id, NEW.status, NEW.is_read, 1)
          ON CONFLICT (team_id, api_key_id, status, is_read) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER email_counts_delete AFTER DELETE ON emails BEGIN
        UPDATE email_counts SET n = n - 1 WHERE team_id = OLD.team_id AND api_key_id = OLD.api_key_id AND status = OLD.status AND is_read = OLD.is_read;
      END;
      CREATE TRIGGER email_counts_update AFTER UPDATE OF status, is_read ON emails
        WHEN OLD.status != NEW.status OR OLD.is_read != NEW.is_read BEGIN
        UPDATE email_counts SET n = n - 1 WHERE team_id = OLD.team_id AND api_key_id = OLD.api_key_id AND status = OLD.status AND is_read = OLD.is_read;
        INSERT INTO email_counts VALUES (NEW.team_id, NEW.api_key_id, NEW.status, NEW.is_read, 1)
          ON CONFLICT (team_id, api_key_id, status, is_read) DO UPDATE SET n = n + 1;
      END;
      -- Dates are turned into id ranges (created_at grows with id), so this index is unused.
      DROP INDEX emails_team_created;
    `,
  },
  {
    version: 5,
    name: 'inbox filter indexes',
    sql: `
      -- The inbox filters unread mail and mail with files per mailbox; without these a
      -- sparse match walks the whole team index (~0.5 s at 100 000 emails).
      CREATE INDEX emails_team_unread ON emails (team_id, id) WHERE is_read = 0;
      CREATE INDEX emails_team_files ON emails (team_id, id) WHERE attachments > 0;
    `,
  },
  {
    version: 6,
    name: 'drop the cross-team status index',
    sql: `
      -- Every email changes status at least twice (processing, queued, final), and each
      -- change rewrote this index too. It only served a status filter across all teams
      -- (the sandbox inbox), whose total comes from email_counts and whose page is
      -- found walking ids newest first; per-team status filters use emails_team_status.
      DROP INDEX emails_status;
    `,
  },
  {
    version: 7,
    name: 'tags',
    sql: `
      -- Each email's tags as a JSON array, read with the row for lists and events, and one
      -- row per tag for filtering by tag (tag first: "emails tagged x" is an index range).
      -- NOCASE: Signup and signup are one tag, as Mailpit treats them.
      ALTER TABLE emails ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
      CREATE TABLE email_tags (
        tag TEXT NOT NULL COLLATE NOCASE,
        email_id INTEGER NOT NULL,
        PRIMARY KEY (tag, email_id)
      ) WITHOUT ROWID;
      CREATE INDEX email_tags_email ON email_tags (email_id);
    `,
  },
  {
    version: 8,
    name: 'bodies stored once',
    sql: `
      -- An API send's text and HTML parts are 7bit in its raw message, byte for byte (CRLF
      -- line breaks). They were stored three times (text, html, raw: ~290 KB per 100 KB
      -- HTML email); now only the raw message is, and this JSON says where each lies in it
      -- ({"text"|"html": {start, end, lf}}; lf: the content had bare LF line breaks). The
      -- column it replaces holds ''. NULL: text and html hold the content, as every row
      -- written before this migration does (they stay as they are, byte for byte).
      ALTER TABLE email_bodies ADD COLUMN spans TEXT;
    `,
  },
];
