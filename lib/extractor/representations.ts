// The representations of a record besides the HTML page (which the gateway renders): a name
// on the bus, so that contracts need not load the writers.
export const REPRESENTATIONS = ['jsonld', 'jsonld-expanded', 'turtle', 'ntriples', 'rdfxml', 'json'] as const;
export type Representation = (typeof REPRESENTATIONS)[number];
