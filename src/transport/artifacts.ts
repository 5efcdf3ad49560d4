/**
 * Where operations put the files they generate (PDF exports…) and the URL they
 * answer for them (`ArtifactSink`, see src/domain/handler.ts):
 * - `directoryArtifacts(dir)`: local mode; files under `dir`, `file://` URLs;
 * - `MemoryArtifacts`: `docsctl serve`; kept in memory for an hour (bounded),
 *   answered by the server at `${origin}/artifacts/<name>`.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ArtifactSink } from '../domain/handler.js';

/** How long a generated file stays available (the real API's PDF URLs work for 1 h). */
export const ARTIFACT_TTL_MS = 60 * 60 * 1000;

/** A file name safe on every platform: no directories, no `..`, no odd characters. */
export function safeArtifactName(name: string): string {
  const base = name.replace(/[\\/]+/g, '-').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  return base === '' ? `artifact-${randomBytes(6).toString('hex')}` : base.slice(0, 200);
}

/** The default directory of local-mode artifacts. */
export function defaultArtifactDir(): string {
  return path.join(os.tmpdir(), 'docsctl-artifacts');
}

/** Writes each artifact to `dir` (created when missing; written atomically) and answers its `file://` URL. */
export function directoryArtifacts(dir: string = defaultArtifactDir()): ArtifactSink {
  return {
    async save(name, data) {
      const file = path.join(dir, safeArtifactName(name));
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const temp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        await writeFile(temp, data, { mode: 0o600 });
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      return pathToFileURL(file).href;
    },
  };
}

interface Stored {
  data: Uint8Array;
  contentType: string;
  expires: number;
}

/** Artifacts held in memory by `serve`, at most `maxBytes` in total (oldest dropped first). */
export class MemoryArtifacts implements ArtifactSink {
  private readonly items = new Map<string, Stored>();
  private bytes = 0;

  constructor(
    /** The server's origin (known once it listens). */
    private readonly origin: () => string,
    private readonly now: () => number = Date.now,
    private readonly maxBytes = 256 * 1024 * 1024,
  ) {}

  async save(name: string, data: Uint8Array, contentType: string): Promise<string> {
    const key = safeArtifactName(name);
    this.drop(key);
    this.items.set(key, { data, contentType, expires: this.now() + ARTIFACT_TTL_MS });
    this.bytes += data.byteLength;
    this.sweep();
    return `${this.origin().replace(/\/+$/, '')}/artifacts/${encodeURIComponent(key)}`;
  }

  /** The artifact under `name`, unless unknown or expired. */
  get(name: string): { data: Uint8Array; contentType: string } | undefined {
    this.sweep();
    const item = this.items.get(name);
    return item ? { data: item.data, contentType: item.contentType } : undefined;
  }

  private drop(key: string): void {
    const item = this.items.get(key);
    if (!item) return;
    this.items.delete(key);
    this.bytes -= item.data.byteLength;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, item] of this.items) if (item.expires <= now) this.drop(key);
    for (const key of this.items.keys()) {
      if (this.bytes <= this.maxBytes || this.items.size <= 1) break;
      this.drop(key);
    }
  }
}
