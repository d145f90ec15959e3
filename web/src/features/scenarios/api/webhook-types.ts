/**
 * Webhook shapes (CONTRACT §6), mirroring shared/webhooks.ts field for field.
 */
export interface Webhook {
  id: string;
  url: string;
  events: string[] | null;
  secret: string;
  secret_source: 'webhook' | 'flag' | 'generated';
  source: 'api' | 'flag';
  created_at: string;
  deliveries: { pending: number; delivered: number; failed: number };
}

export interface WebhookInput {
  url: string;
  secret?: string;
  events?: string[];
}

export interface WebhookAttempt {
  id: number;
  event_id: string;
  event_type: string;
  attempt: number;
  created_at: string;
  success: boolean;
  status_code: number | null;
  error: string | null;
  response: string | null;
  duration_ms: number;
  delivery_state: 'pending' | 'delivered' | 'failed';
  next_attempt_at: string | null;
}
