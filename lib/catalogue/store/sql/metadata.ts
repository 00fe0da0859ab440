// The CKAN package fields beyond name, title and notes (author … license_id, free tags, extras):
// written only where a create, update or patch gives them, read for many datasets at once.
import { METADATA_TEXT, now, type DatasetMetadata } from '../../model.ts';
import { text } from './common.ts';
import { str } from './rows.ts';
import type { SqlSession } from './session.ts';

export type Lists = Pick<DatasetMetadata, 'tags' | 'extras'>;

export async function writeMetadata(
  s: SqlSession,
  packageId: string,
  fields: Partial<DatasetMetadata>,
): Promise<void> {
  const given = METADATA_TEXT.filter((k) => fields[k] !== undefined);
  if (given.length > 0) {
    await s.run(`UPDATE packages SET ${given.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`, [
      ...given.map((k) => text(fields[k], k)),
      packageId,
    ]);
  }
  if (fields.tags !== undefined) {
    await s.run(`DELETE FROM package_tags WHERE package_id = ?`, [packageId]);
    for (const tag of new Set(fields.tags)) {
      await s.run(`INSERT INTO package_tags (package_id, name) VALUES (?, ?)`, [
        packageId,
        text(tag, 'tags'),
      ]);
    }
  }
  if (fields.extras !== undefined) {
    await s.run(`DELETE FROM package_extras WHERE package_id = ?`, [packageId]);
    for (const { key, value } of fields.extras) {
      await s.run(`INSERT INTO package_extras (package_id, key, value) VALUES (?, ?, ?)`, [
        packageId,
        text(key, 'extras'),
        text(value, 'extras'),
      ]);
    }
  }
}

/** The tags and extras of these datasets, by id (code point order on both databases). */
export async function readLists(s: SqlSession, ids: string[]): Promise<Map<string, Lists>> {
  const of = new Map<string, Lists>(ids.map((id) => [id, { tags: [], extras: [] }]));
  if (ids.length === 0) return of;
  const marks = ids.map(() => '?').join(', ');
  const bytes = s.dialect === 'postgres' ? ' COLLATE "C"' : '';
  for (const row of await s.all(
    `SELECT package_id, name FROM package_tags WHERE package_id IN (${marks}) ORDER BY name${bytes}`,
    ids,
  )) {
    of.get(str(row.package_id))?.tags.push(str(row.name));
  }
  for (const row of await s.all(
    `SELECT package_id, key, value FROM package_extras WHERE package_id IN (${marks}) ORDER BY key${bytes}`,
    ids,
  )) {
    of.get(str(row.package_id))?.extras.push({ key: str(row.key), value: str(row.value) });
  }
  return of;
}

/** A change of a dataset's resources is a change of the dataset (CKAN bumps its metadata_modified). */
export async function touchDataset(s: SqlSession, packageId: string): Promise<void> {
  await s.run(`UPDATE packages SET metadata_modified = ? WHERE id = ?`, [now(), packageId]);
}
