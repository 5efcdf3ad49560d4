/** The request body of a Git Sync (import, export, and their previews) from the command's options. */

export interface SyncBodyOptions {
  dir?: string | undefined;
  standalone?: boolean | undefined;
  force?: boolean | undefined;
  timestamp?: string | undefined;
  /** Export only: `Name <email>`. */
  author?: string | undefined;
}

export function syncBody(url: string, ref: string, options: SyncBodyOptions): Record<string, unknown> {
  return {
    url,
    ref,
    ...(options.dir !== undefined ? { repoProjectDirectory: options.dir } : {}),
    ...(options.standalone ? { standalone: true } : {}),
    ...(options.force ? { force: true } : {}),
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
    ...(options.author !== undefined ? { author: options.author } : {}),
  };
}
