// The catalogue's records as CKAN's Action API hands them out (package, resource, group,
// organization, user dicts), because ckanapi and CKAN users' scripts read these keys.
import { downloadUrl } from '../../contracts/catalogue.ts';
import type { Datastore } from '../../datastore/contract.ts';
import { isDomainError } from '../../process/errors.ts';
import { licenseOf } from '../licenses.ts';
import type { Dataset, Group, OrganizationRef, Resource, Timestamp, User } from '../model.ts';

/**
 * CKAN's timestamps are UTC without a zone and with microseconds (`2026-11-25T07:40:00.123000`);
 * Python's `datetime.fromisoformat` in older versions reads only that form.
 */
export function ckanTime(time: Timestamp | null): string | null {
  if (time === null) return null;
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z?$/.exec(time);
  return match ? `${match[1]}.${(match[2] ?? '').padEnd(6, '0')}` : time;
}

async function hasTable(datastore: Datastore, resourceId: string): Promise<boolean> {
  try {
    await datastore.search({ resource_id: resourceId, limit: 0, include_total: false });
    return true;
  } catch (error) {
    if (isDomainError(error) && error.kind === 'not-found') return false;
    throw error;
  }
}

export async function resourceDict(
  datastore: Datastore,
  siteUrl: string,
  resource: Resource,
): Promise<Record<string, unknown>> {
  return {
    id: resource.id,
    package_id: resource.package_id,
    position: resource.position,
    name: resource.name,
    description: resource.description,
    format: resource.format,
    // An upload keeps its file name; its URL is made from the ids, as CKAN does.
    url: resource.url_type === 'upload' ? downloadUrl(siteUrl, resource) : resource.url,
    // CKAN: "upload" for a stored file, empty for a link.
    url_type: resource.url_type === 'upload' ? 'upload' : '',
    size: resource.size,
    hash: resource.hash,
    mimetype: resource.mimetype || null,
    created: ckanTime(resource.created),
    last_modified: ckanTime(resource.last_modified),
    metadata_modified: ckanTime(resource.last_modified),
    state: 'active',
    datastore_active: await hasTable(datastore, resource.id),
    creator_user_id: resource.creator_user_id,
    // CKAN keeps resource extras as top-level keys; the chain's provenance is read this way (research §1.8).
    ...(resource.hadPrimarySource !== null ? { hadPrimarySource: resource.hadPrimarySource } : {}),
    ...(resource.wasGeneratedBy !== null ? { wasGeneratedBy: resource.wasGeneratedBy } : {}),
    // labld's own extra: which chain step derived it from which resource (null for an upload).
    labld_derivation: resource.derivation,
  };
}

export function groupDict(group: Group): Record<string, unknown> {
  return {
    id: group.id,
    name: group.name,
    title: group.title,
    display_name: group.title || group.name,
    description: group.description,
    created: ckanTime(group.created),
    package_count: group.package_count,
    type: 'group',
    is_organization: false,
    state: 'active',
    approval_status: 'approved',
    image_url: '',
    image_display_url: '',
  };
}

/** An organization as package_show nests it (CKAN's package dict `organization`). */
function organizationRef(organization: OrganizationRef): Record<string, unknown> {
  return {
    id: organization.id,
    name: organization.name,
    title: organization.title,
    type: 'organization',
    description: organization.description,
    image_url: organization.image_url,
    created: ckanTime(organization.created),
    is_organization: true,
    approval_status: 'approved',
    state: 'active',
  };
}

/** An organization as organization_show and organization_list give it; `count`: datasets the caller sees. */
export function organizationDict(organization: OrganizationRef, count: number): Record<string, unknown> {
  return {
    ...organizationRef(organization),
    display_name: organization.title || organization.name,
    image_display_url: organization.image_url,
    package_count: count,
    num_followers: 0,
  };
}

/** CKAN's license_title, license_url and isopen of a license_id (an id not in the list: its own title). */
function licenseFields(id: string): Record<string, unknown> {
  if (id === '') return { license_title: null, isopen: false };
  const license = licenseOf(id);
  return {
    license_title: license?.title ?? id,
    ...(license?.url ? { license_url: license.url } : {}),
    isopen: license?.is_okd_compliant ?? false,
  };
}

export async function packageDict(
  datastore: Datastore,
  siteUrl: string,
  dataset: Dataset,
  resources: Resource[],
): Promise<Record<string, unknown>> {
  return {
    id: dataset.id,
    name: dataset.name,
    title: dataset.title,
    notes: dataset.notes,
    private: dataset.private,
    state: 'active',
    type: 'dataset',
    url: dataset.url,
    version: dataset.version || null,
    author: dataset.author || null,
    author_email: dataset.author_email || null,
    maintainer: dataset.maintainer || null,
    maintainer_email: dataset.maintainer_email || null,
    license_id: dataset.license_id || null,
    ...licenseFields(dataset.license_id),
    creator_user_id: dataset.creator_user_id,
    metadata_created: ckanTime(dataset.metadata_created),
    metadata_modified: ckanTime(dataset.metadata_modified),
    owner_org: dataset.owner_org,
    organization: dataset.organization && organizationRef(dataset.organization),
    groups: dataset.groups.map((g) => ({
      id: g.id,
      name: g.name,
      title: g.title,
      display_name: g.title || g.name,
      description: '',
      image_display_url: '',
    })),
    tags: dataset.tags.map((name) => ({ name, display_name: name, state: 'active', vocabulary_id: null })),
    num_tags: dataset.tags.length,
    extras: dataset.extras,
    relationships_as_object: [],
    relationships_as_subject: [],
    resources: await Promise.all(resources.map((r) => resourceDict(datastore, siteUrl, r))),
    num_resources: resources.length,
  };
}

/** A user as user_show gives it; the e-mail only to the user themself and sysadmins (CKAN's rule). */
export function userDict(user: User, full: boolean): Record<string, unknown> {
  return {
    id: user.id,
    name: user.name,
    fullname: user.fullname,
    display_name: user.fullname || user.name,
    about: '',
    created: ckanTime(user.created),
    sysadmin: user.sysadmin,
    state: 'active',
    image_display_url: '',
    ...(full ? { email: user.email } : {}),
  };
}
