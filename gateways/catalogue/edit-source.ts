// The pages' edit verbs: a dataset's fields, deletion and members, a resource's fields,
// replacement and deletion. Each is the Action API's own action (package_patch, package_delete,
// package_collaborator_*, resource_patch, resource_delete) run with the asker's credential, so
// the rights, the refusals and what the change sets off (its outbox) are the API's.
import { randomUUID } from 'node:crypto';
import type { ActionName, StoredUpload } from '../../lib/contracts/catalogue.ts';
import { text } from '../../lib/json.ts';
import { forbidden, notFound, unauthorized } from '../../lib/process/errors.ts';
import type { Runtime } from '../../app/runtime.ts';
import { callAction } from './actions.ts';
import type { Asker, UploadedResource } from './source.ts';

type Dict = Record<string, unknown>;

export const CAPACITIES = ['member', 'editor', 'admin'] as const;

/** What the edit form of a dataset sends. */
export interface DatasetEdit {
  title: string;
  notes: string;
  /** Comma-separated. */
  tags: string;
  license: string;
  private: boolean;
}

export interface DatasetEditView {
  dataset: { name: string; title: string; notes: string; tags: string[]; license: string; private: boolean };
  licenses: { id: string; title: string }[];
  canUpdate: boolean;
  canDelete: boolean;
  /** The dataset's members, for its admins only. */
  members?: { name: string; capacity: string }[];
}

export interface ResourceEditView {
  dataset: { name: string; title: string };
  resource: { id: string; name: string; description: string; stored: boolean };
}

export class EditSource {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  #call(asker: Asker, name: ActionName, params: Dict) {
    return callAction(this.#runtime, name, params, asker.credential);
  }

  /** A change, with a correlation id of its own for the logs of what it sets off. */
  #act(asker: Asker, name: ActionName, params: Dict, upload?: StoredUpload) {
    return callAction(this.#runtime, name, params, asker.credential, {
      correlationId: randomUUID(),
      ...(upload ? { upload } : {}),
    });
  }

  /** The dataset and what the asker may do to it; a visitor is asked to log in, as for every write. */
  async #dataset(asker: Asker, name: string): Promise<{ d: Dict; may: Dict }> {
    if (asker.userName === undefined) throw unauthorized('Log in to change a dataset.', 'user');
    const d = (await this.#call(asker, 'package_show', { id: name })) as Dict;
    const may = (await this.#call(asker, 'labld_dataset_permissions', { id: text(d.id) })) as Dict;
    return { d, may };
  }

  async datasetEdit(asker: Asker, name: string): Promise<DatasetEditView> {
    const { d, may } = await this.#dataset(asker, name);
    if (may.update !== true && may.manage_members !== true) {
      throw forbidden('Only the editors and admins of this dataset may change it.', 'user');
    }
    const tags = Array.isArray(d.tags) ? (d.tags as Dict[]).map((t) => text(t.name)) : [];
    const licenses = (await this.#call(asker, 'license_list', {})) as Dict[];
    const view: DatasetEditView = {
      dataset: {
        name: text(d.name),
        title: text(d.title) || text(d.name),
        notes: text(d.notes),
        tags,
        license: text(d.license_id),
        private: d.private === true,
      },
      licenses: licenses.map((l) => ({ id: text(l.id), title: text(l.title) })),
      canUpdate: may.update === true,
      canDelete: may.delete === true,
    };
    if (may.manage_members === true) view.members = await this.#members(asker, text(d.id));
    return view;
  }

  async #members(asker: Asker, id: string): Promise<{ name: string; capacity: string }[]> {
    const list = (await this.#call(asker, 'package_collaborator_list', { id })) as Dict[];
    const members: { name: string; capacity: string }[] = [];
    for (const m of list) {
      const user = (await this.#call(asker, 'user_show', { id: text(m.user_id) })) as Dict;
      members.push({ name: text(user.name), capacity: text(m.capacity) });
    }
    return members.sort((a, b) => a.name.localeCompare(b.name));
  }

  async updateDataset(asker: Asker, name: string, edit: DatasetEdit): Promise<string> {
    const { d } = await this.#dataset(asker, name);
    const tags = edit.tags
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '')
      .map((t) => ({ name: t }));
    const changed = (await this.#act(asker, 'package_patch', {
      id: text(d.id),
      title: edit.title,
      notes: edit.notes,
      tags,
      license_id: edit.license,
      private: edit.private,
    })) as Dict;
    return text(changed.name);
  }

  async deleteDataset(asker: Asker, name: string): Promise<void> {
    const { d } = await this.#dataset(asker, name);
    await this.#act(asker, 'package_delete', { id: text(d.id) });
  }

  /** Adds a member or changes their role (CKAN's package_collaborator_create does both). */
  async setMember(asker: Asker, name: string, user: string, capacity: string): Promise<void> {
    const { d } = await this.#dataset(asker, name);
    await this.#act(asker, 'package_collaborator_create', { id: text(d.id), user_id: user, capacity });
  }

  async removeMember(asker: Asker, name: string, user: string): Promise<void> {
    const { d } = await this.#dataset(asker, name);
    await this.#act(asker, 'package_collaborator_delete', { id: text(d.id), user_id: user });
  }

  /** The resource, checked to belong to the dataset the path names (else not found, as CKAN's pages). */
  async #resource(asker: Asker, name: string, id: string): Promise<{ d: Dict; r: Dict; may: Dict }> {
    const { d, may } = await this.#dataset(asker, name);
    const r = (Array.isArray(d.resources) ? (d.resources as Dict[]) : []).find((x) => x.id === id);
    if (!r) throw notFound(`id: dataset ${name} has no resource ${id}`, 'id');
    return { d, r, may };
  }

  async resourceEdit(asker: Asker, name: string, id: string): Promise<ResourceEditView> {
    const { d, r, may } = await this.#resource(asker, name, id);
    if (may.upload !== true) {
      throw forbidden('Only the editors and admins of this dataset may change its resources.', 'user');
    }
    return {
      dataset: { name: text(d.name), title: text(d.title) || text(d.name) },
      resource: {
        id,
        name: text(r.name) || id,
        description: text(r.description),
        stored: r.url_type === 'upload',
      },
    };
  }

  async updateResource(
    asker: Asker,
    name: string,
    id: string,
    fields: { name: string; description: string },
  ): Promise<void> {
    await this.#resource(asker, name, id);
    await this.#act(asker, 'resource_patch', { id, name: fields.name, description: fields.description });
  }

  /** A new file for the resource: as resource_patch with an upload, its chain runs again. */
  async replaceResource(asker: Asker, name: string, id: string, file: UploadedResource): Promise<void> {
    await this.#resource(asker, name, id);
    const blob = await this.#runtime.blobs.putFile(file.keep(), file.sha256);
    await this.#act(
      asker,
      'resource_patch',
      { id },
      { blob, filename: file.filename, mimetype: file.mimetype, size: file.size },
    );
  }

  async deleteResource(asker: Asker, name: string, id: string): Promise<void> {
    await this.#resource(asker, name, id);
    await this.#act(asker, 'resource_delete', { id });
  }
}
