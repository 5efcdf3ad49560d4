import type { Handler } from './handler.js';

export const collectionHandlers: Record<string, Handler> = {};
