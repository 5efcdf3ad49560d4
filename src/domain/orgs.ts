import type { Handler } from './handler.js';

export const orgHandlers: Record<string, Handler> = {};
