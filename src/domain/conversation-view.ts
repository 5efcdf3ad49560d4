/**
 * An agent conversation as stored and as answered (0.202 `AgentConversation`): a change request's
 * (content/conversations.ts) and the organization agent's (org-conversations.ts) alike.
 */
import { badRequest } from '../api/errors.js';

/** A conversation's id is its client's: 1–100 letters, digits, `-` and `_`, the first a letter or digit (`-rf` is no id). */
const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

export function checkConversationId(id: string): void {
  if (!ID.test(id)) throw badRequest(`Invalid conversation id "${id.slice(0, 100)}": use 1–100 letters, digits, "-" or "_", starting with a letter or digit`);
}

export interface ConversationRecord {
  id: string;
  title?: string;
  shared: boolean;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export const conversationView = (record: ConversationRecord) => ({
  object: 'agent-conversation' as const,
  id: record.id,
  ...(record.title !== undefined ? { title: record.title } : {}),
  shared: record.shared,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
});
