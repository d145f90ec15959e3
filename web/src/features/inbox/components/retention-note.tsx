import { formatNumber } from '../../../lib/format';
import { useHealth } from '../api/get-health';

const UNITS: Record<string, [string, string]> = { m: ['minute', 'minutes'], h: ['hour', 'hours'], d: ['day', 'days'] };

/** `7d` → "7 days". */
function age(value: string): string {
  const match = /^(\d+)([mhd])$/i.exec(value.trim());
  if (!match) return value;
  const n = Number(match[1]);
  const [one, many] = UNITS[match[2].toLowerCase()];
  return `${n} ${n === 1 ? one : many}`;
}

/** The retention in force (--max-emails, --max-age), so nobody wonders where old mail went. */
export function RetentionNote() {
  const { data } = useHealth();
  const retention = data?.retention;
  if (!retention) return null;
  const parts = [`the newest ${formatNumber(retention.max_emails)} emails`];
  if (retention.max_age) parts.push(`for ${age(retention.max_age)}`);
  return <p className="retention-note">Retention: keeps {parts.join(', each ')}.</p>;
}
