/**
 * Email address parsing shared by the API validation, SMTP ingest and the inbox.
 * Accepts a bare address or the display form `Name <address>` / `"Doe, J" <address>`.
 */

export interface ParsedAddress {
  /** Display name, unquoted; "" when none was given. */
  name: string;
  /** Bare address as given (case preserved). */
  address: string;
}

// RFC 5321 §4.1.2 dot-atom local part, plus UTF-8 (RFC 6531) characters.
// Quoted local parts are rare in transactional mail and are not accepted.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u0080-\uFFFF-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u0080-\uFFFF-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9\u0080-\uFFFF]([A-Za-z0-9\u0080-\uFFFF-]*[A-Za-z0-9\u0080-\uFFFF])?$/;

/** True for a bare address with a dot-atom local part and a dotted domain (RFC 5321 lengths). */
export function isValidAddress(address: string): boolean {
  if (address.length > 254) return false;
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return false;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => label.length > 0 && label.length <= 63 && DOMAIN_LABEL.test(label));
}

/** Parses `addr` or `Name <addr>`; returns null when the form or the address is invalid. */
export function parseAddress(input: string): ParsedAddress | null {
  const value = input.trim();
  if (value === '' || /[\r\n]/.test(value)) return null;
  const angle = /^(.*?)\s*<([^<>]*)>$/.exec(value);
  if (!angle) {
    return isValidAddress(value) ? { name: '', address: value } : null;
  }
  let name = angle[1].trim();
  const address = angle[2].trim();
  if (name.startsWith('"') && name.endsWith('"') && name.length >= 2) {
    name = name.slice(1, -1).replace(/\\(.)/g, '$1');
  } else if (/[<>"]/.test(name)) {
    return null;
  }
  return isValidAddress(address) ? { name, address } : null;
}

/** The display form kept in metadata: `Name <address>` or the bare address. */
export function formatAddress({ name, address }: ParsedAddress): string {
  return name ? `${name} <${address}>` : address;
}

/** The domain of a bare address, lower-cased. */
export function addressDomain(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}
