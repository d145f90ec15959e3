import { Router } from 'express';
import type { Mailbox } from '../../../../shared/sandbox.js';
import type { Services } from '../../context.js';
import { methodNotAllowed } from '../errors.js';

/** GET /sandbox/teams: the inbox's mailboxes — every team with mail or with a key. */
export function sandboxTeamsRouter(services: Services): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    const boxes = new Map<string, Mailbox>();
    const box = (teamId: string) => {
      let found = boxes.get(teamId);
      if (!found) boxes.set(teamId, (found = { team_id: teamId, total: 0, unread: 0, api_keys: [] }));
      return found;
    };
    for (const { team_id, total, unread } of services.emails.teamCounts()) Object.assign(box(team_id), { total, unread });
    for (const p of services.keys.principals()) box(p.teamId).api_keys.push({ api_key_id: p.apiKeyId, key_hint: p.keyHint });
    const data = [...boxes.values()].sort((a, b) => a.team_id.localeCompare(b.team_id));
    for (const mailbox of data) mailbox.api_keys.sort((a, b) => a.api_key_id - b.api_key_id);
    res.json({ status: 200, message: 'Teams retrieved successfully', data });
  });
  router.all('/', methodNotAllowed(['GET']));
  return router;
}
