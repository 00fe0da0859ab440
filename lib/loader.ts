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
