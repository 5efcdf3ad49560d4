/** Three-way page-tree merge (tree-merge.ts): the files of a revision, merged by id. */
import type { ContentFile } from './model.js';
import { bytesEqual, mergeOrder, mergeValue, pickOurs, type Rec, rec, setOrDelete, unionKeys } from './tree-index.js';
import type { FieldConflict, KeptFile, Side, TreeConflict, TreeConflictDetail, TreeConflictKind } from './tree-types.js';

// ---------------------------------------------------------------------------
// Files

/** Properties that describe the bytes and follow the side whose `data` is taken. */
const FILE_CONTENT = new Set(['data', 'contentType', 'size', 'dimensions', 'git']);
const FILE_NOT_FIELDS = new Set(['id', ...FILE_CONTENT]);

export function fileChanged(x: ContentFile, y: ContentFile): string[] {
  const fields: string[] = [];
  if (x.name !== y.name) fields.push('name');
  if (!bytesEqual(x.data, y.data)) fields.push('data');
  return fields;
}

export function mergeFiles(
  base: readonly ContentFile[],
  ours: readonly ContentFile[],
  theirs: readonly ContentFile[],
  label: Record<Side, string>,
  conflicts: TreeConflict[],
): ContentFile[] {
  const byId = (files: readonly ContentFile[]): Map<string, ContentFile> => {
    const m = new Map<string, ContentFile>();
    for (const f of files) if (!m.has(f.id)) m.set(f.id, f);
    return m;
  };
  const B = byId(base);
  const O = byId(ours);
  const T = byId(theirs);
  const kept = new Map<string, KeptFile>();
  const conflict = (f: ContentFile, kind: TreeConflictKind, reason: string, detail: TreeConflictDetail): void => {
    conflicts.push({ kind, fileId: f.id, title: f.name, path: f.name, reason, detail });
  };
  const removedOnOneSide = (b: ContentFile, k: ContentFile, remover: Side): void => {
    const keeper: Side = remover === 'ours' ? 'theirs' : 'ours';
    const fields = fileChanged(b, k);
    if (fields.length === 0) return;
    conflict(k, 'removed-and-edited', `file removed in ${label[remover]} but changed in ${label[keeper]} (${fields.join(', ')})`, {
      kind: 'removed-and-edited',
      removedBy: remover,
      editedBy: keeper,
      fields,
    });
  };
  const mergeCommon = (b: ContentFile, o: ContentFile, t: ContentFile): void => {
    const out: FieldConflict[] = [];
    const result: Rec = { id: o.id };
    const br = rec(b);
    const or = rec(o);
    const tr = rec(t);
    for (const k of unionKeys([or, tr, br], FILE_NOT_FIELDS)) setOrDelete(result, k, mergeValue(k, br[k], or[k], tr[k], out, false));
    const oData = !bytesEqual(o.data, b.data);
    const tData = !bytesEqual(t.data, b.data);
    if (oData && tData && !bytesEqual(o.data, t.data)) {
      out.push({ field: 'data', base: `${b.data.length} bytes`, ours: `${o.data.length} bytes`, theirs: `${t.data.length} bytes` });
    }
    for (const k of FILE_CONTENT) {
      // The bytes' own properties come with the bytes; when the bytes did not change, each merges alone.
      const v = tData && !oData ? tr[k] : oData ? or[k] : pickOurs(br[k], or[k], tr[k]);
      setOrDelete(result, k, v);
    }
    if (out.length > 0) {
      conflict(o, 'fields', `${out.map((f) => f.field).join(', ')} changed differently in ${label.ours} and ${label.theirs}`, {
        kind: 'fields',
        fields: out,
      });
    }
    kept.set(o.id, { file: result as unknown as ContentFile, placedBy: 'ours' });
  };

  for (const o of O.values()) {
    const b = B.get(o.id);
    const t = T.get(o.id);
    if (!b) {
      if (!t) kept.set(o.id, { file: o, placedBy: 'ours' });
      else {
        const fields = fileChanged(o, t);
        if (fields.length > 0) {
          conflict(o, 'added-differently', `file added in both ${label.ours} and ${label.theirs}, differently (${fields.join(', ')})`, {
            kind: 'added-differently',
            fields,
          });
        } else kept.set(o.id, { file: o, placedBy: 'ours' });
      }
    } else if (!t) removedOnOneSide(b, o, 'theirs');
    else mergeCommon(b, o, t);
  }
  for (const t of T.values()) {
    if (O.has(t.id)) continue;
    const b = B.get(t.id);
    if (!b) kept.set(t.id, { file: t, placedBy: 'theirs' });
    else removedOnOneSide(b, t, 'ours');
  }

  const ids = mergeOrder([...B.keys()], [...O.keys()], [...T.keys()], [...kept.keys()], (id) => kept.get(id)?.placedBy === 'theirs');
  return ids.map((id) => (kept.get(id) as KeptFile).file);
}
