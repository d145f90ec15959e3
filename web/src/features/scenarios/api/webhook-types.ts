/** Webhook shapes (CONTRACT §6), from shared/ so the page and the server cannot drift. */
export type { Webhook, WebhookAttempt, WebhookInput } from '../../../../../shared/webhooks';
