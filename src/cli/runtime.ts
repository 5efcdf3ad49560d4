/**
 * What runs commands, loaded by `main` only when argv names a command (`docsctl --help`
 * lists the groups and tools without it): the session class and the registration of the
 * operation commands. One module, so the bundle loads it as one chunk.
 */
export { Session } from './session.js';
export { registerOperationCommands } from './operation.js';
