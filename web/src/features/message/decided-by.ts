/** `decided_by` (CONTRACT §8) in words a person reads. */
export function decidedByText(decidedBy: string): string {
  if (decidedBy.startsWith('rule:')) return `rule #${decidedBy.slice(5)}`;
  switch (decidedBy) {
    case 'header':
      return 'X-Sendbox-Outcome header';
    case 'plus-tag':
      return 'plus-tag in the address';
    case 'simulator':
      return 'simulator address';
    case 'invalid-domain':
      return '.invalid domain';
    case 'chaos':
      return 'chaos';
    case 'default':
      return 'default';
    case 'forced':
      return 'forced';
    default:
      return decidedBy || 'not decided yet';
  }
}
