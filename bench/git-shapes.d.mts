// Types of git-shapes.mjs (plain ESM, run by bench/run.mjs without a build) for the tests that use it.
export interface ShapedRepository {
  name: string;
  gitDir: string;
  url: string;
  /** The project directory (monorepo shapes), else undefined. */
  dir: string | undefined;
  /** Bytes of the last commit's tree, and of its project directory. */
  bytes: number;
  projectBytes: number;
  files: number;
}
export const SHAPES: Record<string, { title: string; pages: number; dir?: string }>;
export function makeShapedRepository(root: string, name: string, options?: { scale?: number; assetScale?: number; commits?: number }): Promise<ShapedRepository>;
export function shapePages(name: string, options?: { scale?: number }): { path: string; text: string }[];
