import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Config } from '../../config.js';
import { ApiError } from '../errors.js';

/**
 * Forged-request defences for /sandbox and the inbox (CONTRACT §6, §8):
 *  - Host: while bound to loopback, only localhost names (and --allowed-hosts) are
 *    answered, so a page on another site cannot reach sendbox through DNS rebinding.
 *  - Content-Type: a state change must be `application/json`, which a foreign page can
 *    only send after a CORS preflight that sendbox never answers.
 *  - `--ui-auth user:password`: HTTP basic auth on the inbox, /sandbox and its streams.
 * /v1 has its own bearer auth and is not guarded here.
 */

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True for an address that only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(h) || /^::ffff:127(?:\.\d{1,3}){3}$/.test(h);
}

/** `Host: Example.test.:8025` → `example.test`; IPv6 keeps its brackets. */
export function hostName(value: string): string {
  const v = value.trim().toLowerCase();
  const name = v.startsWith('[') ? v.slice(0, v.indexOf(']') + 1) : v.replace(/:\d*$/, '');
  return name.replace(/\.$/, '');
}

/** The names answered: loopback plus --allowed-hosts (`name`, `name:port`, `*.suffix`, a bare IPv6 address). */
function allowedNames(config: Pick<Config, 'allowedHosts'>): string[] {
  const entries = (config.allowedHosts ?? '').split(',').map((h) => h.trim()).filter(Boolean);
  const bareIpv6 = (h: string) => !h.startsWith('[') && h.split(':').length > 2;
  return [...LOOPBACK_NAMES, ...entries.map((h) => (bareIpv6(h) ? `[${h.toLowerCase()}]` : hostName(h)))];
}

/** 403 for a Host outside the configured names; a no-op when bound elsewhere without --allowed-hosts. */
export function hostGuard(config: Pick<Config, 'host' | 'allowedHosts'>): RequestHandler {
  if (!isLoopback(config.host) && !config.allowedHosts) return (_req, _res, next) => next();
  const names = allowedNames(config);
  const allowed = (name: string) => names.some((n) => (n.startsWith('*.') ? name.endsWith(n.slice(1)) : n === name));
  return (req, _res, next) => {
    const header = req.headers.host;
    if (header && allowed(hostName(header))) return next();
    next(new ApiError(403, `Host ${header ? JSON.stringify(header) : '(missing)'} is not allowed: sendbox answers ${names.join(', ')}; add a name with --allowed-hosts`));
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** `--ui-auth user:password` as HTTP basic auth (RFC 7617); a no-op without it. */
export function uiAuthGuard(config: Pick<Config, 'uiAuth'>, exempt: (path: string) => boolean = () => false): RequestHandler {
  if (!config.uiAuth) return (_req, _res, next) => next();
  // Compare digests in constant time: neither the length nor the content leaks through timing.
  const expected = digest(config.uiAuth);
  return (req, _res, next) => {
    if (exempt(req.path)) return next();
    const match = /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(req.headers.authorization ?? '');
    const given = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    if (match && timingSafeEqual(digest(given), expected)) return next();
    next(new ApiError(401, 'This sendbox needs a user name and password (--ui-auth)', undefined, { 'WWW-Authenticate': 'Basic realm="sendbox", charset="UTF-8"' }));
  };
}

/** 415 for a state-changing request that is not declared as JSON, body or not. */
export const requireJsonContentType: RequestHandler = (req, _res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') return next();
  next(new ApiError(415, `${req.method} ${req.baseUrl}${req.path} changes state, so it needs Content-Type: application/json (this keeps other web pages from forging it)`));
};

/** The guards of /sandbox, in order: Host, then auth (health stays open for probes), then Content-Type. */
export function sandboxGuards(config: Pick<Config, 'host' | 'allowedHosts' | 'uiAuth'>): RequestHandler[] {
  return [hostGuard(config), uiAuthGuard(config, (path) => path === '/health'), requireJsonContentType];
}

/** The guards of the web inbox: Host and auth; /v1 (bearer auth) and the OpenAPI document pass. */
export function inboxGuards(config: Pick<Config, 'host' | 'allowedHosts' | 'uiAuth'>): RequestHandler[] {
  const host = hostGuard(config);
  const auth = uiAuthGuard(config);
  const exempt = (path: string) => path === '/v1' || path.startsWith('/v1/') || path === '/openapi.json' || path.startsWith('/sandbox/');
  return [
    (req, res, next) => (exempt(req.path) ? next() : host(req, res, next)),
    (req, res, next) => (exempt(req.path) ? next() : auth(req, res, next)),
  ];
}
