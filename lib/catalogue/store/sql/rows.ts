// From database rows to the model's records. The two drivers differ in what they hand back:
// node:sqlite gives booleans as 0/1, pg gives BIGINT and COUNT as strings.
import type {
  ApiToken,
  Dataset,
  GroupRef,
  Membership,
  OrganizationRef,
  Resource,
  Role,
  Session,
  UrlType,
  User,
} from '../../model.ts';
import type { Row } from './session.ts';

export const str = (v: unknown): string => (v == null ? '' : String(v));
export const optStr = (v: unknown): string | null => (v == null ? null : String(v));
export const bool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't';
export const num = (v: unknown): number => Number(v);
const optNum = (v: unknown): number | null => (v == null ? null : Number(v));

export function datasetOf(
  row: Row,
  groups: GroupRef[],
  lists: Pick<Dataset, 'tags' | 'extras'> = { tags: [], extras: [] },
  organization: OrganizationRef | null = null,
): Dataset {
  return {
    owner_org: optStr(row.owner_org),
    organization,
    ...lists,
    author: str(row.author),
    author_email: str(row.author_email),
    maintainer: str(row.maintainer),
    maintainer_email: str(row.maintainer_email),
    version: str(row.version),
    url: str(row.url),
    license_id: str(row.license_id),
    id: str(row.id),
    name: str(row.name),
    title: str(row.title),
    notes: str(row.notes),
    private: bool(row.private),
    creator_user_id: optStr(row.creator_user_id),
    metadata_created: str(row.metadata_created),
    metadata_modified: str(row.metadata_modified),
    groups,
  };
}

export function resourceOf(row: Row): Resource {
  const step = optStr(row.derivation_step);
  const source = optStr(row.derived_from);
  return {
    id: str(row.id),
    package_id: str(row.package_id),
    position: num(row.position),
    name: str(row.name),
    description: str(row.description),
    format: str(row.format),
    url: str(row.url),
    url_type: str(row.url_type) as UrlType,
    size: optNum(row.size),
    hash: str(row.hash),
    mimetype: str(row.mimetype),
    created: str(row.created),
    last_modified: str(row.last_modified),
    blob_key: optStr(row.blob_key),
    creator_user_id: optStr(row.creator_user_id),
    hadPrimarySource: optStr(row.had_primary_source),
    wasGeneratedBy: optStr(row.was_generated_by),
    derivation: step !== null && source !== null ? { source_resource_id: source, step } : null,
  };
}

export function userOf(row: Row): User {
  return {
    id: str(row.id),
    name: str(row.name),
    fullname: str(row.fullname),
    email: str(row.email),
    sysadmin: bool(row.sysadmin),
    password_hash: optStr(row.password_hash),
    created: str(row.created),
  };
}

export function membershipOf(row: Row): Membership {
  return { user_id: str(row.user_id), package_id: str(row.package_id), role: str(row.role) as Role };
}

export function sessionOf(row: Row): Session {
  return {
    session_hash: str(row.session_hash),
    user_id: str(row.user_id),
    created: str(row.created),
    expires: str(row.expires),
  };
}

export function tokenOf(row: Row): ApiToken {
  return {
    id: str(row.id),
    user_id: str(row.user_id),
    name: str(row.name),
    token_hash: str(row.token_hash),
    created: str(row.created),
    last_used: optStr(row.last_used),
  };
}
