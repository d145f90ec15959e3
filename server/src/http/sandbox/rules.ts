import { Router, type Request } from 'express';
import type { Services } from '../../context.js';
import { ApiError, methodNotAllowed, validationError } from '../errors.js';
import { parseRule } from '../../simulation/rule-schema.js';
import { jsonBody } from './query.js';

/** /sandbox/rules (CONTRACT §8): create (201), list, read, delete one, clear. */
export function sandboxRulesRouter(services: Services): Router {
  const router = Router();
  const { rules } = services.scenarios;

  const ruleId = (req: Request): number => {
    const id = String(req.params.id);
    const rule = /^\d{1,15}$/.test(id) ? rules.get(Number(id)) : undefined;
    if (!rule) throw new ApiError(404, `Rule ${id.slice(0, 40)} not found`);
    return rule.id;
  };

  router.post('/', (req, res) => {
    const parsed = parseRule(jsonBody(req));
    if (!parsed.success) throw validationError(parsed.error);
    res.status(201).json({ status: 201, message: 'Rule created', data: rules.add(parsed.data) });
  });
  router.get('/', (_req, res) => {
    res.json({ status: 200, message: 'Rules retrieved successfully', data: rules.list() });
  });
  router.delete('/', (_req, res) => {
    const deleted = rules.clear(null);
    res.json({ status: 200, message: `Deleted ${deleted} rule${deleted === 1 ? '' : 's'}`, data: { deleted } });
  });
  router.all('/', methodNotAllowed(['GET', 'POST', 'DELETE']));

  router.get('/:id', (req, res) => {
    res.json({ status: 200, message: 'Rule retrieved successfully', data: rules.get(ruleId(req)) });
  });
  router.delete('/:id', (req, res) => {
    rules.remove(ruleId(req));
    res.json({ status: 200, message: 'Rule deleted', data: null });
  });
  router.all('/:id', methodNotAllowed(['GET', 'DELETE']));
  return router;
}
