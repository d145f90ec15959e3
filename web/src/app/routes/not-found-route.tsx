import { Link } from '../../components/link';
import { EmptyState } from '../../components/states';
import { pagePaths } from '../../paths';

export function NotFoundRoute() {
  return (
    <div className="page">
      <EmptyState title="Page not found">
        <Link to={pagePaths.inbox}>Back to the inbox</Link>
      </EmptyState>
    </div>
  );
}
