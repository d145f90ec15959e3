import type { Db } from './db.js';

export interface WebhookRow {
  id: number;
  public_id: string;
  url: string;
  secret: string | null;
  events: string | null;
  source: 'api' | 'flag';
  created_at: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveryRow {
  id: number;
  webhook_id: number;
  event_id: string;
  type: string;
  body: string;
  created_at: number;
  state: DeliveryState;
  attempts: number;
  next_at: number | null;
}

export type NewDelivery = Pick<DeliveryRow, 'webhook_id' | 'event_id' | 'type' | 'body' | 'created_at'>;

export interface AttemptRow {
  id: number;
  delivery_id: number;
  webhook_id: number;
  attempt: number;
  at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response: string | null;
  ok: number;
}

export type NewAttempt = Omit<AttemptRow, 'id'>;

/** An attempt with the event it carried, for the sandbox view. */
export type AttemptView = AttemptRow & { event_id: string; type: string; state: DeliveryState; next_at: number | null };

export interface DeliveryCounts {
  pending: number;
  delivered: number;
  failed: number;
}

/** Webhooks, their persisted delivery queue and every attempt (CONTRACT §6). */
export class WebhookStore {
  constructor(private readonly db: Db) {}

  insert(webhook: Omit<WebhookRow, 'id'>): WebhookRow {
    this.db.prepare('INSERT INTO webhooks (public_id, url, secret, events, source, created_at) VALUES (@public_id, @url, @secret, @events, @source, @created_at)').run(webhook);
    return this.find(webhook.public_id)!;
  }

  /** The --webhook-url webhook follows the flags of each start. */
  upsertFlag(publicId: string, url: string, now: number): WebhookRow {
    const existing = this.find(publicId);
    if (!existing) return this.insert({ public_id: publicId, url, secret: null, events: null, source: 'flag', created_at: now });
    this.db.prepare('UPDATE webhooks SET url = ? WHERE id = ?').run(url, existing.id);
    return this.find(publicId)!;
  }

  find(publicId: string): WebhookRow | undefined {
    return this.db.prepare('SELECT * FROM webhooks WHERE public_id = ?').get(publicId) as WebhookRow | undefined;
  }

  list(): WebhookRow[] {
    return this.db.prepare('SELECT * FROM webhooks ORDER BY id').all() as WebhookRow[];
  }

  /** Deletes a webhook with its queue and attempts. */
  delete(id: number): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM webhook_attempts WHERE webhook_id = ?').run(id);
      this.db.prepare('DELETE FROM webhook_deliveries WHERE webhook_id = ?').run(id);
      this.db.prepare('DELETE FROM webhooks WHERE id = ?').run(id);
    })();
  }

  /** Queues events in one transaction (the bus may publish thousands per second). */
  enqueue(deliveries: NewDelivery[]): void {
    const insert = this.db.prepare("INSERT INTO webhook_deliveries (webhook_id, event_id, type, body, created_at, state, next_at) VALUES (@webhook_id, @event_id, @type, @body, @created_at, 'pending', @created_at)");
    this.db.transaction(() => {
      for (const delivery of deliveries) insert.run(delivery);
    })();
  }

  /** The head of a webhook's queue: deliveries go out strictly in order. */
  nextPending(webhookId: number): DeliveryRow | undefined {
    return this.db.prepare("SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND state = 'pending' ORDER BY id LIMIT 1").get(webhookId) as DeliveryRow | undefined;
  }

  pendingCount(webhookId: number): number {
    return this.db.prepare("SELECT count(*) FROM webhook_deliveries WHERE webhook_id = ? AND state = 'pending'").pluck().get(webhookId) as number;
  }

  counts(webhookId: number): DeliveryCounts {
    const rows = this.db.prepare('SELECT state, count(*) AS n FROM webhook_deliveries WHERE webhook_id = ? GROUP BY state').all(webhookId) as { state: DeliveryState; n: number }[];
    const counts: DeliveryCounts = { pending: 0, delivered: 0, failed: 0 };
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  /** Records an attempt and moves its delivery on, in one transaction. */
  recordAttempt(attempt: NewAttempt, next: { state: DeliveryState; nextAt: number | null }): void {
    this.db.transaction(() => {
      this.db.prepare('INSERT INTO webhook_attempts (delivery_id, webhook_id, attempt, at, duration_ms, status_code, error, response, ok) VALUES (@delivery_id, @webhook_id, @attempt, @at, @duration_ms, @status_code, @error, @response, @ok)').run(attempt);
      this.db.prepare('UPDATE webhook_deliveries SET state = ?, attempts = ?, next_at = ? WHERE id = ?').run(next.state, attempt.attempt, next.nextAt, attempt.delivery_id);
    })();
  }

  /** The latest `limit` attempts of a webhook, newest first. */
  attempts(webhookId: number, limit: number): AttemptView[] {
    return this.db.prepare(`SELECT a.*, d.event_id, d.type, d.state, d.next_at FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE a.webhook_id = ? ORDER BY a.id DESC LIMIT ?`).all(webhookId, limit) as AttemptView[];
  }

  /** Keeps the newest `keep` finished deliveries of a webhook (and their attempts). */
  prune(webhookId: number, keep: number): void {
    this.db.transaction(() => {
      const cutoff = this.db.prepare("SELECT id FROM webhook_deliveries WHERE webhook_id = ? AND state != 'pending' ORDER BY id DESC LIMIT 1 OFFSET ?").pluck().get(webhookId, keep) as number | undefined;
      if (cutoff === undefined) return;
      this.db.prepare("DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE webhook_id = ? AND state != 'pending' AND id <= ?)").run(webhookId, cutoff);
      this.db.prepare("DELETE FROM webhook_deliveries WHERE webhook_id = ? AND state != 'pending' AND id <= ?").run(webhookId, cutoff);
    })();
  }
}
