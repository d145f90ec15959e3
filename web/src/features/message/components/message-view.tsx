import { useEffect, useRef } from 'react';
import { ApiError } from '../../../lib/api-client';
import { EmptyState, ErrorState, Loading } from '../../../components/states';
import { MailIcon } from '../../../components/icons';
import { useEmail } from '../api/get-email';
import { useSetRead } from '../api/set-read';
import { MessageHeader } from './message-header';
import { MessageToolbar } from './message-toolbar';
import { MessageTabs, type MessageTab } from './message-tabs';

export interface MessageNeighbours {
  newerHref: string | null;
  olderHref: string | null;
  /** "3 of 50" */
  position: string | null;
}

interface MessageViewProps {
  id: string;
  neighbours: MessageNeighbours;
  tab: MessageTab | null;
  onTab: (tab: MessageTab) => void;
  backHref: string;
  onDeleted: () => void;
}

/** One email: who/what/when, actions, and the tabs that show its body and its delivery story. */
export function MessageView({ id, neighbours, tab, onTab, backHref, onDeleted }: MessageViewProps) {
  const { data: email, isPending, error, refetch } = useEmail(id);
  const { mutate: markRead } = useSetRead();
  const markedRead = useRef<string | null>(null);

  // Opening an unread email reads it. Only the first sight counts, so "Mark unread" sticks.
  useEffect(() => {
    if (!email || markedRead.current === email.id) return;
    markedRead.current = email.id;
    if (!email.is_read) markRead({ id: email.id, read: true });
  }, [email, markRead]);

  if (isPending) return <Loading label="Loading the email" />;
  if (error instanceof ApiError && error.status === 404) {
    return (
      <EmptyState icon={<MailIcon size={28} />} title="This email is gone">
        <p>It was deleted, or pruned by retention.</p>
      </EmptyState>
    );
  }
  if (!email) return <ErrorState error={error} title="The email could not be loaded" onRetry={() => void refetch()} />;

  return (
    <article className="message" aria-label={`Email: ${email.subject || '(no subject)'}`}>
      <MessageToolbar email={email} neighbours={neighbours} backHref={backHref} onDeleted={onDeleted} />
      <MessageHeader email={email} />
      <MessageTabs email={email} tab={tab} onTab={onTab} />
    </article>
  );
}
