import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../lib/query-client';
import { matchPath, useLocation } from '../lib/router';
import { Layout } from './layout';
import { InboxRoute } from './routes/inbox-route';
import { DomainsRoute } from './routes/domains-route';
import { ScenariosRoute } from './routes/scenarios-route';
import { NotFoundRoute } from './routes/not-found-route';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <Routes />
    </QueryClientProvider>
  );
}

/** The four pages; the inbox is also the message page, so the list stays beside the open email. */
function Routes() {
  const { pathname } = useLocation();
  const email = matchPath('/emails/:id', pathname);
  const domain = matchPath('/domains/:id', pathname);
  let page;
  if (pathname === '/' || email) page = <InboxRoute emailId={email?.id ?? null} />;
  else if (pathname === '/domains' || domain) page = <DomainsRoute domainId={domain?.id ?? null} />;
  else if (pathname === '/scenarios') page = <ScenariosRoute />;
  else page = <NotFoundRoute />;
  return <Layout>{page}</Layout>;
}
