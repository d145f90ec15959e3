import type { SandboxEmail } from '../../../../../shared/sandbox';
import { Tabs, type TabItem } from '../../../components/tabs';
import { HtmlPanel } from './panels/html-panel';
import { TextPanel } from './panels/text-panel';
import { SourcePanel } from './panels/source-panel';
import { HeadersPanel } from './panels/headers-panel';
import { AttachmentsPanel } from './panels/attachments-panel';
import { DeliveryPanel } from './panels/delivery-panel';
import { LinksPanel } from './panels/links-panel';
import { ChecksPanel } from './panels/checks-panel';
import { CompatPanel } from './panels/compat-panel';
import { SpamPanel } from './panels/spam-panel';
import { LinkCheckPanel } from './panels/link-check-panel';
import { AuthPanel } from './panels/auth-panel';

export const MESSAGE_TABS = ['html', 'text', 'source', 'headers', 'attachments', 'delivery', 'links', 'checks', 'compatibility', 'spam', 'link-check', 'auth'] as const;
export type MessageTab = (typeof MESSAGE_TABS)[number];

export const isMessageTab = (value: string | null): value is MessageTab => (MESSAGE_TABS as readonly string[]).includes(value ?? '');

/** The views of one email, then the quality lab's four checks; HTML first when there is HTML, else the text. */
export function MessageTabs({ email, tab, onTab }: { email: SandboxEmail; tab: MessageTab | null; onTab: (tab: MessageTab) => void }) {
  const hasHtml = email.metadata.html.trim() !== '';
  const selected: MessageTab = tab ?? (hasHtml ? 'html' : 'text');
  const worst = email.checks.some((c) => c.severity === 'error') ? 'red' : email.checks.some((c) => c.severity === 'warning') ? 'amber' : undefined;
  const items: TabItem<MessageTab>[] = [
    { key: 'html', label: 'HTML' },
    { key: 'text', label: 'Text' },
    { key: 'source', label: 'Source' },
    { key: 'headers', label: 'Headers', count: email.headers.length },
    { key: 'attachments', label: 'Attachments', count: email.files.length },
    { key: 'delivery', label: 'Delivery' },
    { key: 'links', label: 'Links & codes', count: email.links.length + email.codes.length },
    { key: 'checks', label: 'Checks', count: email.checks.length, tone: worst },
    { key: 'compatibility', label: 'Compatibility' },
    { key: 'spam', label: 'Spam' },
    { key: 'link-check', label: 'Link check' },
    { key: 'auth', label: 'Authentication' },
  ];
  return (
    <div className="message-tabs">
      <Tabs items={items} selected={selected} onSelect={onTab} label="Email views">
        <Panel email={email} tab={selected} />
      </Tabs>
    </div>
  );
}

function Panel({ email, tab }: { email: SandboxEmail; tab: MessageTab }) {
  switch (tab) {
    case 'html':
      return <HtmlPanel email={email} />;
    case 'text':
      return <TextPanel email={email} />;
    case 'source':
      return <SourcePanel email={email} />;
    case 'headers':
      return <HeadersPanel email={email} />;
    case 'attachments':
      return <AttachmentsPanel email={email} />;
    case 'delivery':
      return <DeliveryPanel email={email} />;
    case 'links':
      return <LinksPanel email={email} />;
    case 'checks':
      return <ChecksPanel email={email} />;
    case 'compatibility':
      return <CompatPanel id={email.id} />;
    case 'spam':
      return <SpamPanel id={email.id} />;
    case 'link-check':
      return <LinkCheckPanel id={email.id} linkCount={email.links.length} />;
    case 'auth':
      return <AuthPanel id={email.id} />;
  }
}
