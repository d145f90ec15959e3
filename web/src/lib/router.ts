import { useSyncExternalStore } from 'react';

/**
 * A router small enough to read in one go: the location lives in the History API, components
 * subscribe with useLocation(), and navigate() pushes or replaces. The inbox has four pages,
 * so a dependency would cost more than it saves.
 */

const NAVIGATED = 'sendbox:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATED, onChange);
  };
}

const snapshot = () => window.location.pathname + window.location.search;

export interface Location {
  pathname: string;
  search: URLSearchParams;
}

let lastKey = '';
let lastLocation: Location = { pathname: '/', search: new URLSearchParams() };

/** The current path and query; re-renders on every navigation. */
export function useLocation(): Location {
  const key = useSyncExternalStore(subscribe, snapshot, snapshot);
  if (key !== lastKey) {
    const url = new URL(key, 'http://inbox.local');
    lastKey = key;
    lastLocation = { pathname: url.pathname, search: url.searchParams };
  }
  return lastLocation;
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATED));
}

/** `path` with the given query parameters changed (null or '' removes one). */
export function withParams(path: string, current: URLSearchParams, changes: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams(current);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') params.delete(key);
    else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Matches `/emails/:id`-style patterns; returns the decoded parameters or null. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/:([a-z]+)/gi, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const found = new RegExp(`^${source}/?$`).exec(pathname);
  if (!found) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1])]));
}
