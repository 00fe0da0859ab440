// The edit verbs' routes: GET the edit pages, POST their forms (CSRF-checked by formRoute, or
// checkForm for the multipart replacement). Each answers a redirect to what changed; a refusal
// is the Action API's (a dataset the asker cannot see is not found, a right they lack forbidden).
import { invalid } from '../../lib/process/errors.ts';
import { route, type Route } from '../kit/index.ts';
import { checkForm, type Accounts } from './accounts.ts';
import type { EditSource } from './edit-source.ts';
import {
  checkbox,
  formRoute,
  pageRoute,
  paramsSchema,
  required,
  type Named,
  type NamedId,
  type Query,
  type Visitor,
} from './page-routes.ts';
import { datasetPath, resourcePath } from './pages/datasets.ts';
import { editPath, renderDatasetEdit, renderResourceEdit } from './pages/edit.ts';
import { errorPage } from './respond.ts';

export function editRoutes(source: EditSource, visitor: Visitor, a: Accounts): Route[] {
  return [
    pageRoute<Named>(
      visitor,
      '/dataset/{name}/edit',
      "A dataset's edit page: its fields (editors), members (admins), Delete (editors)",
      async ({ context, asker }, { params }) =>
        renderDatasetEdit(context, await source.datasetEdit(asker, params.name)),
    ),
    formRoute<Named>(
      visitor,
      a,
      '/dataset/{name}/edit',
      'Change a dataset (form: `title`, `notes`, `tags`, `license`, `private`, `_csrf`), as package_patch',
      async ({ asker }, form, params) => {
        const name = await source.updateDataset(asker, params.name, {
          title: (form.title ?? '').trim(),
          notes: form.notes ?? '',
          tags: form.tags ?? '',
          license: (form.license ?? '').trim(),
          private: checkbox(form.private),
        });
        return { redirect: datasetPath(name) };
      },
    ),
    formRoute<Named>(
      visitor,
      a,
      '/dataset/{name}/delete',
      'Delete a dataset (form: `_csrf`), as package_delete; to the dataset list',
      async ({ asker }, _form, params) => {
        await source.deleteDataset(asker, params.name);
        return { redirect: '/dataset' };
      },
    ),
    formRoute<Named>(
      visitor,
      a,
      '/dataset/{name}/members',
      "Add a member or change a member's role (form: `user`, `capacity`, `_csrf`), as package_collaborator_create",
      async ({ asker }, form, params) => {
        await source.setMember(asker, params.name, required(form, 'user'), required(form, 'capacity'));
        return { redirect: `${editPath(params.name)}#members` };
      },
    ),
    formRoute<Named>(
      visitor,
      a,
      '/dataset/{name}/members/remove',
      'Remove a member (form: `user`, `_csrf`), as package_collaborator_delete',
      async ({ asker }, form, params) => {
        await source.removeMember(asker, params.name, required(form, 'user'));
        return { redirect: `${editPath(params.name)}#members` };
      },
    ),
    pageRoute<NamedId>(
      visitor,
      '/dataset/{name}/resource/{id}/edit',
      "A resource's edit page: its name and description, a new file, Delete (editors)",
      async ({ context, asker }, { params }) =>
        renderResourceEdit(context, await source.resourceEdit(asker, params.name, params.id)),
    ),
    formRoute<NamedId>(
      visitor,
      a,
      '/dataset/{name}/resource/{id}/edit',
      'Change a resource (form: `name`, `description`, `_csrf`), as resource_patch',
      async ({ asker }, form, params) => {
        await source.updateResource(asker, params.name, params.id, {
          name: required(form, 'name'),
          description: form.description ?? '',
        });
        return { redirect: resourcePath(params.name, params.id) };
      },
    ),
    formRoute<NamedId>(
      visitor,
      a,
      '/dataset/{name}/resource/{id}/delete',
      'Delete a resource and what the chain made from it (form: `_csrf`), as resource_delete',
      async ({ asker }, _form, params) => {
        await source.deleteResource(asker, params.name, params.id);
        return { redirect: datasetPath(params.name) };
      },
    ),
    route<Query, { _csrf?: string }, NamedId>({
      method: 'POST',
      path: '/dataset/{name}/resource/{id}/replace',
      params: paramsSchema(['name', 'id']),
      summary:
        'A new file for a resource (multipart field `file`), as resource_patch with an upload: its chain runs again',
      body: {
        multipart: {
          fileField: 'file',
          fields: { type: 'object', properties: { _csrf: { type: 'string' } } },
        },
      },
      responses: { 303: { description: 'To the resource' } },
      handler: async ({ params: p, file, body }, ctx) => {
        const v = await visitor(ctx);
        try {
          await checkForm(ctx, a, v.visit, body._csrf);
          if (!file) throw invalid('file: choose a file to upload', 'file');
          await source.replaceResource(v.asker, p.name, p.id, file);
          return { redirect: resourcePath(p.name, p.id) };
        } catch (error) {
          return errorPage(ctx, v.context, error);
        }
      },
    }),
  ];
}
