// How a domain reads a document a request names: it is handed a Loader and never fetches by
// itself, so that the domain knows neither the guarded fetch nor the blob store (the request
// consumer builds the loader: lib/sources.ts `textLoader`). Tests hand in fixtures instead.

/** What a loader hands back for a URL. */
export interface Loaded {
  /** The URL finally answered (after redirects). */
  url: string;
  text: string;
  contentType?: string;
  /** Last path segment, decoded. */
  fileName: string;
}

/** Reads the document at `url`; `field` is the request field that named it (errors name it). */
export type Loader = (url: string, field: string) => Promise<Loaded>;

// The CSVW reader (csv2rdf) needs more than text: the body as it streams, decoded in the
// dialect's encoding, and the Link header for metadata discovery.

/** What the injected loader returns for a URL: decoded text or a byte stream. */
export interface LoadedResource {
  /** The whole body as text (already decoded). */
  text?: string;
  /** The body as it streams; decoded with the dialect's encoding (default UTF-8). */
  body?: AsyncIterable<Uint8Array | string>;
  contentType?: string | undefined;
  /** The HTTP Link header of the response, used for metadata discovery. */
  linkHeader?: string | undefined;
}

/**
 * Fetches a URL. `field` is the request field the URL stands for (metadata_url or csv_url),
 * for the loader's own errors. Throws when the resource does not exist or cannot be read (the
 * guarded fetch throws DomainErrors); metadata discovery treats any throw as "not there".
 */
export type ResourceLoader = (url: string, field: string) => Promise<LoadedResource>;
