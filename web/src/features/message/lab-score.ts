import type { HtmlCheckClient, HtmlCheckFeature, Support } from '../../../../shared/lab';

const CREDIT: Record<Support, number> = { yes: 1, partial: 0.5, no: 0, unknown: 1 };

/** The server's scores, for the clients a filter keeps: share of opens (0–100), partial counts half. */
export function featureScore(feature: HtmlCheckFeature, clients: HtmlCheckClient[]): number {
  const total = clients.reduce((sum, c) => sum + c.weight, 0);
  if (total === 0) return 100;
  return Math.round((clients.reduce((sum, c) => sum + c.weight * CREDIT[feature.support[c.id]?.support ?? 'unknown'], 0) / total) * 1000) / 10;
}

/** Share of opens whose client supports every feature (its worst support counts). */
export function emailScore(features: HtmlCheckFeature[], clients: HtmlCheckClient[]): number {
  const total = clients.reduce((sum, c) => sum + c.weight, 0);
  if (total === 0 || features.length === 0) return 100;
  const rendered = clients.reduce((sum, c) => sum + c.weight * Math.min(...features.map((f) => CREDIT[f.support[c.id]?.support ?? 'unknown'])), 0);
  return Math.round((rendered / total) * 1000) / 10;
}

export const scoreTone = (score: number) => (score >= 90 ? 'green' : score >= 70 ? 'amber' : 'red');
