// A data-set file's media type, by its extension (openBIS stores none). For dcat:mediaType,
// dcterms:format and RO-Crate's encodingFormat; unknown extensions are octet streams.
const BY_EXTENSION: Readonly<Record<string, string>> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  txt: 'text/plain',
  asc: 'text/plain',
  dat: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  jsonld: 'application/ld+json',
  xml: 'application/xml',
  html: 'text/html',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  zip: 'application/zip',
  ttl: 'text/turtle',
  nt: 'application/n-triples',
  rdf: 'application/rdf+xml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  yaml: 'application/yaml',
  yml: 'application/yaml',
};

export function mediaTypeOf(path: string): string {
  const name = path.split('/').pop() ?? '';
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return BY_EXTENSION[extension] ?? 'application/octet-stream';
}

/** What a data set's file is served as with `?download=1`: its type, and its name without folders. */
export function downloadOf(path: string): { contentType: string; filename: string } {
  return { contentType: mediaTypeOf(path), filename: path.split('/').pop() ?? path };
}
