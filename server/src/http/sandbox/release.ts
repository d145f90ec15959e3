import { Router } from 'express';
import { releaseRequestSchema } from '../../../../shared/release.js';
import type { Services } from '../../context.js';
import { ApiError, methodNotAllowed, validationError } from '../errors.js';
import { emailParam, jsonBody } from './query.js';
import { ReleaseRefused } from '../../relay/relay.js';

const STATUS: Record<ReleaseRefused['reason'], number> = {
  // The server is not set up for it: not the request's fault, and not a server fault.
  'not-configured': 409,
  'not-allowed': 403,
  // The relay answered with an error or not at all: a gateway problem (RFC 9110 §15.6.3).
  'relay-failed': 502,
};

/** POST /sandbox/emails/{id}/release {"to": [...]}: send the stored message through --relay. */
export function sandboxReleaseRouter(services: Services): Router {
  const router = Router();
  router.post('/:id/release', async (req, res) => {
    const row = emailParam(services, req);
    const parsed = releaseRequestSchema.safeParse(jsonBody(req));
    if (!parsed.success) throw validationError(parsed.error);
    try {
      const data = await services.relay.release(row.id, parsed.data.to);
      res.json({ status: 200, message: `Released to ${data.to.length} recipient${data.to.length === 1 ? '' : 's'}`, data });
    } catch (error) {
      if (error instanceof ReleaseRefused) throw new ApiError(STATUS[error.reason], error.message);
      throw error;
    }
  });
  router.all('/:id/release', methodNotAllowed(['POST']));
  return router;
}

/** GET /sandbox/relay: whether release is set up (the inbox shows its release button from this). */
export function sandboxRelayRouter(services: Services): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    res.json({ status: 200, message: services.relay.info.configured ? 'Release is set up' : 'Release is off: no --relay', data: services.relay.info });
  });
  router.all('/', methodNotAllowed(['GET']));
  return router;
}
