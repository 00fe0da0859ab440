// The mapper's routes (spec "Mapping generation service"): each is forwarded to the mapper's
// request consumer; the mapping comes back as a stored file and is answered as a download.
import { DEFAULT_DATA_TYPES, DEFAULT_PREDICATE, DEFAULT_TEMPLATE_TYPES } from '../lib/mapper/index.ts';
import type { Runtime } from '../lib/runtime.ts';
import { route, type Route } from './kit/index.ts';
import type { Forwarder } from './forward.ts';
import { urlParameter as url } from './parameters.ts';

const iris = (description: string, fallback?: string[]) => ({
  type: 'array',
  items: { type: 'string', minLength: 1 },
  description,
  ...(fallback ? { examples: [fallback] } : {}),
});
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

export function mapperRoutes(runtime: Runtime, forward: Forwarder): Route[] {
  return [
    route({
      method: 'GET',
      path: '/api/types',
      summary: 'The type IRIs used in a descriptor or template, sorted',
      tags: ['mapping'],
      query: {
        type: 'object',
        required: ['url'],
        properties: { url: url('the document (CSVW descriptor or template), in any RDF syntax') },
      },
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
      query: {
        type: 'object',
        required: ['url'],
        properties: {
          url: url('the document (CSVW descriptor or template), in any RDF syntax'),
          types: {
            type: ['string', 'array'],
            items: { type: 'string' },
            description: `comma-separated type IRIs (or prefix:name), or the parameter repeated; default ${DEFAULT_DATA_TYPES.join(',')}`,
          },
        },
      },
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
      body: {
        json: {
          type: 'object',
          required: ['data_url', 'template_url', 'map'],
          properties: {
            data_url: url('the CSVW descriptor (JSON-LD)'),
            template_url: url('the template graph'),
            map: {
              type: 'object',
              additionalProperties: { type: 'string' },
              description:
                'template individual name → data entity name (or data entity name → individual IRI)',
            },
            predicate: {
              type: 'string',
              minLength: 1,
              default: DEFAULT_PREDICATE,
              description: 'relation from a data entity to its template individual',
            },
            use_template_rowwise: { type: 'boolean', default: false },
            data_types: iris('data entity types to map', DEFAULT_DATA_TYPES),
            template_types: iris('template entity types besides owl:NamedIndividual', DEFAULT_TEMPLATE_TYPES),
          },
        },
      },
      responses: { 200: { description: 'the YARRRML mapping (file download, application/x-yaml)' } },
      handler: async (input) => ({
        ...forward.asDownload(await forward.send('mapping', input.body as Record<string, unknown>, input)),
        headers: { 'Access-Control-Expose-Headers': 'Content-Disposition' },
      }),
    }),
  ];
}
