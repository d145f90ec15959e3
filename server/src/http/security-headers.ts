import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';

/**
 * Browser-facing defences on every answer: no MIME sniffing, no Referer leaking an
 * email id, never framed by another page (clickjacking), and a deny-all CSP so that a
 * JSON or .eml answer opened as a page can run nothing. The inbox page replaces the
 * CSP with its own (`inboxCsp`); attachment downloads with a sandboxing one.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
};
const SECURITY_HEADER_LIST = Object.entries(SECURITY_HEADERS);

export const securityHeaders: RequestHandler = (_req, res, next) => {
  for (const [name, value] of SECURITY_HEADER_LIST) res.setHeader(name, value);
  next();
};

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/**
 * The inbox page's CSP: its own scripts only (the inline theme script by its hash), API
 * calls and the event stream to this origin only, no plugins, never framed. The HTML
 * preview is an srcdoc frame, which inherits this policy on top of its own strict one,
 * so an email's inline styles and its remote, data: and cid: images stay allowed here.
 */
export function inboxCsp(indexHtml: string): string {
  const hashes = [...indexHtml.matchAll(INLINE_SCRIPT)].map(([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  return [
    "default-src 'self'",
    ["script-src 'self'", ...hashes].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: cid: https: http:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
