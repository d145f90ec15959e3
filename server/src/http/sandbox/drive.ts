import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { Services } from '../../context.js';
import { ApiError, validationError } from '../errors.js';
import { buildView } from '../../emails/view.js';
import { emailParam, jsonBody } from './query.js';

/**
 * `POST /sandbox/emails/{id}/events` (CONTRACT §6, §8): force an outcome along the
 * recipient state machine, or simulate an open or a click. Without `recipient` the event
 * applies to every recipient it can; when none can, or the named one cannot, → 409.
 */
const TYPES = ['delivered', 'bounced', 'failed', 'complaint', 'open', 'click'] as const;

/** The body of `POST /sandbox/emails/{id}/events` (also the OpenAPI document's). */
export const forceEventRequestSchema = z.strictObject({
  type: z.enum(TYPES, { error: `type must be one of ${TYPES.join(', ')}` }),
  recipient: z.string({ error: 'recipient must be an address string' }).min(3).max(254).optional(),
  url: z.string({ error: 'url must be a string' }).max(2048).regex(/^https?:\/\/\S+$/i, 'url must be an http(s) URL').optional(),
}, { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field; allowed: type, recipient, url` : undefined) });

export function forceEventHandler(services: Services): RequestHandler {
  const { emails, lifecycle, emailService, clock } = services;
  return async (req, res) => {
    const row = emailParam(services, req);
    const parsed = forceEventRequestSchema.safeParse(jsonBody(req));
    if (!parsed.success) throw validationError(parsed.error);
    const { type, recipient, url } = parsed.data;
    if (url !== undefined && type !== 'click') throw new ApiError(422, 'url only goes with type click', [{ field: 'url', message: 'only for click' }]);

    if (type === 'open' || type === 'click') {
      const recipients = emails.recipients(row.id);
      const chosen = recipient === undefined ? recipients : recipients.filter((r) => r.address.toLowerCase() === recipient.toLowerCase());
      if (chosen.length === 0) throw new ApiError(422, `${recipient} is not a recipient of this email`, [{ field: 'recipient', message: 'not a recipient' }]);
      // A complaint comes after a delivery, so its recipient did receive the email.
      const reached = chosen.filter((r) => r.state === 'delivered' || r.state === 'complaint');
      if (reached.length === 0) throw new ApiError(409, `An ${type} needs a delivered recipient: ${chosen.map((r) => `${r.address} is ${r.state}`).join(', ')}`);
      emailService.recordEngagement(row, type, reached.map((r) => r.address), url ?? null, clock.now());
    } else {
      const result = lifecycle.force(row.id, type, recipient ?? null);
      if (!result.ok) {
        throw result.reason === 'unknown-recipient'
          ? new ApiError(422, result.message, [{ field: 'recipient', message: 'not a recipient' }])
          : new ApiError(409, `Cannot force ${type}: ${result.message}`);
      }
    }
    res.json({ status: 200, message: `Applied ${type}`, data: await buildView(services, emails.get(row.id)!) });
  };
}
