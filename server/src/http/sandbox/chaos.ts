import { Router } from 'express';
import { z } from 'zod';
import type { Services } from '../../context.js';
import { ApiError, methodNotAllowed, validationError } from '../errors.js';
import { CHAOS_OUTCOMES, MAX_SEED, ratesProblem } from '../../simulation/chaos.js';
import { jsonBody } from './query.js';

/** /sandbox/chaos: read and change the seeded random outcomes; a PUT keeps what it omits. */
const rate = (outcome: string) => z.number({ error: `rates.${outcome} must be a number between 0 and 1` }).min(0, `rates.${outcome} must be at least 0`).max(1, `rates.${outcome} must be at most 1`);

/** The body of `PUT /sandbox/chaos` (also the OpenAPI document's). */
export const chaosRequestSchema = z.strictObject({
  rates: z.strictObject(Object.fromEntries(CHAOS_OUTCOMES.map((o) => [o, rate(o).optional()])) as Record<(typeof CHAOS_OUTCOMES)[number], z.ZodOptional<z.ZodNumber>>, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `rates takes ${CHAOS_OUTCOMES.join(', ')}` : 'rates must be an object such as {"bounced": 0.05}'),
  }).optional(),
  seed: z.number({ error: 'seed must be a whole number' }).int('seed must be a whole number').min(0, 'seed must be at least 0').max(MAX_SEED, `seed must be at most ${MAX_SEED}`).optional(),
}, { error: (issue) => (issue.code === 'unrecognized_keys' ? 'chaos takes rates and seed' : undefined) });

export function sandboxChaosRouter(services: Services): Router {
  const router = Router();
  const { chaos } = services.scenarios;

  router.get('/', (_req, res) => {
    res.json({ status: 200, message: chaos.enabled ? 'Chaos is on' : 'Chaos is off', data: chaos.settings() });
  });
  router.put('/', (req, res) => {
    const parsed = chaosRequestSchema.safeParse(jsonBody(req));
    if (!parsed.success) throw validationError(parsed.error);
    const rates = { ...chaos.settings().rates, ...Object.fromEntries(Object.entries(parsed.data.rates ?? {}).filter(([, v]) => v !== undefined)) };
    const problem = ratesProblem(rates);
    if (problem) throw new ApiError(422, `Invalid rates: ${problem}`, [{ field: 'rates', message: problem }]);
    const settings = chaos.update({ rates, seed: parsed.data.seed });
    services.logger.child('sim').info(`chaos set to ${JSON.stringify(settings.rates)} seed ${settings.seed}`);
    res.json({ status: 200, message: chaos.enabled ? 'Chaos is on' : 'Chaos is off', data: settings });
  });
  router.all('/', methodNotAllowed(['GET', 'PUT']));
  return router;
}
