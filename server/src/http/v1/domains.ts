import { Router, type Request } from 'express';
import { addDomainSchema } from '../../../../shared/domain.js';
import { ApiError, validationError, methodNotAllowed } from '../errors.js';
import { principalOf } from '../auth.js';
import { requireJsonObject } from '../body.js';
import { presentDomain } from '../../domains/records.js';
import { addDomain, deleteDomain, findDomain, verifyDomain } from '../../domains/service.js';
import type { Services } from '../../context.js';

/** `?domain=`: required on verify and delete, optional on get (absent lists). */
function domainParam(req: Request, required: boolean): string | undefined {
  const value = req.query.domain;
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ApiError(400, 'Query parameter domain is required, once, e.g. ?domain=example.com', [{ field: 'domain', message: 'required' }]);
  }
  return value;
}

/** /v1/domains: add, get or list, verify, delete. */
export function domainsRouter(services: Services): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    const parsed = addDomainSchema.safeParse(requireJsonObject(req));
    if (!parsed.success) throw validationError(parsed.error);
    const identity = await addDomain(services, principalOf(req).teamId, parsed.data.value);
    res.status(201).json({ status: 201, message: 'Domain added', data: identity });
  });

  router.get('/', (req, res) => {
    const teamId = principalOf(req).teamId;
    const name = domainParam(req, false);
    if (name === undefined) {
      res.json({ status: 200, message: 'Domains retrieved successfully', data: services.domains.list(teamId).map(presentDomain) });
      return;
    }
    res.json({ status: 200, message: 'Domain retrieved successfully', data: presentDomain(findDomain(services, teamId, name)) });
  });

  router.delete('/', (req, res) => {
    const row = findDomain(services, principalOf(req).teamId, domainParam(req, true)!);
    deleteDomain(services, row);
    res.json({ status: 200, message: 'Domain deleted', data: null });
  });
  router.all('/', methodNotAllowed(['GET', 'POST', 'DELETE']));

  router.post('/verify', async (req, res) => {
    const row = findDomain(services, principalOf(req).teamId, domainParam(req, true)!);
    res.json({ status: 200, message: 'Domain verification checked', data: await verifyDomain(services, row) });
  });
  router.all('/verify', methodNotAllowed(['POST']));
  return router;
}
