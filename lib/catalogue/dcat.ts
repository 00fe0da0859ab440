// The catalogue as DCAT (DCAT-AP 3), the way ckanext-dcat's `euro_dcat_ap_3` profile maps CKAN's
// dicts: a package dict → a dcat:Dataset with a dcat:Distribution per resource, a page of them
// → a dcat:Catalog with hydra paging. Plain functions from CKAN's dicts (as package_show and
// package_search answer them) to quads; the gateway serializes them with lib/rdf.
import type * as RDF from '@rdfjs/types';
import { DataFactory, termToId, type Term } from 'n3';
import { RDF_TYPE, XSD } from '../rdf/vocab.ts';
import { licenseOf } from './licenses.ts';

const { namedNode, literal, blankNode, quad } = DataFactory;

export const DCAT_NS = 'http://www.w3.org/ns/dcat#';
const DCT = 'http://purl.org/dc/terms/';
const FOAF = 'http://xmlns.com/foaf/0.1/';
const VCARD = 'http://www.w3.org/2006/vcard/ns#';
const OWL = 'http://www.w3.org/2002/07/owl#';
const HYDRA = 'http://www.w3.org/ns/hydra/core#';
const SPDX = 'http://spdx.org/rdf/terms#';
/** DCAT-AP 3 wants dcat:mediaType as an IANA IRI. */
const IANA_MEDIA_TYPES = 'http://www.iana.org/assignments/media-types/';

/** The prefixes DCAT output is written with. */
export const DCAT_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  dcat: DCAT_NS,
  dct: DCT,
  foaf: FOAF,
  vcard: VCARD,
  owl: OWL,
  hydra: HYDRA,
  spdx: SPDX,
  xsd: XSD,
});

type Dict = Record<string, unknown>;
type Subject = RDF.NamedNode | RDF.BlankNode;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

// What every serializer can write as an IRI: an absolute IRI without the characters Turtle and
// RDF/XML cannot carry. A user's URL that is not one is left out rather than written broken.
const SAFE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]+$/;

function iri(value: string): RDF.NamedNode | undefined {
  return SAFE_IRI.test(value) ? namedNode(value) : undefined;
}

/** CKAN's times are UTC without a zone (`2026-11-25T07:40:00.123000`): written with the zone. */
function dateTime(value: unknown): RDF.Literal | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z?$/.exec(text(value));
  return match ? literal(`${match[1]}Z`, namedNode(`${XSD}dateTime`)) : undefined;
}

/** A value from the dict, else from its `extras` (ckanext-dcat's `_get_dataset_value`). */
function valueOf(pkg: Dict, key: string): string {
  const own = text(pkg[key]);
  if (own) return own;
  const extras = Array.isArray(pkg.extras) ? (pkg.extras as Dict[]) : [];
  return text(extras.find((e) => e.key === key)?.value);
}

export function datasetIri(siteUrl: string, id: string): string {
  return `${siteUrl}/dataset/${id}`;
}

/** Triples by subject, each once: n3's Writer groups a subject's triples only when they come together. */
class Graph {
  readonly #subjects = new Map<string, Map<string, RDF.Quad>>();

  add(s: Subject, p: string, o: RDF.Term | undefined): void {
    if (!o) return;
    const key = termToId(s as Term);
    let triples = this.#subjects.get(key);
    if (!triples) this.#subjects.set(key, (triples = new Map()));
    triples.set(`${p} ${termToId(o as Term)}`, quad(s, namedNode(p), o as RDF.Quad_Object));
  }

  get quads(): RDF.Quad[] {
    return [...this.#subjects.values()].flatMap((triples) => [...triples.values()]);
  }

  text(s: Subject, p: string, value: unknown): void {
    const v = text(value);
    if (v) this.add(s, p, literal(v));
  }
}

/** dct:license: the licence's document IRI (license_url, else a license_id that is an IRI). */
function licenseIri(pkg: Dict): RDF.NamedNode | undefined {
  const id = text(pkg.license_id);
  const url = text(pkg.license_url) || licenseOf(id)?.url || '';
  return iri(url) ?? (/^https?:\/\//.test(id) ? iri(id) : undefined);
}

function addLicense(g: Graph, subject: Subject, license: RDF.NamedNode | undefined): void {
  if (!license) return;
  g.add(subject, `${DCT}license`, license);
  g.add(license, RDF_TYPE, namedNode(`${DCT}LicenseDocument`));
}

/** dcat:contactPoint, a vcard:Organization from maintainer, else author (ckanext-dcat's fallbacks). */
function addContactPoint(g: Graph, dataset: Subject, pkg: Dict): void {
  const name = valueOf(pkg, 'contact_name') || valueOf(pkg, 'maintainer') || valueOf(pkg, 'author');
  const email =
    valueOf(pkg, 'contact_email') || valueOf(pkg, 'maintainer_email') || valueOf(pkg, 'author_email');
  const uri = iri(valueOf(pkg, 'contact_uri'));
  if (!name && !email && !uri) return;
  const contact = uri ?? blankNode();
  g.add(dataset, `${DCAT_NS}contactPoint`, contact);
  g.add(contact, RDF_TYPE, namedNode(`${VCARD}Organization`));
  g.text(contact, `${VCARD}fn`, name);
  if (email) g.add(contact, `${VCARD}hasEmail`, iri(email.startsWith('mailto:') ? email : `mailto:${email}`));
}

/** dct:publisher, a foaf:Agent: the publisher_* extras, else the dataset's organization. */
function addPublisher(g: Graph, dataset: Subject, pkg: Dict, siteUrl: string): void {
  const org = (pkg.organization ?? null) as Dict | null;
  let publisher: Subject | undefined;
  let details: { name: string; email: string; url: string };
  if (valueOf(pkg, 'publisher_uri') || valueOf(pkg, 'publisher_name')) {
    publisher = iri(valueOf(pkg, 'publisher_uri')) ?? blankNode();
    details = {
      name: valueOf(pkg, 'publisher_name'),
      email: valueOf(pkg, 'publisher_email'),
      url: valueOf(pkg, 'publisher_url'),
    };
  } else if (org && text(org.id)) {
    publisher = iri(`${siteUrl}/organization/${text(org.id)}`);
    details = { name: text(org.title) || text(org.name), email: text(org.email), url: text(org.url) };
  } else {
    return;
  }
  if (!publisher) return;
  g.add(dataset, `${DCT}publisher`, publisher);
  g.add(publisher, RDF_TYPE, namedNode(`${FOAF}Agent`));
  g.text(publisher, `${FOAF}name`, details.name);
  g.text(publisher, `${FOAF}mbox`, details.email);
  g.add(publisher, `${FOAF}homepage`, iri(details.url));
}

/**
 * dcat:mediaType (an IANA IRI) from `mimetype`, dct:format (text) from `format`; a format that
 * is itself a media type counts as one when no mimetype is given (ckanext-dcat's rule).
 */
function addFormat(g: Graph, distribution: Subject, resource: Dict): void {
  let mediaType = text(resource.mimetype);
  let format = text(resource.format);
  if (format && (!mediaType || mediaType === format)) {
    if (/^[\w.+-]+\/[\w.+-]+$/.test(format)) {
      mediaType = format;
      format = '';
    } else {
      mediaType = '';
    }
  }
  if (/^[\w.+-]+\/[\w.+-]+$/.test(mediaType)) {
    const type = namedNode(`${IANA_MEDIA_TYPES}${mediaType.toLowerCase()}`);
    g.add(distribution, `${DCAT_NS}mediaType`, type);
    g.add(type, RDF_TYPE, namedNode(`${DCT}MediaType`));
  }
  g.text(distribution, `${DCT}format`, format);
}

function addDistribution(
  g: Graph,
  dataset: Subject,
  pkg: Dict,
  resource: Dict,
  license: RDF.NamedNode | undefined,
  siteUrl: string,
): void {
  const distribution = iri(`${datasetIri(siteUrl, text(pkg.id))}/resource/${text(resource.id)}`);
  if (!distribution) return;
  g.add(dataset, `${DCAT_NS}distribution`, distribution);
  g.add(distribution, RDF_TYPE, namedNode(`${DCAT_NS}Distribution`));
  g.text(distribution, `${DCT}title`, resource.name);
  g.text(distribution, `${DCT}description`, resource.description);
  const url = iri(text(resource.url));
  g.add(distribution, `${DCAT_NS}accessURL`, url);
  // A stored file's URL is its download; a link's may be any page (accessURL only).
  if (resource.url_type === 'upload') g.add(distribution, `${DCAT_NS}downloadURL`, url);
  addFormat(g, distribution, resource);
  if (typeof resource.size === 'number' && Number.isSafeInteger(resource.size) && resource.size >= 0) {
    g.add(
      distribution,
      `${DCAT_NS}byteSize`,
      literal(String(resource.size), namedNode(`${XSD}nonNegativeInteger`)),
    );
  }
  g.add(distribution, `${DCT}issued`, dateTime(resource.created));
  g.add(distribution, `${DCT}modified`, dateTime(resource.metadata_modified ?? resource.last_modified));
  addLicense(g, distribution, license);
  // A stored file's hash is the SHA-256 of its bytes (the blob store's key).
  const hash = text(resource.hash);
  if (resource.url_type === 'upload' && /^[0-9a-f]{64}$/.test(hash)) {
    const checksum = blankNode();
    g.add(distribution, `${SPDX}checksum`, checksum);
    g.add(checksum, RDF_TYPE, namedNode(`${SPDX}Checksum`));
    g.add(checksum, `${SPDX}algorithm`, namedNode(`${SPDX}checksumAlgorithm_sha256`));
    g.add(checksum, `${SPDX}checksumValue`, literal(hash, namedNode(`${XSD}hexBinary`)));
  }
}

function addDataset(g: Graph, pkg: Dict, siteUrl: string): RDF.NamedNode | undefined {
  const dataset = iri(datasetIri(siteUrl, text(pkg.id)));
  if (!dataset || !text(pkg.id)) return undefined;
  g.add(dataset, RDF_TYPE, namedNode(`${DCAT_NS}Dataset`));
  g.text(dataset, `${DCT}title`, pkg.title);
  g.text(dataset, `${DCT}description`, pkg.notes);
  g.text(dataset, `${DCT}identifier`, pkg.id);
  g.text(dataset, `${OWL}versionInfo`, pkg.version);
  const landingPage = iri(text(pkg.url));
  g.add(dataset, `${DCAT_NS}landingPage`, landingPage);
  if (landingPage) g.add(landingPage, RDF_TYPE, namedNode(`${FOAF}Document`));
  for (const tag of Array.isArray(pkg.tags) ? (pkg.tags as Dict[]) : []) {
    g.text(dataset, `${DCAT_NS}keyword`, tag.name);
  }
  g.add(dataset, `${DCT}issued`, dateTime(pkg.metadata_created));
  g.add(dataset, `${DCT}modified`, dateTime(pkg.metadata_modified));
  addContactPoint(g, dataset, pkg);
  addPublisher(g, dataset, pkg, siteUrl);
  // DCAT-AP puts the licence on distributions; W3C DCAT allows it on the dataset too, where
  // a dataset without resources still says it.
  const license = licenseIri(pkg);
  addLicense(g, dataset, license);
  for (const resource of Array.isArray(pkg.resources) ? (pkg.resources as Dict[]) : []) {
    addDistribution(g, dataset, pkg, resource, license, siteUrl);
  }
  return dataset;
}

/** A package dict (package_show's) as a dcat:Dataset with its distributions. */
export function datasetQuads(pkg: Dict, siteUrl: string): RDF.Quad[] {
  const g = new Graph();
  addDataset(g, pkg, siteUrl);
  return g.quads;
}

/** Where a catalog page sits among the others (ckanext-dcat's pagination_info). */
export interface CatalogPage {
  /** Datasets the caller may read, in all pages. */
  count: number;
  page: number;
  perPage: number;
  /** The URL of page `n`. */
  pageUrl(n: number): string;
}

export interface CatalogSite {
  siteUrl: string;
  title: string;
  description: string;
  /** The newest metadata_modified of the datasets the caller may read. */
  modified?: unknown;
}

/** hydra:PagedCollection on the page's URL, with ckanext-dcat's old and new predicates, as literals as there. */
function addPaging(g: Graph, paging: CatalogPage, shown: number): void {
  if (paging.count === 0) return; // ckanext-dcat: no paging triples for an empty catalog
  const current = namedNode(paging.pageUrl(paging.page));
  const last = Math.max(1, Math.ceil(paging.count / paging.perPage));
  const links: [string[], number | undefined][] = [
    [['firstPage', 'first'], 1],
    [['lastPage', 'last'], last],
    [['nextPage', 'next'], paging.page * paging.perPage < paging.count ? paging.page + 1 : undefined],
  ];
  if (paging.page > 1) {
    // Past the end: back to the last page, as ckanext-dcat.
    const within = (paging.page - 1) * paging.perPage + shown <= paging.count && shown > 0;
    links.push([['previousPage', 'previous'], within ? paging.page - 1 : last]);
  }
  g.add(current, RDF_TYPE, namedNode(`${HYDRA}PagedCollection`));
  for (const [predicates, n] of links) {
    if (n === undefined) continue;
    for (const p of predicates) g.add(current, `${HYDRA}${p}`, literal(paging.pageUrl(n)));
  }
  g.add(current, `${HYDRA}totalItems`, literal(String(paging.count), namedNode(`${XSD}integer`)));
  g.add(current, `${HYDRA}itemsPerPage`, literal(String(paging.perPage), namedNode(`${XSD}integer`)));
}

/** A page of package dicts (package_search's) as the site's dcat:Catalog. */
export function catalogQuads(site: CatalogSite, packages: Dict[], paging: CatalogPage): RDF.Quad[] {
  const g = new Graph();
  const catalog = namedNode(site.siteUrl);
  g.add(catalog, RDF_TYPE, namedNode(`${DCAT_NS}Catalog`));
  g.text(catalog, `${DCT}title`, site.title);
  g.text(catalog, `${DCT}description`, site.description);
  g.add(catalog, `${FOAF}homepage`, iri(site.siteUrl));
  g.add(catalog, `${DCT}modified`, dateTime(site.modified));
  for (const pkg of packages) g.add(catalog, `${DCAT_NS}dataset`, addDataset(g, pkg, site.siteUrl));
  addPaging(g, paging, packages.length);
  return g.quads;
}
