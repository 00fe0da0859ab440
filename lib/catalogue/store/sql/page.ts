// The dataset page's composite read (DatasetPage): the dataset's resources, step statuses, dead
// letters and the names of its resources' makers, each one statement keyed by the dataset's id,
// sent together (PostgreSQL runs them on the pool's connections at once).
import type { Dataset } from '../../model.ts';
import type { DatasetPage } from '../contract.ts';
import * as chain from './chain.ts';
import { resourceOf, str } from './rows.ts';
import type { SqlSession } from './session.ts';

export async function datasetPage(s: SqlSession, dataset: Dataset): Promise<DatasetPage> {
  const [resources, steps, deadLetters, makers] = await Promise.all([
    s.all(`SELECT * FROM resources WHERE package_id = ? ORDER BY position, id`, [dataset.id]),
    chain.listStepStatus(s, { package_id: dataset.id }),
    chain.listDeadLetters(s, { package_id: dataset.id }),
    s.all(
      `SELECT u.id, u.name FROM users u
       WHERE u.id IN (SELECT r.creator_user_id FROM resources r WHERE r.package_id = ?)`,
      [dataset.id],
    ),
  ]);
  return {
    dataset,
    resources: resources.map(resourceOf),
    steps,
    deadLetters,
    makers: Object.fromEntries(makers.map((u) => [str(u.id), str(u.name)])),
  };
}
