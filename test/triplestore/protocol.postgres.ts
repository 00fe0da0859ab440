// The SPARQL 1.1 Protocol points (protocol.ts) with the catalogue on PostgreSQL: HTTP Basic's
// password sessions live there.
import { startLabldOnPostgres } from '../support/labld-postgres.ts';
import { protocolSuite } from './protocol.ts';

protocolSuite('PostgreSQL', () => startLabldOnPostgres('test_sparql_protocol'));
