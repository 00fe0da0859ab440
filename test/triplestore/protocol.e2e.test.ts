// The SPARQL 1.1 Protocol points (protocol.ts) on a whole labld with the embedded catalogue store.
import { startLabld } from '../support/labld.ts';
import { protocolSuite } from './protocol.ts';

protocolSuite('the embedded store', () => startLabld());
