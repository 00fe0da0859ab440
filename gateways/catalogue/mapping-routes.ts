// The mapping builder's routes (issue 28): GET the page (which upload, which template), POST the
// choices (CSRF-checked by formRoute): the mapping is generated and saved, and the answer is a
// redirect to the upload's dataset (whose selection runs again) or to the new mapping. A refused
// save is the page again with the choices made and the reason, with the refusal's status.
import { invalid } from '../../lib/process/errors.ts';
import type { Route } from '../kit/index.ts';
import type { Accounts } from './accounts.ts';
import { toldOnPage, type BuilderPost, type BuilderQuery, type MappingSource } from './mapping-source.ts';
import { formRoute, pageRoute, type Named, type Query, type Visitor } from './page-routes.ts';
import { datasetPath, resourcePath } from './pages/datasets.ts';
import { renderBuilder } from './pages/mapping-builder.ts';
import { page } from './respond.ts';

const MAP_PREFIX = 'map.';

/** A query or form value given at most once, trimmed; empty is not given. */
function one(raw: Query | Record<string, string>, key: string): string | undefined {
  const value = raw[key];
  if (Array.isArray(value)) throw invalid(`${key}: given more than once`, key);
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** Which data and template: a template's URL typed wins over one chosen from the list. */
function builderQuery(raw: Query | Record<string, string>): BuilderQuery {
  const query: BuilderQuery = {};
  const template = one(raw, 'template_url') ?? one(raw, 'template');
  for (const [key, value] of [
    ['dataset', one(raw, 'dataset')],
    ['resource', one(raw, 'resource')],
    ['descriptor', one(raw, 'descriptor')],
    ['template', template],
  ] as const) {
    if (value !== undefined) query[key] = value;
  }
  return query;
}

function builderPost(form: Record<string, string>): BuilderPost {
  const map: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    if (key.startsWith(MAP_PREFIX) && key.length > MAP_PREFIX.length)
      map[key.slice(MAP_PREFIX.length)] = value;
  }
  return { ...builderQuery(form), shelf: one(form, 'shelf') ?? '', name: one(form, 'name') ?? '', map };
}

export function mappingRoutes(source: MappingSource, visitor: Visitor, a: Accounts): Route[] {
  return [
    pageRoute<Named>(
      visitor,
      '/group/{name}/mapping/new',
      'Make a mapping in the browser (`dataset` and `resource`: the upload, or `descriptor`: a URL; `template` or `template_url`); logged-in users',
      async ({ context, asker }, { params, query }) => {
        const { view, status } = await source.builder(asker, params.name, builderQuery(query));
        const html = renderBuilder(context, view);
        return status === undefined ? html : { html, status };
      },
    ),
    formRoute<Named>(
      visitor,
      a,
      '/group/{name}/mapping',
      'Save a mapping made in the browser (form: `dataset`, `resource` or `descriptor`, `template`, `map.<column>`: individual, `shelf`, `name`, `_csrf`): the mapper generates it, it joins the library; to the upload’s dataset',
      async ({ context, asker }, form, params) => {
        const post = builderPost(form);
        try {
          const id = await source.save(asker, params.name, post);
          return {
            redirect:
              post.dataset && post.resource
                ? `${datasetPath(post.dataset)}#automation`
                : resourcePath(post.shelf, id),
          };
        } catch (error) {
          const told = toldOnPage(error);
          if (!told) throw error;
          // The page again, with what was chosen and why it was refused.
          const { view } = await source.builder(asker, params.name, post);
          Object.assign(view, { chosen: post.map, shelf: post.shelf, error: told.detail });
          if (post.name) view.fileName = post.name;
          return page(renderBuilder(context, view), {}, told.status);
        }
      },
    ),
  ];
}
