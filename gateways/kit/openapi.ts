// The OpenAPI 3.1 document of a gateway, derived from the same route definitions that drive
// validation, so the two cannot drift apart.
import type { JSONSchema, ResponseSpec, Route } from './types.ts';

export interface ApiInfo {
  title: string;
  version: string;
  description?: string;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** `/distribution/{perm_id}/{path*}` → the names, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\*?\}/g)].map((m) => m[1] as string);
}

function properties(schema: JSONSchema | undefined): [string, JSONSchema][] {
  return Object.entries((schema?.properties as Record<string, JSONSchema> | undefined) ?? {});
}

function requiredOf(schema: JSONSchema | undefined): string[] {
  return (schema?.required as string[] | undefined) ?? [];
}

export function operationIdOf(route: Route): string {
  return (
    route.operationId ??
    `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+/g, '_')}`.replace(/_$/, '')
  );
}

function parameters(route: Route): unknown[] {
  const pathParams = pathParamNames(route.path).map((name) => {
    const schema = (route.params?.properties as Record<string, JSONSchema> | undefined)?.[name];
    return { name, in: 'path', required: true, schema: schema ?? { type: 'string' } };
  });
  const required = requiredOf(route.query);
  const queryParams = properties(route.query).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    schema,
  }));
  return [...pathParams, ...queryParams];
}

function requestBody(route: Route): unknown {
  const body = route.body;
  if (!body) return undefined;
  if ('multipart' in body) {
    const { fileField, fields } = body.multipart;
    const schema = {
      type: 'object',
      properties: {
        [fileField]: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' },
        ...Object.fromEntries(properties(fields)),
      },
      required: [fileField, ...requiredOf(fields)],
    };
    const json = body.multipart.json ? { 'application/json': { schema: body.multipart.json } } : {};
    return { required: true, content: { 'multipart/form-data': { schema }, ...json } };
  }
  const mediaTypes = ['application/json', ...(body.mediaType ? [body.mediaType] : [])];
  return {
    required: body.required ?? true,
    content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: body.json }])),
  };
}

function responses(route: Route): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(route.responses) as [string, ResponseSpec][]) {
    const content = spec.content
      ? Object.fromEntries(
          Object.entries(spec.content).map(([type, schema]) => [type, schema ? { schema } : {}]),
        )
      : undefined;
    out[status] = { description: spec.description, ...(content ? { content } : {}) };
  }
  const validated = route.query || route.body || route.params;
  if (validated && !out['422']) {
    out['422'] = {
      description:
        'Invalid input; the detail names the field and the problem (e.g. `body.data_url: must be string`)',
      content: { 'application/json': { schema: ERROR_REF } },
    };
  }
  return out;
}

export function openapiDocument(
  info: ApiInfo,
  routes: readonly Route[],
  serverUrl: string,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/\{(\w+)\*\}/g, '{$1}');
    const params = parameters(route);
    const body = requestBody(route);
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      operationId: operationIdOf(route),
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.tags ? { tags: route.tags } : {}),
      ...(params.length ? { parameters: params } : {}),
      ...(body ? { requestBody: body } : {}),
      responses: responses(route),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      ...(info.description ? { description: info.description } : {}),
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          properties: { detail: { type: 'string', description: 'What went wrong, naming the field' } },
          required: ['detail'],
        },
      },
    },
  };
}
