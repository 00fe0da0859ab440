// The edit pages: a dataset's fields, its deletion and (for its admins) its members and their
// roles; a resource's fields, a new file for it and its deletion. Plain forms with the CSRF
// field, so they work without JavaScript; a deletion says what goes with it and is ticked first.
import { escapeHtml } from '../html.ts';
import type { DatasetEditView, ResourceEditView } from '../edit-source.ts';
import { CAPACITIES } from '../edit-source.ts';
import type { PageContext } from '../views.ts';
import { datasetPath, resourcePath } from './datasets.ts';
import { csrfField, layout } from './layout.ts';

export const editPath = (dataset: string): string => `${datasetPath(dataset)}/edit`;
export const resourceEditPath = (dataset: string, id: string): string => `${resourcePath(dataset, id)}/edit`;

function capacityOptions(chosen: string): string {
  return CAPACITIES.map((c) => `<option value="${c}"${c === chosen ? ' selected' : ''}>${c}</option>`).join(
    '',
  );
}

function fieldsForm(context: PageContext, view: DatasetEditView): string {
  const d = view.dataset;
  const licenses = [{ id: '', title: '(none)' }, ...view.licenses]
    .map(
      (l) =>
        `<option value="${escapeHtml(l.id)}"${l.id === d.license ? ' selected' : ''}>${escapeHtml(l.title)}</option>`,
    )
    .join('');
  return `<form class="stacked narrow" method="post" action="${escapeHtml(editPath(d.name))}" id="dataset-edit">
        ${csrfField(context)}
        <label for="dataset-title">Title</label>
        <input id="dataset-title" name="title" type="text" maxlength="200" value="${escapeHtml(d.title)}">
        <label for="dataset-notes">Description</label>
        <textarea id="dataset-notes" name="notes" rows="4">${escapeHtml(d.notes)}</textarea>
        <label for="dataset-tags">Tags <span class="hint">(separated by commas)</span></label>
        <input id="dataset-tags" name="tags" type="text" value="${escapeHtml(d.tags.join(', '))}">
        <label for="dataset-license">Licence</label>
        <select id="dataset-license" name="license">${licenses}</select>
        <p class="check"><input id="dataset-private" name="private" type="checkbox"${d.private ? ' checked' : ''}> <label for="dataset-private">Private: only its members can see it</label></p>
        <p><button type="submit">Save</button></p>
      </form>`;
}

function membersSection(
  context: PageContext,
  name: string,
  members: { name: string; capacity: string }[],
): string {
  const action = `${datasetPath(name)}/members`;
  const rows = members
    .map(
      (m, i) => `<tr><th scope="row">${escapeHtml(m.name)}</th>
            <td><form method="post" action="${escapeHtml(action)}" class="inline-form">
              ${csrfField(context)}<input type="hidden" name="user" value="${escapeHtml(m.name)}">
              <label class="visually-hidden" for="member-role-${i}">Role of ${escapeHtml(m.name)}</label>
              <select id="member-role-${i}" name="capacity">${capacityOptions(m.capacity)}</select>
              <button type="submit">Change</button>
            </form></td>
            <td><form method="post" action="${escapeHtml(action)}/remove" class="inline-form">
              ${csrfField(context)}<input type="hidden" name="user" value="${escapeHtml(m.name)}">
              <button type="submit" class="danger">Remove<span class="visually-hidden"> ${escapeHtml(m.name)}</span></button>
            </form></td></tr>`,
    )
    .join('\n          ');
  return `<section aria-labelledby="members-heading" id="members">
        <h2 id="members-heading">Members</h2>
        <p class="hint">A member reads a private dataset; an editor also adds and changes resources and the fields above; an admin also manages the members.</p>
        <div class="table-scroll"><table class="data">
          <caption class="visually-hidden">Members of ${escapeHtml(name)}</caption>
          <thead><tr><th scope="col">User</th><th scope="col">Role</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
          <tbody>
          ${rows}
          </tbody>
        </table></div>
        <form method="post" action="${escapeHtml(action)}" class="stacked narrow" id="member-add">
          ${csrfField(context)}
          <label for="member-user">User name</label>
          <input id="member-user" name="user" type="text" required maxlength="100">
          <label for="member-capacity">Role</label>
          <select id="member-capacity" name="capacity">${capacityOptions('member')}</select>
          <p><button type="submit">Add the member</button></p>
        </form>
      </section>`;
}

function deleteForm(context: PageContext, action: string, what: string, consequence: string): string {
  return `<section aria-labelledby="delete-heading" class="danger-zone">
        <h2 id="delete-heading">Delete</h2>
        <p>${escapeHtml(consequence)}</p>
        <form method="post" action="${escapeHtml(action)}">
          ${csrfField(context)}
          <p class="check"><input id="delete-confirm" type="checkbox" required> <label for="delete-confirm">Yes, delete ${escapeHtml(what)}</label></p>
          <button type="submit" class="danger">Delete ${escapeHtml(what)}</button>
        </form>
      </section>`;
}

export function renderDatasetEdit(context: PageContext, view: DatasetEditView): string {
  const d = view.dataset;
  const main = `      <p class="breadcrumb"><a href="/dataset">Datasets</a> / <a href="${escapeHtml(datasetPath(d.name))}">${escapeHtml(d.title)}</a> /</p>
      <h1>Edit ${escapeHtml(d.title)}</h1>
      ${view.canUpdate ? fieldsForm(context, view) : ''}
      ${view.members ? membersSection(context, d.name, view.members) : ''}
      ${
        view.canDelete
          ? deleteForm(
              context,
              `${datasetPath(d.name)}/delete`,
              'this dataset',
              'Deleting the dataset deletes its resources, their tables and its graphs in the triple store.',
            )
          : ''
      }`;
  return layout({ ...context, current: 'datasets' }, { title: `Edit ${d.title}` }, main);
}

export function renderResourceEdit(context: PageContext, view: ResourceEditView): string {
  const { dataset, resource } = view;
  const path = resourcePath(dataset.name, resource.id);
  const replace = resource.stored
    ? `<section aria-labelledby="replace-heading">
        <h2 id="replace-heading">Replace the file</h2>
        <p>A new file for this resource: the automation steps run again on it and replace what they made from the old one.</p>
        <form class="stacked" method="post" action="${escapeHtml(path)}/replace" enctype="multipart/form-data" id="resource-replace">
          ${csrfField(context)}
          <label for="replace-file">New file</label>
          <input id="replace-file" name="file" type="file" required>
          <p><button type="submit">Replace</button></p>
        </form>
      </section>`
    : '';
  const main = `      <p class="breadcrumb"><a href="/dataset">Datasets</a> / <a href="${escapeHtml(datasetPath(dataset.name))}">${escapeHtml(dataset.title)}</a> / <a href="${escapeHtml(path)}">${escapeHtml(resource.name)}</a> /</p>
      <h1>Edit ${escapeHtml(resource.name)}</h1>
      <form class="stacked narrow" method="post" action="${escapeHtml(resourceEditPath(dataset.name, resource.id))}" id="resource-edit">
        ${csrfField(context)}
        <label for="resource-name">Name</label>
        <input id="resource-name" name="name" type="text" required maxlength="255" value="${escapeHtml(resource.name)}">
        <label for="resource-description">Description</label>
        <textarea id="resource-description" name="description" rows="3">${escapeHtml(resource.description)}</textarea>
        <p><button type="submit">Save</button></p>
      </form>
      ${replace}
      ${deleteForm(context, `${path}/delete`, 'this resource', 'Deleting the resource deletes what the automation steps made from it and its table.')}`;
  return layout({ ...context, current: 'datasets' }, { title: `Edit ${resource.name}` }, main);
}
