// Provenance of a joined graph: the original's document-level block (research §3.4 step 12,
// its shapes and IRIs kept for old consumers, with a time zone on the timestamp) plus the
// spec's per-entity `prov:wasDerivedFrom` from each mapped data entity to the data URL.
import { DataFactory, type Quad } from 'n3';
import { RDF_TYPE as RDF_TYPE_IRI, RDFS, XSD } from '../rdf/vocab.ts';

const { namedNode, blankNode, literal, quad } = DataFactory;

const PROV = 'http://www.w3.org/ns/prov#';
const RDF_TYPE = namedNode(RDF_TYPE_IRI);
const RDFS_LABEL = namedNode(`${RDFS}label`);
const XSD_DATETIME = namedNode(`${XSD}dateTime`);
const p = (local: string) => namedNode(PROV + local);

export const AGENT = 'https://github.com/Mat-O-Lab/RDFConverter/releases/tag/v1.3.3';
const AGENT_LABEL = 'RDFConverterv1.3.3';
const REPOSITORY = 'https://github.com/Mat-O-Lab/RDFConverter';

export interface ProvenanceInput {
  /** The API IRI of the call (`<server>/converter/api/createrdf`). */
  activity: string;
  dataUrl: string;
  mappingUrl: string;
  templateUrl?: string;
  /** Subjects the mapping produced (the data entities). */
  entities: Iterable<string>;
  now?: Date;
}

/** True when `value` can stand as an IRI in the graph (a name such as a file name cannot). */
function isIri(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:[^\s<>"{}|\\^`]*$/i.test(value);
}

export function provenance(input: ProvenanceInput): Quad[] {
  const out: Quad[] = [];
  const activity = namedNode(input.activity);
  const agent = namedNode(AGENT);
  const data = isIri(input.dataUrl) ? namedNode(input.dataUrl) : literal(input.dataUrl);
  const document = blankNode();
  const derivation = blankNode();
  const time = literal((input.now ?? new Date()).toISOString(), XSD_DATETIME);
  out.push(
    quad(document, p('wasGeneratedBy'), activity),
    quad(document, p('generatedAtTime'), time),
    quad(document, p('qualifiedDerivation'), derivation),
    quad(derivation, RDF_TYPE, p('Derivation')),
    quad(derivation, p('hadActivity'), activity),
    quad(activity, RDF_TYPE, p('Activity')),
    quad(activity, p('wasAssociatedWith'), agent),
    quad(agent, RDF_TYPE, p('SoftwareAgent')),
    quad(agent, RDFS_LABEL, literal(AGENT_LABEL)),
    quad(agent, p('hadPrimarySource'), namedNode(REPOSITORY)),
  );
  if (data.termType === 'NamedNode') {
    out.push(
      quad(document, p('wasDerivedFrom'), data),
      quad(derivation, p('entity'), data),
      quad(data, RDF_TYPE, p('Entity')),
    );
    for (const entity of input.entities) out.push(quad(namedNode(entity), p('wasDerivedFrom'), data));
  }
  for (const informer of [input.mappingUrl, input.templateUrl]) {
    if (informer && isIri(informer)) out.push(quad(activity, p('wasInformedBy'), namedNode(informer)));
  }
  return out;
}
