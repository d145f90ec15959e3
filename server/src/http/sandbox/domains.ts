import { Router, type Request } from 'express';
import { z } from 'zod';
import type { Services } from '../../context.js';
import type { DomainRow } from '../../storage/domains.js';
import { ApiError, methodNotAllowed, validationError } from '../errors.js';
import { requireJsonObject } from '../body.js';
import { normalizeDomain } from '../../domains/names.js';
import { presentDomain } from '../../domains/records.js';
import { addDomain, deleteDomain, domainName, findDomain, verifyDomain } from '../../domains/service.js';
import { clearScript, presentScript, setScript, TEAM_ID } from '../../domains/scripts.js';

/** A single-valued query parameter; 400 when repeated, or when required and absent. */
function query(req: Request, name: string, required: true): string;
function query(req: Request, name: string, required: false): string | undefined;
function query(req: Request, name: string, required: boolean): string | undefined {
  const value = req.query[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new ApiError(400, `Query parameter ${name} is required, once`, [{ field: name, message: 'required' }]);
  return value;
}

/**
 * A domain by name, across teams: `team_id` chooses the team; without it the name must
 * belong to exactly one team (two teams may each add the same domain).
 */
function locate(services: Services, teamId: string | undefined, input: string): DomainRow {
  if (teamId !== undefined) return findDomain(services, teamId, input);
  const name = normalizeDomain(input);
  const rows = 'value' in name ? services.domains.findAllTeams(name.value) : [];
  if (rows.length === 0) throw new ApiError(404, `Domain ${input} not found`);
  if (rows.length > 1) throw new ApiError(400, `Domain ${rows[0].value} exists for ${rows.length} teams (${rows.map((r) => r.team_id).join(', ')}): pass ?team_id= to choose one`, [{ field: 'team_id', message: 'required when several teams have the domain' }]);
  return rows[0];
}

/** The body of `POST /sandbox/domains` (also the OpenAPI document's). */
export const addTeamDomainRequestSchema = z.strictObject({
  team_id: z.string({ error: 'team_id is required and must be a string' }).regex(TEAM_ID, 'team_id must be a team id such as team_0123456789ab'),
  value: z.string({ error: 'value is required and must be a string' }),
});

/** /sandbox/domains: every team's domains, and scripted verification outcomes (CONTRACT §5, §6). */
export function sandboxDomainsRouter(services: Services): Router {
  const router = Router();
  const scripts = services.domainScripts;

  router.get('/', (req, res) => {
    const teamId = query(req, 'team_id', false);
    const name = query(req, 'domain', false);
    let rows = services.domains.list(teamId ?? null);
    if (name !== undefined) {
      const value = domainName(name, 'domain');
      rows = rows.filter((row) => row.value === value);
    }
    res.json({ status: 200, message: 'Domains retrieved successfully', data: rows.map(presentDomain) });
  });

  router.post('/', async (req, res) => {
    const parsed = addTeamDomainRequestSchema.safeParse(requireJsonObject(req));
    if (!parsed.success) throw validationError(parsed.error);
    const identity = await addDomain(services, parsed.data.team_id, parsed.data.value);
    res.status(201).json({ status: 201, message: 'Domain added', data: identity });
  });

  router.delete('/', (req, res) => {
    deleteDomain(services, locate(services, query(req, 'team_id', false), query(req, 'domain', true)));
    res.json({ status: 200, message: 'Domain deleted', data: null });
  });
  router.all('/', methodNotAllowed(['GET', 'POST', 'DELETE']));

  router.post('/verify', async (req, res) => {
    const row = locate(services, query(req, 'team_id', false), query(req, 'domain', true));
    res.json({ status: 200, message: 'Domain verification checked', data: await verifyDomain(services, row) });
  });
  router.all('/verify', methodNotAllowed(['POST']));

  router.put('/:domain/verification', (req, res) => {
    const data = setScript(services, scripts, req.params.domain, requireJsonObject(req));
    res.json({ status: 200, message: 'Verification script set', data });
  });

  router.get('/:domain/verification', (req, res) => {
    const data = scripts.list(domainName(req.params.domain, 'domain')).map(presentScript);
    res.json({ status: 200, message: 'Verification scripts retrieved', data });
  });

  router.delete('/:domain/verification', (req, res) => {
    clearScript(scripts, req.params.domain, query(req, 'team_id', false));
    res.json({ status: 200, message: 'Verification script cleared', data: null });
  });
  router.all('/:domain/verification', methodNotAllowed(['GET', 'PUT', 'DELETE']));
  return router;
}
