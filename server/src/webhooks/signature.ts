import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `X-Sendbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (CONTRACT §6).
 * The timestamp is signed with the body so a captured request cannot be replayed later
 * under a fresh time; each attempt is signed anew.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${hmac(secret, `${unixSeconds}.${body}`)}`;
}

function hmac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/**
 * Checks a signature header against the raw body, in constant time. `toleranceSeconds`
 * rejects a timestamp too far from `now` (replays); 0 skips that check.
 */
export function verifySignature(header: string, body: string, secret: string, options: { toleranceSeconds?: number; now?: number } = {}): boolean {
  const parts = new Map(header.split(',').map((part) => {
    const at = part.indexOf('=');
    return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
  }));
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (!t || !/^\d+$/.test(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return false;
  const tolerance = options.toleranceSeconds ?? 300;
  if (tolerance > 0 && Math.abs((options.now ?? Date.now()) / 1000 - Number(t)) > tolerance) return false;
  return timingSafeEqual(Buffer.from(hmac(secret, `${t}.${body}`), 'hex'), Buffer.from(v1, 'hex'));
}
