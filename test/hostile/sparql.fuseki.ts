// The hostile queries' bounds on Apache Jena Fuseki: the same refusals as on the embedded
// store, made by labld before the query reaches the server.
import { boundsSuite } from '../triplestore/bounds-suite.ts';
import { fusekiEnvironment } from '../triplestore/fuseki-environment.ts';

boundsSuite(fusekiEnvironment());
