/**
 * Merge rules (real API `MergeRulesConfiguration`, gaps.md §1.1): what must hold
 * before a change request may be merged. A space inherits its organization's rules
 * unless it sets its own; `none` lets anything merge. `cr merge` checks them and
 * answers 409 naming every rule that fails.
 */
import { conflict } from '../../api/errors.js';
import type { StoreReader } from '../../store/types.js';
import { threadOf } from '../comments/comment-records.js';
import { type ChangeRequestRecord } from '../content/change-request-records.js';
import { isOutdated } from '../content/views.js';
import { type SpaceRecord, getOrg } from '../core-records.js';
import { currentReviews, requestedReviewers } from './review-records.js';

interface Rule {
  rule: string;
  users?: string[];
}

function effectiveRules(tx: StoreReader, space: SpaceRecord): Rule[] {
  const own = space.mergeRules;
  const config = own.type === 'inherit' ? getOrg(tx, space.organization)?.mergeRules : own;
  return config?.type === 'rules' ? (config.rules as Rule[]) : [];
}

/** Why the change request may not be merged by `actor` now (one reason per failing rule); empty when it may. */
export function mergeRuleFailures(tx: StoreReader, space: SpaceRecord, cr: ChangeRequestRecord, actor: string): string[] {
  const rules = effectiveRules(tx, space);
  if (rules.length === 0) return [];
  if (rules.some((rule) => rule.rule === 'allow_bypass' && rule.users?.includes(actor))) return [];
  const reviews = currentReviews(tx, threadOf(space.id, cr.id));
  const approvers = [...reviews].filter(([, review]) => review.status === 'approved').map(([user]) => user);
  const blockers = [...reviews].filter(([, review]) => review.status === 'changes-requested').map(([user]) => user);
  const failures: string[] = [];
  for (const rule of rules) {
    switch (rule.rule) {
      case 'require_at_least_one_review':
        if (approvers.length === 0) failures.push('at least one approving review is required');
        break;
      case 'require_all_reviews_approved': {
        const pending = requestedReviewers(tx, threadOf(space.id, cr.id)).filter((r) => !reviews.has(r.user)).map((r) => r.user);
        if (blockers.length > 0) failures.push(`every review must approve (changes requested by ${blockers.join(', ')})`);
        if (pending.length > 0) failures.push(`every requested reviewer must review (waiting for ${pending.join(', ')})`);
        break;
      }
      case 'require_specific_reviewers': {
        const missing = (rule.users ?? []).filter((user) => !approvers.includes(user));
        if (missing.length > 0) failures.push(`approval required from ${missing.join(', ')}`);
        break;
      }
      case 'require_one_of_specific_reviewers':
        if (!(rule.users ?? []).some((user) => approvers.includes(user))) failures.push(`approval required from one of ${(rule.users ?? []).join(', ')}`);
        break;
      case 'require_up_to_date_change_request':
        if (isOutdated(cr, space.revision)) failures.push('the change request must be up to date with the space (run "docsctl cr update")');
        break;
      case 'require_change_request_subject':
        if (cr.subject.trim() === '') failures.push('the change request needs a subject');
        break;
      case 'require_change_request_description':
        if (cr.description === undefined) failures.push('the change request needs a description');
        break;
      case 'require_agent_review':
        failures.push('an agent review is required, and docsctl has no review agent');
        break;
      default:
        break;
    }
  }
  return failures;
}

/** Throws 409 when the merge rules refuse the merge. */
export function requireMergeRules(tx: StoreReader, space: SpaceRecord, cr: ChangeRequestRecord, actor: string): void {
  const failures = mergeRuleFailures(tx, space, cr, actor);
  if (failures.length > 0) {
    throw conflict(`Change request #${cr.number} cannot be merged yet: the merge rules of space ${space.id} require that ${failures.join('; ')}`);
  }
}
