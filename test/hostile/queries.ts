// Hostile SPARQL queries (issue 25): the two that killed the embedded store, and more of the
// same families. `refused` names the limit a query must be refused by before it runs
// (lib/triplestore/bounds.ts, LABLD_SPARQL_*); the others may be answered or refused (4xx,
// 504 past the time limit), but never break the store for the next query.

export interface HostileQuery {
  label: string;
  text: string;
  /** The setting the refusal must name; absent: answered or refused, either is fine. */
  refused?: string;
}

const times = (n: number, text: string, separator = ' ') =>
  Array.from({ length: n }, () => text).join(separator);
const numbered = (n: number, make: (i: number) => string, separator = ' ') =>
  Array.from({ length: n }, (_, i) => make(i)).join(separator);

/** Three patterns matching everything: their product is the dataset's size cubed. */
const CUBE = '?a ?b ?c . ?d ?e ?f . ?g ?h ?i';

export const HOSTILE_QUERIES: HostileQuery[] = [
  // The issue's two.
  {
    label: 'UNION of 3,000 branches',
    text: `SELECT * WHERE { ${times(3000, '{?s ?p 0}', ' UNION ')} }`,
    refused: 'LABLD_SPARQL_MAX_NODES',
  },
  {
    label: 'property path of 4,000 steps',
    text: `SELECT * WHERE { ?s ${times(4000, '<urn:p>', '/')} ?o }`,
    refused: 'LABLD_SPARQL_MAX_(NODES|PATH)',
  },
  // Width.
  {
    label: 'UNION of 150 branches',
    text: `SELECT * WHERE { ${times(150, '{?s ?p ?o}', ' UNION ')} }`,
    refused: 'LABLD_SPARQL_MAX_UNION',
  },
  {
    label: 'sequence path of 100 steps',
    text: `SELECT * WHERE { ?s ${times(100, '<urn:p>', '/')} ?o }`,
    refused: 'LABLD_SPARQL_MAX_PATH',
  },
  {
    label: 'alternative path of 1,000 IRIs',
    text: `SELECT * WHERE { ?s ${times(1000, '<urn:p>', '|')} ?o }`,
    refused: 'LABLD_SPARQL_MAX_PATH',
  },
  {
    label: 'VALUES of 1,500 cells',
    text: `SELECT * WHERE { ?s ?p ?o VALUES ?x { ${times(1500, '1')} } }`,
    refused: 'LABLD_SPARQL_MAX_VALUES',
  },
  {
    label: 'VALUES of 30,000 cells',
    text: `SELECT * WHERE { VALUES ?x { ${times(30000, '1')} } }`,
    refused: 'LABLD_SPARQL_MAX_NODES',
  },
  {
    label: '6,000 numbers added',
    text: `SELECT * WHERE { ?s ?p ?o FILTER(${times(6000, '1', '+')} > 0) }`,
    refused: 'LABLD_SPARQL_MAX_NODES',
  },
  {
    label: '10,000 empty groups',
    text: `SELECT * WHERE { ${times(10000, '{}')} }`,
    refused: 'LABLD_SPARQL_MAX_NODES',
  },
  {
    label: '12,000 trues',
    text: `ASK { FILTER(${times(12000, 'true', ' && ')}) }`,
    refused: 'LABLD_SPARQL_MAX_NODES',
  },
  // Depth: brackets (refused before parsing) and the algebra.
  {
    label: 'groups nested 5,000 deep',
    text: `SELECT * WHERE { ${'{'.repeat(5000)} ?s ?p ?o ${'}'.repeat(5000)} }`,
    refused: 'LABLD_SPARQL_MAX_DEPTH',
  },
  {
    label: 'parentheses nested 20,000 deep',
    text: `ASK { FILTER(${'('.repeat(20000)}1${')'.repeat(20000)} > 0) }`,
    refused: 'LABLD_SPARQL_MAX_DEPTH',
  },
  {
    label: 'subqueries nested 300 deep',
    text: `SELECT * WHERE { ${times(300, '{ SELECT * WHERE {')} ?s ?p ?o ${'} }'.repeat(300)} }`,
    refused: 'LABLD_SPARQL_MAX_DEPTH',
  },
  {
    label: 'FILTER NOT EXISTS nested 200 deep',
    text: `ASK { ${times(200, '?s ?p ?o FILTER NOT EXISTS {')} ?s ?p ?o ${'}'.repeat(200)} }`,
    refused: 'LABLD_SPARQL_MAX_DEPTH',
  },
  {
    label: 'path closures nested 2,000 deep',
    text: `SELECT * WHERE { ?s ${'('.repeat(2000)}<urn:p>${')*'.repeat(2000)} ?o }`,
    refused: 'LABLD_SPARQL_MAX_DEPTH',
  },
  {
    label: 'CONCAT nested 500 deep',
    text: `SELECT * WHERE { BIND(${'CONCAT("a",'.repeat(500)}"b"${')'.repeat(500)} AS ?x) }`,
    refused: 'LABLD_SPARQL_MAX_DEPTH',
  },
  {
    label: '1,000 OPTIONALs in a row',
    text: `SELECT * WHERE { ?s ?p ?o ${times(1000, 'OPTIONAL { ?s ?p ?o }')} }`,
    refused: 'LABLD_SPARQL_MAX_(DEPTH|NODES)',
  },
  {
    label: '300 BINDs in a row',
    text: `SELECT * WHERE { ?s ?p ?o ${numbered(300, (i) => `BIND(1 AS ?v${i})`)} }`,
    refused: 'LABLD_SPARQL_MAX_DEPTH',
  },
  {
    label: '600 MINUS in a row',
    text: `SELECT * WHERE { ?s ?p ?o ${times(600, 'MINUS { ?s ?p 1 }')} }`,
    refused: 'LABLD_SPARQL_MAX_(DEPTH|NODES)',
  },
  {
    label: '300 ORs',
    text: `SELECT * WHERE { ?s ?p ?o FILTER(${times(300, '?o = 1', ' || ')}) }`,
    refused: 'LABLD_SPARQL_MAX_DEPTH',
  },
  {
    label: '400 ANDs',
    text: `ASK { ?s ?p ?o FILTER(${times(400, 'BOUND(?o)', ' && ')}) }`,
    refused: 'LABLD_SPARQL_MAX_DEPTH',
  },
  {
    label: 'CONCAT of 1,500 arguments',
    text: `SELECT * WHERE { BIND(CONCAT(${times(1500, '"a"', ',')}) AS ?x) }`,
    refused: 'LABLD_SPARQL_MAX_DEPTH',
  },
  {
    label: 'ASK of 1,000 OPTIONALs',
    text: `ASK { ${times(1000, 'OPTIONAL { ?s ?p ?o }')} }`,
    refused: 'LABLD_SPARQL_MAX_(DEPTH|NODES)',
  },
  // Expensive, within the bounds: answered, refused or past the time limit.
  {
    label: 'ORDER BY over a 3-way cartesian product',
    text: `SELECT * WHERE { ${CUBE} } ORDER BY ?c ?f DESC(?i) LIMIT 10`,
  },
  {
    label: 'COUNT of a 4-way cartesian product',
    text: `SELECT (COUNT(*) AS ?n) WHERE { ${CUBE} . ?j ?k ?l }`,
  },
  { label: 'DISTINCT over a cartesian product', text: `SELECT DISTINCT ?c ?f ?i WHERE { ${CUBE} } LIMIT 10` },
  {
    label: 'GROUP_CONCAT of everything, twice over',
    text: 'SELECT (GROUP_CONCAT(CONCAT(STR(?s), STR(?o), STR(?c))) AS ?all) WHERE { ?s ?p ?o . ?a ?b ?c }',
  },
  {
    label: 'GROUP BY everything of a cartesian product',
    text: `SELECT ?a (COUNT(*) AS ?n) WHERE { ${CUBE} } GROUP BY ?a ?c ?f HAVING (COUNT(*) > 0) LIMIT 5`,
  },
  { label: 'CONSTRUCT of a cartesian product', text: 'CONSTRUCT { ?s ?p ?c } WHERE { ?s ?p ?o . ?a ?b ?c }' },
  { label: 'DESCRIBE of every subject', text: 'DESCRIBE ?s WHERE { ?s ?p ?o }' },
  {
    label: 'closure over any property',
    text: 'SELECT (COUNT(*) AS ?n) WHERE { ?s (<urn:p:value>|^<urn:p:value>|<urn:p:next>)* ?o }',
  },
  {
    label: 'closure over a negated property set',
    text: 'SELECT (COUNT(*) AS ?n) WHERE { ?s (!<urn:none>|^!<urn:none>)* ?o }',
  },
  {
    label: 'closure of a closure',
    text: 'SELECT (COUNT(*) AS ?n) WHERE { ?s ((<urn:p:next>)*/(^<urn:p:next>)*)+ ?o }',
  },
  {
    label: 'nested regex quantifiers',
    text: 'SELECT * WHERE { ?s ?p ?o FILTER(REGEX(CONCAT(STR(?o), STR(?o), "!"), "^(a+)+$")) }',
  },
  { label: 'a regex past the engine size', text: 'ASK { FILTER(REGEX("a", "((a{1000}){1000}){1000}")) }' },
  {
    label: 'REPLACE with an empty-matching star',
    text: 'SELECT (REPLACE(STR(?o), "(.*)*", "xx") AS ?r) WHERE { ?s ?p ?o }',
  },
  { label: 'a 90,000-character literal', text: `ASK { ?s ?p "${'a'.repeat(90_000)}" }` },
  {
    label: '3,000 projected variables',
    text: `SELECT ${numbered(3000, (i) => `?v${i}`)} WHERE { ?s ?p ?o }`,
  },
  {
    label: 'STRUUID and BNODE over a cartesian product',
    text: `SELECT (COUNT(DISTINCT STRUUID()) AS ?n) WHERE { ${CUBE} }`,
  },
  { label: 'a huge OFFSET', text: 'SELECT * WHERE { ?s ?p ?o } OFFSET 999999999999999' },
  {
    label: 'numbers past 64 bits',
    text: 'SELECT (99999999999999999999999999 * 99999999999999999999999 AS ?x) WHERE {}',
  },
  {
    label: 'subqueries 40 deep, each sorted',
    text: `SELECT * WHERE { ${times(40, '{ SELECT * WHERE {')} ?s ?p ?o ${'} ORDER BY ?o }'.repeat(40)} }`,
  },
  {
    label: 'a sequence path of 30 steps',
    text: `SELECT * WHERE { ?s ${times(30, '<urn:p:next>', '/')} ?o }`,
  },
];

/** The ordinary query sent after each hostile one: the store must still answer it. */
export const ORDINARY_QUERY = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }';

/** A small chain of `n` things with a value and a next: enough for products to be expensive. */
export function hostileData(n: number): string {
  return numbered(
    n,
    (i) => `<urn:x:${i}> <urn:p:value> "a${'a'.repeat(i % 20)}" ; <urn:p:next> <urn:x:${i + 1}> .`,
    '\n',
  );
}
