import { z } from 'zod';
import { isValidAddress } from './address.js';

/** At most as many recipients as one send may have (CONTRACT §3). */
export const MAX_RELEASE_RECIPIENTS = 50;

/** `POST /sandbox/emails/{id}/release`: where to send the stored message. */
export const releaseRequestSchema = z.strictObject({
  to: z.array(z.string().trim().refine(isValidAddress, 'must be a bare email address'))
    .min(1, 'must list at least one recipient')
    .max(MAX_RELEASE_RECIPIENTS, `must list at most ${MAX_RELEASE_RECIPIENTS} recipients`),
});
export type ReleaseRequest = z.infer<typeof releaseRequestSchema>;

/** What the relay said: the message went to `to` through `relay`. */
export const releaseResultSchema = z.object({
  id: z.string(),
  to: z.array(z.string()),
  from: z.string(),
  relay: z.string().describe('host:port of the relay'),
  response: z.string().describe('The relay\'s final reply, e.g. 250 2.0.0 Ok'),
  resent_message_id: z.string(),
});
export type ReleaseResult = z.infer<typeof releaseResultSchema>;

/** `GET /sandbox/relay`: whether release is set up, where it goes and to whom it may. */
export const relayInfoSchema = z.object({
  configured: z.boolean(),
  relay: z.string().nullable().describe('host:port, never the credentials'),
  allow: z.array(z.string()).describe('--relay-allow globs; empty refuses every release'),
  auto: z.array(z.string()).describe('--relay-auto globs'),
});
export type RelayInfo = z.infer<typeof relayInfoSchema>;
