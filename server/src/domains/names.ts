import { domainToASCII } from 'node:url';

/**
 * Normalizes a domain name: trims, lower-cases, drops one trailing dot, turns an
 * internationalized name into punycode (RFC 3492). Returns null with a reason when invalid.
 */
export function normalizeDomain(input: string): { value: string } | { error: string } {
  let name = input.trim().toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '') return { error: 'domain name is empty' };
  if (name.length > 253) return { error: 'domain name is longer than 253 characters' };
  if (/[\s\x00-\x1F\x7F]/.test(name)) return { error: 'domain name must not contain spaces or control characters' };
  if (!/^[\x21-\x7E]+$/.test(name)) {
    const ascii = domainToASCII(name);
    if (!ascii) return { error: 'domain name is not a valid internationalized name' };
    name = ascii;
  }
  const labels = name.split('.');
  if (labels.length < 2) return { error: 'domain name needs at least one dot (e.g. example.com)' };
  for (const label of labels) {
    if (label.length === 0) return { error: 'domain name has an empty label (two dots in a row)' };
    if (label.length > 63) return { error: `label "${label.slice(0, 20)}…" is longer than 63 characters` };
    // RFC 1123 §2.1: letters, digits and hyphens, not starting or ending with a hyphen.
    if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(label)) return { error: `label "${label}" must be letters, digits and inner hyphens` };
  }
  if (/^\d+$/.test(labels[labels.length - 1])) return { error: 'the top-level label cannot be all digits' };
  if (name.length > 253) return { error: 'domain name is longer than 253 characters' };
  return { value: name };
}
