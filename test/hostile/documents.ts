// Small, valid documents the hostile requests need beside their one hostile input (the other
// URL of a pair), so that only the hostile part can be what is refused.

export const EX = 'http://example.org/hostile#';

export const SHAPES_TTL = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <${EX}> .
ex:ThingShape a sh:NodeShape ; sh:targetClass ex:Thing ;
  sh:property [ sh:path ex:name ; sh:minCount 1 ] .
`;

export const DATA_TTL = `@prefix ex: <${EX}> .
ex:one a ex:Thing ; ex:name "one" .
`;

/** A YARRRML mapping reading `source` (a JSON document) with JSONPath. */
export function yarrrmlMapping(source: string): string {
  return `prefixes:
  ex: "${EX}"
mappings:
  thing:
    sources:
      - ['${source}~jsonpath', '$']
    s: ex:thing
    po:
      - [a, ex:Thing]
`;
}
