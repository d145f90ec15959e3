import { ConfirmButton } from '../../../components/confirm-button';
import { ErrorState, InlineError, Loading } from '../../../components/states';
import { TrashIcon } from '../../../components/icons';
import { useRules } from '../api/get-rules';
import { useDeleteRule } from '../api/delete-rule';
import { describeAction, describeMatch } from '../rule-form';
import { RuleForm } from './rule-form';

/** The rules, first match wins, and the form that adds one. */
export function RulesCard({ teams }: { teams: string[] }) {
  return (
    <section className="card" aria-label="Rules">
      <div className="card-header">
        <div>
          <h2>Rules</h2>
          <p>Checked before headers, plus-tags and simulator addresses; the first matching rule decides.</p>
        </div>
      </div>
      <RulesTable />
      <RuleForm teams={teams} />
    </section>
  );
}

function RulesTable() {
  const { data, isPending, error, refetch } = useRules();
  const remove = useDeleteRule();
  if (isPending) return <Loading label="Loading rules" />;
  if (!data) return <ErrorState error={error} title="Rules could not be loaded" onRetry={() => void refetch()} />;
  if (data.length === 0) return <p className="card-empty">No rules yet: every email follows the conventions (plus-tags, headers, simulator addresses).</p>;
  return (
    <div className="records-scroll">
      <table className="table rules-table" aria-label="Rule list">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">When</th>
            <th scope="col">Then</th>
            <th scope="col">Limits</th>
            <th scope="col">Used</th>
            <th scope="col"><span className="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {data.map((rule) => (
            <tr key={rule.id} data-active={rule.active}>
              <td className="mono">{rule.id}</td>
              <td>{describeMatch(rule)}</td>
              <td>
                <span className="mono">{describeAction(rule.action)}</span>
              </td>
              <td className="rule-limits">
                {[rule.times !== null ? `${rule.times}×` : null, rule.nth !== null ? `only match #${rule.nth}` : null].filter(Boolean).join(', ') || '—'}
              </td>
              <td>
                {rule.uses}
                {!rule.active && <span className="badge badge-plain tone-gray rule-spent">spent</span>}
              </td>
              <td className="cell-actions">
                <ConfirmButton className="btn btn-ghost btn-sm btn-danger" confirmLabel={`Delete rule ${rule.id}`} onConfirm={() => remove.mutate(rule.id)}>
                  <TrashIcon size={14} />
                  <span className="visually-hidden">Delete rule {rule.id}</span>
                </ConfirmButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <InlineError error={remove.error} />
    </div>
  );
}
