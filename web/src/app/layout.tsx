import { useEffect, useState, type ReactNode } from 'react';
import { Link } from '../components/link';
import { BeakerIcon, BookIcon, GlobeIcon, InboxIcon, MenuIcon } from '../components/icons';
import { ThemeToggle } from '../components/theme-toggle';
import { useLocation, withParams } from '../lib/router';
import { apiPaths, pagePaths } from '../paths';
import { MailboxList } from '../features/mailboxes/components/mailbox-list';
import { TagList } from '../features/tags/components/tag-list';
import { useLiveEvents } from './use-live-events';
import { LiveIndicator } from './live-indicator';

const NAV = [
  { to: pagePaths.inbox, label: 'Inbox', Icon: InboxIcon, active: (p: string) => p === '/' || p.startsWith('/emails/') },
  { to: pagePaths.domains, label: 'Domains', Icon: GlobeIcon, active: (p: string) => p.startsWith('/domains') },
  { to: pagePaths.scenarios, label: 'Scenarios', Icon: BeakerIcon, active: (p: string) => p.startsWith('/scenarios') },
];

/** Sidebar (pages, mailboxes, live status, theme) and the page beside it; on a phone the sidebar is a drawer. */
export function Layout({ children }: { children: ReactNode }) {
  const live = useLiveEvents();
  const { pathname, search } = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const team = search.get('team');
  useEffect(() => setDrawerOpen(false), [pathname, search]);

  // A mailbox filters the page you are on; from an open email it goes back to the list.
  const mailboxHref = (teamId: string | null) => {
    const base = pathname.startsWith('/domains') ? pagePaths.domains : pathname.startsWith('/scenarios') ? pagePaths.scenarios : pagePaths.inbox;
    return withParams(base, new URLSearchParams(), { team: teamId });
  };
  const keepTeam = (to: string) => withParams(to, new URLSearchParams(), { team });

  return (
    <div className="app" data-drawer={drawerOpen ? 'open' : 'closed'}>
      <header className="topbar">
        <button type="button" className="btn btn-ghost btn-icon" aria-label="Menu" aria-expanded={drawerOpen} onClick={() => setDrawerOpen((v) => !v)}>
          <MenuIcon size={18} />
        </button>
        <Brand />
        <LiveIndicator status={live} />
      </header>
      <div className="drawer-backdrop" onClick={() => setDrawerOpen(false)} />
      <aside className="sidebar" aria-label="Sidebar">
        <div className="sidebar-brand">
          <Brand />
        </div>
        <nav aria-label="Pages" className="nav">
          {NAV.map(({ to, label, Icon, active }) => (
            <Link key={to} to={keepTeam(to)} className="nav-item" aria-current={active(pathname) ? 'page' : undefined}>
              <Icon size={17} />
              {label}
            </Link>
          ))}
          {/* A server page, not one of the inbox's: a full navigation. */}
          <a href={apiPaths.docs} className="nav-item">
            <BookIcon size={17} />
            API docs
          </a>
        </nav>
        <MailboxList selected={team} hrefFor={mailboxHref} />
        <TagList teamId={team} hrefFor={(tag) => withParams(pagePaths.inbox, new URLSearchParams(), { team, q: `tag:${/[\s"]/.test(tag) ? `"${tag.replace(/"/g, '')}"` : tag}` })} />
        <div className="sidebar-footer">
          <LiveIndicator status={live} />
          <ThemeToggle />
        </div>
      </aside>
      <main className="main">{children}</main>
    </div>
  );
}

function Brand() {
  return (
    <Link to={pagePaths.inbox} className="brand" aria-label="sendbox home">
      <span className="brand-mark" aria-hidden="true">
        <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinejoin="round"><path d="M3 6h18v12H3z" /><path d="m3 7 9 7 9-7" /></svg>
      </span>
      sendbox
    </Link>
  );
}
