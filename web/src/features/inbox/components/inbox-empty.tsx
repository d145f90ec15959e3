import { EmptyState } from '../../../components/states';
import { InboxIcon, SearchIcon } from '../../../components/icons';
import { CopyButton } from '../../../components/copy-button';

/** An empty mailbox teaches the one command that fills it; an empty search says so. */
export function InboxEmpty({ filtered }: { filtered: boolean }) {
  if (filtered) {
    return (
      <EmptyState icon={<SearchIcon size={28} />} title="No emails match">
        <p>Try fewer filters, or clear the search.</p>
      </EmptyState>
    );
  }
  const command = [
    `curl ${window.location.origin}/v1/send \\`,
    `  -H 'Authorization: Bearer test-key' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"to":"me@example.com","subject":"Hi","body":"<b>It works</b>"}'`,
  ].join('\n');
  return (
    <EmptyState icon={<InboxIcon size={28} />} title="No emails yet">
      <p>Send one through the API or SMTP and it appears here at once.</p>
      <div className="snippet">
        <pre>{command}</pre>
        <CopyButton value={command.replace(/\\\n\s*/g, '')} label="the curl command" />
      </div>
    </EmptyState>
  );
}
