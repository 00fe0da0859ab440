// Properties of the mapper domain on random input: every failure is a DomainError with a 4xx
// naming a field, never anything else; every mapping produced reads back as YAML with one rule
// per entry and translates to RML.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../support/fc.ts';
import yaml from 'js-yaml';
import { DomainError } from '../../lib/process/errors.ts';
import { statusOf } from '../../lib/process/http-status.ts';
import {
  closestNames,
  editDistance,
  generateMapping,
  listEntities,
  readDocument,
  readMappingOptions,
  readTypes,
  DEFAULT_DATA_TYPES,
  OWL_NAMED_INDIVIDUAL,
} from '../../lib/mapper/index.ts';
import { createRequire } from 'node:module';
import type { Quad } from 'n3';
import { isomorphic } from '../../lib/rdf/index.ts';
import { yarrrmlToMapping, yarrrmlToRmlQuads } from '../../lib/rml/index.ts';
import { seedDocuments } from './support.ts';

const { data, template } = await seedDocuments();
const entityNames = Object.keys(listEntities(data, DEFAULT_DATA_TYPES).entities);
const individualNames = Object.keys(listEntities(template, [OWL_NAMED_INDIVIDUAL]).entities);

function isFieldError(error: unknown): boolean {
  return (
    error instanceof DomainError && statusOf(error.kind) < 500 && /^[a-z_]+(\.[^:]+)?: ./.test(error.message)
  );
}

const name = fc.oneof(
  fc.constantFrom(...entityNames, ...individualNames),
  fc.constantFrom(...individualNames).map((n) => `${template.url}/${n}`),
  fc.string({ maxLength: 30 }),
);
const anything = fc.jsonValue({ maxDepth: 2 });

test('random mapping requests: a mapping with one rule per entry, or a 4xx naming a field', () => {
  fc.assert(
    fc.property(
      fc.record(
        {
          map: fc.oneof(fc.dictionary(name, name, { maxKeys: 6 }), anything),
          predicate: fc.oneof(fc.constantFrom('bfo:RO_0010002', 'https://h/p', 'zz:p', 'p'), anything),
          use_template_rowwise: fc.oneof(fc.boolean(), anything),
          data_types: fc.oneof(fc.constantFrom(['csvw:Column'], ['oa:Annotation', 'csvw:Column']), anything),
          template_types: fc.oneof(fc.constant(['owl:Thing']), anything),
        },
        { requiredKeys: ['map'] },
      ),
      (request) => {
        let out;
        try {
          out = generateMapping(readMappingOptions(request), data, template);
        } catch (error) {
          assert.ok(isFieldError(error), String(error));
          return;
        }
        const document = yaml.load(out.yaml) as { mappings: Record<string, unknown> };
        assert.equal(Object.keys(document.mappings).length, Object.keys(request.map as object).length);
        assert.ok(yarrrmlToMapping(out.document));
      },
    ),
    { numRuns: 300 },
  );
});

test('random documents and type lists: read, or a 4xx naming the field', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.string({ maxLength: 200 }),
        anything.map((v) => JSON.stringify(v)),
      ),
      fc.option(fc.string({ maxLength: 40 })),
      fc.oneof(fc.string({ maxLength: 60 }), anything),
      async (text, contentType, types) => {
        try {
          const document = await readDocument('https://h/doc', text, {
            field: 'url',
            contentType: contentType ?? undefined,
          });
          listEntities(document, readTypes(types, 'types', DEFAULT_DATA_TYPES));
        } catch (error) {
          assert.ok(isFieldError(error), String(error));
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('random label texts: the RML of the mapping compares with exactly that text, read by js-yaml or by the YARRRML parser’s own YAML reader', async () => {
  const require = createRequire(import.meta.url);
  const Generator = require('@rmlio/yarrrml-parser/lib/rml-generator') as new (options: object) => {
    convert(yaml: string): Quad[];
  };
  const edge = fc.constantFrom(
    ' ',
    '\t',
    '\u3000',
    '\u1680',
    '\u00a0',
    '\u2028',
    '\u0085',
    '#',
    ': ',
    ':',
    'a:b',
    'data:x',
    'http://h/',
    "'",
    '"',
    '- ',
    '*',
    '&',
    '{',
    '$(',
    '\\',
  );
  const text = fc.oneof(
    fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }),
    fc.tuple(edge, fc.string({ maxLength: 8 }), edge).map(([a, b, c]) => a + b + c),
  );
  const constants = (quads: Quad[]) =>
    quads.filter((q) => q.object.termType === 'Literal').map((q) => q.object.value);
  await fc.assert(
    fc.asyncProperty(text, async (label) => {
      const descriptor = {
        '@context': [
          'http://www.w3.org/ns/csvw',
          { oa: 'http://www.w3.org/ns/oa#', label: 'http://www.w3.org/2000/01/rdf-schema#label' },
        ],
        notes: [{ '@id': 'https://h/x.csv/Note0', '@type': 'oa:Annotation', label }],
      };
      const doc = await readDocument('https://h/x-metadata.json', JSON.stringify(descriptor), {
        field: 'data_url',
      });
      let out;
      try {
        out = generateMapping(readMappingOptions({ map: { SpecimenID: 'Note0' } }), doc, template);
      } catch (error) {
        // Only a text the parser would read as a template is refused.
        assert.ok(label.includes('$(') || label.includes('\\'), JSON.stringify(label));
        assert.ok(error instanceof DomainError && error.kind === 'invalid' && error.field === 'map');
        return;
      }
      const viaJsYaml = yarrrmlToRmlQuads(yaml.load(out.yaml) as Record<string, unknown>).quads;
      assert.ok(constants(viaJsYaml).includes(label), JSON.stringify(label));
      // yamljs drops U+FEFF even from a quoted scalar; labld's converter reads YAML with js-yaml.
      if (label.includes('\ufeff')) return;
      const stock = new Generator({ includeMetadata: false }).convert(out.yaml);
      assert.ok(await isomorphic(stock, viaJsYaml), JSON.stringify(label));
    }),
    { numRuns: 300 },
  );
});

test('edit distance is a metric on random names, and suggestions come closest first', () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 12 }),
      fc.string({ maxLength: 12 }),
      fc.string({ maxLength: 12 }),
      (a, b, c) => {
        assert.equal(editDistance(a, a), 0);
        assert.equal(editDistance(a, b), editDistance(b, a));
        assert.ok(editDistance(a, c) <= editDistance(a, b) + editDistance(b, c));
        assert.ok(editDistance(a, b) <= Math.max(a.length, b.length));
      },
    ),
  );
  fc.assert(
    fc.property(fc.constantFrom(...entityNames), fc.nat(), (entity, at) => {
      // One character dropped from a real name: that name is among the suggestions.
      const typo = entity.slice(0, at % entity.length) + entity.slice((at % entity.length) + 1);
      assert.ok(closestNames(typo, entityNames).includes(entity), `${typo} → ${entity}`);
    }),
  );
});
