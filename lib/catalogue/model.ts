// The catalogue's domain: datasets (CKAN's "packages"), their resources, groups, users, their
// roles per dataset and API tokens. Field names are CKAN's package and resource dict keys
// wherever CKAN has one, because the Action API speaks CKAN and hands these records out as
// they are. Nothing here knows HTTP, SQL or who may do what (authorization is lib/catalogue/auth).
import { conflict, invalid, type DomainError } from '../process/errors.ts';

/** Times are ISO 8601 in UTC with milliseconds (`2026-11-25T07:40:00.000Z`), so that they sort as text. */
export type Timestamp = string;

export interface GroupRef {
  id: string;
  name: string;
  title: string;
}

export interface Dataset extends DatasetMetadata {
  id: string;
  /** CKAN's rules: 2–100 characters, lowercase alphanumerics, `-` and `_`; unique. */
  name: string;
  title: string;
  /** The description (CKAN calls it notes). */
  notes: string;
  private: boolean;
  /** The user who made it (its owner); null once that user is gone. */
  creator_user_id: string | null;
  metadata_created: Timestamp;
  metadata_modified: Timestamp;
  groups: GroupRef[];
  /** The organization that owns it (CKAN's owner_org); null when none does. */
  owner_org: string | null;
  organization: OrganizationRef | null;
}

/** The CKAN package fields labld keeps as given ('' and [] when not given). */
export interface DatasetMetadata {
  author: string;
  author_email: string;
  maintainer: string;
  maintainer_email: string;
  version: string;
  url: string;
  license_id: string;
  /** Free tags (CKAN's tags without a vocabulary), in name order. */
  tags: string[];
  /** CKAN's extras: key/value text pairs, keys unique, in key order. */
  extras: { key: string; value: string }[];
}

export const METADATA_TEXT = [
  'author',
  'author_email',
  'maintainer',
  'maintainer_email',
  'version',
  'url',
  'license_id',
] as const;

/** What a caller gives to create or replace a dataset. */
export interface DatasetFields extends Partial<DatasetMetadata> {
  name: string;
  title?: string;
  notes?: string;
  private?: boolean;
  creator_user_id?: string | null;
  /** Id or name of the owning organization; null: none. */
  owner_org?: string | null;
}

/** A new record's id as its creator gave it (a migration keeps the ids it had elsewhere). */
export interface GivenId {
  id?: string;
}

/** The fields a patch may change. */
export type DatasetChanges = Partial<Omit<DatasetFields, 'creator_user_id'>>;

/** An uploaded file (kept in the blob store) or a link to one elsewhere. */
export type UrlType = 'upload' | 'link';

/**
 * A derived resource is identified by what it was made from: the dataset, the resource it was
 * derived from and the chain step that made it. Deriving again replaces it in place (same id).
 */
export interface DerivationKey {
  package_id: string;
  source_resource_id: string;
  /** The chain step, e.g. `annotate`, `convert`, `join`. */
  step: string;
}

export interface Resource {
  id: string;
  package_id: string;
  /** Order of the resource in its dataset, from 0. */
  position: number;
  name: string;
  description: string;
  format: string;
  url: string;
  url_type: UrlType;
  /** Bytes; null when unknown (a link). */
  size: number | null;
  hash: string;
  mimetype: string;
  created: Timestamp;
  last_modified: Timestamp;
  /** The blob store key of an upload; null for a link. */
  blob_key: string | null;
  /** The user who made it; null when a chain step did (then `derivation` says which). */
  creator_user_id: string | null;
  /** As the original records them (research §1.8): the URL it was made from, and by what service. */
  hadPrimarySource: string | null;
  wasGeneratedBy: string | null;
  /** Set for a resource a chain step derived from another one. */
  derivation: Omit<DerivationKey, 'package_id'> | null;
}

export interface ResourceFields {
  name: string;
  description?: string;
  format?: string;
  url?: string;
  url_type?: UrlType;
  size?: number | null;
  hash?: string;
  mimetype?: string;
  blob_key?: string | null;
  creator_user_id?: string | null;
  hadPrimarySource?: string | null;
  wasGeneratedBy?: string | null;
}

export type ResourceChanges = Partial<ResourceFields>;

export interface Group {
  id: string;
  name: string;
  title: string;
  description: string;
  created: Timestamp;
  package_count: number;
}

/** CKAN's organization: owns datasets, and its members' roles reach every dataset it owns. */
export interface Organization extends OrganizationRef {
  /** Every dataset it owns, private ones too (the Action API counts what the caller may see). */
  package_count: number;
}

/** An organization's own fields (what a dataset carries of its owner). */
export interface OrganizationRef {
  id: string;
  name: string;
  title: string;
  description: string;
  image_url: string;
  created: Timestamp;
}

export interface OrganizationFields {
  name: string;
  title?: string;
  description?: string;
  image_url?: string;
}

export type OrganizationChanges = Partial<OrganizationFields>;

/** A user's role in an organization (CKAN's capacities member/editor/admin; member is `reader`). */
export interface OrganizationMembership {
  user_id: string;
  organization_id: string;
  role: Role;
}

export interface GroupFields {
  name: string;
  title?: string;
  description?: string;
}

export interface User {
  id: string;
  name: string;
  fullname: string;
  email: string;
  sysadmin: boolean;
  /** Opaque to the store: the auth module hashes and checks it. Null: no password login. */
  password_hash: string | null;
  created: Timestamp;
}

export interface UserFields {
  name: string;
  fullname?: string;
  email?: string;
  sysadmin?: boolean;
  password_hash?: string | null;
}

export type UserChanges = Partial<Omit<UserFields, 'name'>>;

export const ROLES = ['reader', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface Membership {
  user_id: string;
  package_id: string;
  role: Role;
}

export interface ApiToken {
  id: string;
  user_id: string;
  name: string;
  /** Opaque to the store: the auth module hashes the token; the token itself is never stored. */
  token_hash: string;
  created: Timestamp;
  last_used: Timestamp | null;
}

export interface ApiTokenFields {
  user_id: string;
  name: string;
  token_hash: string;
}

/** A browser session: the store keeps only the hash of the cookie's value (lib/catalogue/auth/sessions.ts). */
export interface Session {
  session_hash: string;
  user_id: string;
  created: Timestamp;
  expires: Timestamp;
}

export interface SessionFields {
  session_hash: string;
  /** Id or name of the user. */
  user_id: string;
  expires: Timestamp;
}

const NAME = /^[a-z0-9_-]{2,100}$/;
/** CKAN's words its pages' paths take (`/dataset/new`); CKAN's name_validator refuses them too. */
const RESERVED = new Set(['new', 'edit', 'search']);
/** The form of a record's id: a name of that form could shadow another record's id in a look-up. */
const ID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A name that cannot be had: taken, reserved, or in the form of an id — one answer for all, so
 * that a name held by a private dataset is refused without saying that a dataset holds it.
 */
export function nameUnavailable(name: string, field = 'name'): DomainError {
  return conflict(
    `${field}: ${JSON.stringify(name)} is not available (a name cannot be one already taken, new, edit, search, or in the form of an id); choose another`,
    field,
  );
}

/**
 * CKAN's rule for dataset, group and user names; `field` is named in the error. Beyond CKAN, no
 * name in the form of an id: look-ups take an id or a name, and the id wins.
 */
export function checkName(name: unknown, field = 'name'): string {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw invalid(
      `${field}: must be 2 to 100 characters, lowercase letters, digits, "-" and "_" (got ${JSON.stringify(name)?.slice(0, 120)})`,
      field,
    );
  }
  if (RESERVED.has(name) || ID_FORM.test(name)) throw nameUnavailable(name, field);
  return name;
}

/** A client-given id: a UUID in the lowercase form labld's own ids have. */
export function checkId(id: unknown, field = 'id'): string {
  if (typeof id !== 'string' || !ID_FORM.test(id)) {
    throw invalid(
      `${field}: must be a UUID in lowercase (8-4-4-4-12 hex digits) (got ${JSON.stringify(id)?.slice(0, 120)})`,
      field,
    );
  }
  return id;
}

export function checkRole(role: unknown, field = 'role'): Role {
  if (!(ROLES as readonly unknown[]).includes(role)) {
    throw invalid(`${field}: must be one of ${ROLES.join(', ')} (got ${JSON.stringify(role)})`, field);
  }
  return role as Role;
}

export function checkUrlType(type: unknown, field = 'url_type'): UrlType {
  if (type !== 'upload' && type !== 'link') {
    throw invalid(`${field}: must be upload or link (got ${JSON.stringify(type)})`, field);
  }
  return type;
}

/** A byte size: a whole number from 0, or null. */
export function checkSize(size: unknown, field = 'size'): number | null {
  if (size === null) return null;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    throw invalid(`${field}: must be a whole number of bytes from 0 (got ${JSON.stringify(size)})`, field);
  }
  return size;
}

export function now(): Timestamp {
  return new Date().toISOString();
}
