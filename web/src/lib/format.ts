/** Display helpers: times, sizes and address parts, the way a mail client shows them. */

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayMonth = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const dayMonthYear = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** Today → "14:05", this year → "Mar 3", older → "Mar 3, 2024". */
export function shortDate(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  if (date.toDateString() === now.toDateString()) return time.format(date);
  if (date.getFullYear() === now.getFullYear()) return dayMonth.format(date);
  return dayMonthYear.format(date);
}

export function fullDate(iso: string | number): string {
  const date = typeof iso === 'number' ? new Date(iso) : new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : full.format(date);
}

/** Log entries carry whole Unix seconds. */
export function unixTime(seconds: number): string {
  return full.format(new Date(seconds * 1000));
}

export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** "Alice <alice@x.com>" → { name: "Alice", address: "alice@x.com" }; a bare address has no name. */
export function splitAddress(display: string): { name: string; address: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(display);
  if (match) return { name: match[1].trim(), address: match[2].trim() };
  return { name: '', address: display.trim() };
}

/** The name when there is one, else the address. */
export function displayName(display: string): string {
  const { name, address } = splitAddress(display);
  return name || address;
}

export function formatNumber(value: number): string {
  return value.toLocaleString();
}
