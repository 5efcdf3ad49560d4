import type { Handler } from './handler.js';

export const spaceHandlers: Record<string, Handler> = {};
