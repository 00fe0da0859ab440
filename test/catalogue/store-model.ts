// Property: random dataset and resource operations, applied to a store and to a plain
// in-memory model of what the contract promises, leave both with the same datasets and the same
// resources in the same order (derived ones replaced in place, deletions cascading).
import assert from 'node:assert/strict';
import fc from '../support/fc.ts';
import type { CatalogueStore } from '../../lib/catalogue/store/contract.ts';
import { DomainError } from '../../lib/process/errors.ts';

type Op =
  | { op: 'createDataset'; slot: number }
  | { op: 'deleteDataset'; slot: number }
  | { op: 'createResource'; slot: number; name: string }
  | { op: 'upsertDerived'; slot: number; source: number; step: string; name: string }
  | { op: 'deleteResource'; slot: number; index: number }
  | { op: 'deleteDerivedFrom'; slot: number; index: number };

interface ModelResource {
  id: string;
  name: string;
  source?: string;
  step?: string;
}

const slot = fc.integer({ min: 0, max: 1 });
const index = fc.nat({ max: 3 });
const name = fc.constantFrom('data.csv', 'a.jsonld', 'b.ttl', 'c');
// Weighted towards building up (derived resources of derived resources), so that deletions
// have chains to cascade through.
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('createDataset' as const), slot }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('deleteDataset' as const), slot }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('createResource' as const), slot, name }), weight: 3 },
  {
    arbitrary: fc.record({
      op: fc.constant('upsertDerived' as const),
      slot,
      source: index,
      step: fc.constantFrom('annotate', 'convert'),
      name,
    }),
    weight: 6,
  },
  { arbitrary: fc.record({ op: fc.constant('deleteResource' as const), slot, index }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('deleteDerivedFrom' as const), slot, index }), weight: 2 },
);

async function kindOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof DomainError) return error.kind;
    throw error;
  }
}

export async function storeModelProperty(store: CatalogueStore, numRuns = 60): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 40, size: 'max' }), async (ops) => {
      const prefix = `run${++run}-`;
      const model = new Map<number, ModelResource[]>();
      const ids = new Map<number, string>();
      const datasetName = (s: number) => `${prefix}${s}`;
      for (const o of ops) {
        const resources = model.get(o.slot);
        switch (o.op) {
          case 'createDataset': {
            const kind = await kindOf(
              store.createDataset({ name: datasetName(o.slot) }).then((d) => ids.set(o.slot, d.id)),
            );
            assert.equal(kind, resources ? 'conflict' : 'ok');
            if (!resources) model.set(o.slot, []);
            break;
          }
          case 'deleteDataset':
            assert.equal(
              await kindOf(store.deleteDataset(datasetName(o.slot))),
              resources ? 'ok' : 'not-found',
            );
            model.delete(o.slot);
            break;
          case 'createResource': {
            let id = '';
            const kind = await kindOf(
              store.createResource(datasetName(o.slot), { name: o.name }).then((r) => (id = r.id)),
            );
            assert.equal(kind, resources ? 'ok' : 'not-found');
            resources?.push({ id, name: o.name });
            break;
          }
          case 'upsertDerived': {
            const source = resources?.[o.source];
            const key = {
              package_id: ids.get(o.slot) ?? 'none',
              source_resource_id: source?.id ?? 'none',
              step: o.step,
            };
            let id = '';
            const kind = await kindOf(store.upsertDerived(key, { name: o.name }).then((r) => (id = r.id)));
            assert.equal(kind, source ? 'ok' : 'not-found');
            if (!source || !resources) break;
            const existing = resources.find((r) => r.source === source.id && r.step === o.step);
            if (existing) {
              assert.equal(id, existing.id, 'replaced in place');
              existing.name = o.name;
            } else resources.push({ id, name: o.name, source: source.id, step: o.step });
            break;
          }
          case 'deleteResource': {
            const target = resources?.[o.index];
            assert.equal(
              await kindOf(store.deleteResource(target?.id ?? 'none')),
              target ? 'ok' : 'not-found',
            );
            if (target) resources!.splice(o.index, 1);
            break;
          }
          case 'deleteDerivedFrom': {
            const target = resources?.[o.index];
            if (!target || !resources) break;
            const gone = new Set<string>();
            for (let frontier = [target.id]; frontier.length > 0;) {
              frontier = resources
                .filter((r) => r.source && frontier.includes(r.source) && !gone.has(r.id))
                .map((r) => r.id);
              frontier.forEach((id) => gone.add(id));
            }
            assert.deepEqual(new Set(await store.deleteDerivedFrom(target.id)), gone);
            model.set(
              o.slot,
              resources.filter((r) => !gone.has(r.id)),
            );
            break;
          }
        }
      }
      const names = (await store.searchDatasets({ q: prefix, limit: 1000 })).results.map((d) => d.name);
      assert.deepEqual(names, [...model.keys()].sort().map(datasetName));
      for (const [s, resources] of model) {
        const actual = (await store.listResources(datasetName(s))).map((r) => ({
          id: r.id,
          name: r.name,
          ...(r.derivation ? { source: r.derivation.source_resource_id, step: r.derivation.step } : {}),
        }));
        assert.deepEqual(actual, resources);
      }
    }),
    { numRuns },
  );
}
