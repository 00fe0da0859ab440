// The mapper's routes (spec "Mapping generation service"): each is forwarded to the mapper's
// request consumer; the mapping comes back as a stored file and is answered as a download.
import type { Runtime } from '../app/runtime.ts';
import { mapper, type OperationInputs } from '../lib/contracts/operations.ts';
import { part } from '../lib/contracts/schema.ts';
import { route, type Route } from './kit/index.ts';
import type { Forwarder } from './forward.ts';
const entity = {
  type: 'object',
  required: ['uri', 'type'],
  properties: {
    uri: { type: 'string' },
    property: { type: 'string', enum: ['label', 'name'] },
    text: { type: 'string' },
    type: { type: 'string' },
  },
};

type MappingField = keyof OperationInputs['mapper']['mapping'];

export function mapperRoutes(runtime: Runtime, forward: Forwarder<'mapper'>): Route[] {
  return [
    route({
      method: 'GET',
      path: '/api/types',
      summary: 'The type IRIs used in a descriptor or template, sorted',
      tags: ['mapping'],
      query: part(mapper.types, ['url']),
      responses: {
        200: {
          description: 'sorted type IRIs',
          content: { 'application/json': { type: 'array', items: { type: 'string' } } },
        },
      },
      handler: forward.json('types'),
    }),
    route({
      method: 'GET',
      path: '/api/entities',
      summary: 'The entities of chosen types in a descriptor or template, by name',
      description:
        'Subjects typed exactly with one of `types`, keyed by the last segment of their IRI ' +
        '(`table-1-Standardkraft`, `AktuelleProbe0`, `SpecimenID`). For a template pass ' +
        '`types=http://www.w3.org/2002/07/owl%23NamedIndividual`: write `#` as `%23`.',
      tags: ['mapping'],
      query: part(mapper.entities, ['url', 'types']),
      responses: {
        200: {
          description: 'entities by name, and the base namespace of the document',
          content: {
            'application/json': {
              type: 'object',
              properties: {
                entities: { type: 'object', additionalProperties: entity },
                base_namespace: { type: 'string' },
              },
            },
          },
        },
      },
      handler: forward.json('entities'),
    }),
    route({
      method: 'POST',
      path: '/api/mapping',
      summary: 'Generate the YARRRML mapping linking data entities to template individuals',
      description:
        '`map` is read entry by entry in either orientation: `{"<template individual>": "<data entity>"}` ' +
        '(MapToMethod and its clients) or `{"<data entity>": "<template individual IRI>"}` (the spec). ' +
        'An entry that resolves in neither is a 400 listing every such entry with the closest names.',
      tags: ['mapping'],
      body: { json: part(mapper.mapping, Object.keys(mapper.mapping.properties) as MappingField[]) },
      responses: { 200: { description: 'the YARRRML mapping (file download, application/x-yaml)' } },
      handler: async (input) => ({
        ...forward.asDownload(
          await forward.send('mapping', input.body as OperationInputs['mapper']['mapping'], input),
        ),
        headers: { 'Access-Control-Expose-Headers': 'Content-Disposition' },
      }),
    }),
  ];
}
