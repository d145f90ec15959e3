import { Router } from 'express';
import { z } from 'zod';
import type { ResetResult } from '../../../../shared/sandbox.js';
import type { Services } from '../../context.js';
import { methodNotAllowed, validationError } from '../errors.js';
import { jsonBody } from './query.js';
import { announceDeleted } from '../../domains/service.js';

/**
 * POST /sandbox/reset (CONTRACT §6, §8): empties emails, rules and domains — of every
 * team, or of the one in `{"team_id"}` — and announces what went.
 */
/** The optional body of `POST /sandbox/reset` (also the OpenAPI document's). */
export const resetRequestSchema = z.strictObject({
  team_id: z.string({ error: 'team_id must be a string' }).regex(/^[A-Za-z0-9_.-]{1,64}$/, 'team_id must be a team id such as team_0123456789ab').optional(),
}, { error: (issue) => (issue.code === 'unrecognized_keys' ? 'reset takes only team_id' : undefined) });

export function sandboxResetRouter(services: Services): Router {
  const router = Router();
  const { emails, emailService, domains, scenarios, db } = services;

  router.post('/', (req, res) => {
    const parsed = resetRequestSchema.safeParse(jsonBody(req, true));
    if (!parsed.success) throw validationError(parsed.error);
    const teamId = parsed.data.team_id ?? null;
    const goneDomains = domains.list(teamId);
    const result: ResetResult = db.transaction(() => ({
      team_id: teamId,
      emails: emails.deleteTeam(teamId),
      rules: scenarios.rules.clear(teamId),
      domains: domains.deleteTeam(teamId),
    }))();
    scenarios.runResetHooks(teamId);
    emailService.cleared(teamId);
    announceDeleted(services, goneDomains);
    services.logger.child('sim').info(`reset ${teamId ?? 'every team'}: ${result.emails} emails, ${result.rules} rules, ${result.domains} domains`);
    res.json({ status: 200, message: `Reset ${teamId ?? 'every team'}`, data: result });
  });
  router.all('/', methodNotAllowed(['POST']));
  return router;
}
