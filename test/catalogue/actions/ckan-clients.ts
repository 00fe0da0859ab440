// What CKAN clients send, on either catalogue store: ids a create is given (a dump loaded
// elsewhere keeps them), and package_search as CKAN users write it. Expected values are
// written here from CKAN's documentation and Solr's syntax, not taken from a run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAction } from '../../../lib/catalogue/actions/index.ts';
import { DomainError } from '../../../lib/process/errors.ts';
import { ckanError } from '../../../gateways/kit/ckan-errors.ts';
import { person, type Catalogue, type Person } from './support.ts';

type Dict = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DATASET_ID = '6f1c7e0a-3b5d-4c2e-9a8f-0d1e2f3a4b5c';
const RESOURCE_ID = '0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d';

export function ckanClientSuite(label: string, fresh: () => Promise<Catalogue>): void {
  let catalogue: Catalogue;
  let alice: Person;

  const call = (action: string, params: Dict = {}, who: Person | undefined = alice): Promise<Dict> =>
    runAction(
      catalogue.deps,
      who ? { kind: 'token', hash: who.tokenHash } : { kind: 'anonymous' },
      action,
      params,
    ) as Promise<Dict>;

  /** The CKAN answer of a refused call: its status and error dict. */
  async function refused(promise: Promise<unknown>): Promise<{ status: number; error: Dict }> {
    try {
      await promise;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const { status, body } = ckanError(error);
      return { status, error: body.error as Dict };
    }
    assert.fail('the call succeeded');
  }

  describe(`CKAN clients: ${label}`, () => {
    before(async () => {
      catalogue = await fresh();
      alice = await person(catalogue.deps.store, 'alice');
    });
    after(() => catalogue.dispose());

    describe('client-given ids', () => {
      it('package_create and its inline resources keep the ids given', async () => {
        const pkg = await call('package_create', {
          id: DATASET_ID,
          name: 'moved',
          resources: [{ id: RESOURCE_ID, url: 'https://example.org/a.csv' }],
        });
        assert.equal(pkg.id, DATASET_ID);
        assert.equal(pkg.resources[0].id, RESOURCE_ID);
        assert.equal((await call('package_show', { id: DATASET_ID })).name, 'moved');
      });

      it('an id in use is a Validation Error naming id, and nothing is made', async () => {
        const again = await refused(call('package_create', { id: DATASET_ID, name: 'moved-again' }));
        assert.equal(again.status, 409);
        assert.equal(again.error.__type, 'Validation Error');
        assert.ok(again.error.id, JSON.stringify(again.error));
        assert.equal(await catalogue.deps.store.getDataset('moved-again'), undefined);
        const resource = await refused(
          call('resource_create', { package_id: 'moved', id: RESOURCE_ID, url: 'https://example.org/b' }),
        );
        assert.equal(resource.status, 409);
        assert.ok(resource.error.id, JSON.stringify(resource.error));
        assert.equal((await call('package_show', { id: 'moved' })).num_resources, 1);
      });

      it('a malformed id is a Validation Error naming id', async () => {
        for (const id of ['not-a-uuid', DATASET_ID.toUpperCase(), `${DATASET_ID}x`, "1' OR '1'='1"]) {
          const answer = await refused(call('package_create', { id, name: 'badly-named' }));
          assert.equal(answer.status, 409, id);
          assert.ok(answer.error.id, `${id}: ${JSON.stringify(answer.error)}`);
        }
        const resource = await refused(
          call('resource_create', { package_id: 'moved', id: 'x', url: 'https://example.org/b' }),
        );
        assert.ok(resource.error.id, JSON.stringify(resource.error));
      });

      it('resource_create keeps the id given', async () => {
        const id = 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e';
        const res = await call('resource_create', { package_id: 'moved', id, url: 'https://example.org/c' });
        assert.equal(res.id, id);
      });
    });
  });
}
