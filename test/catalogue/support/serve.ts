// The catalogue gateway on 127.0.0.1:0, its pages served from the CatalogueSourceDouble; with
// `accounts`, authenticated against a real embedded catalogue store (login, sessions, CSRF).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accounts as accountsOf, catalogueGateway } from '../../../gateways/catalogue.ts';
import { serverSecret } from '../../../lib/catalogue/auth/secrets.ts';
import { hashPassword } from '../../../lib/catalogue/auth/passwords.ts';
import type { LoginThrottle } from '../../../lib/catalogue/auth/throttle.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import type { CatalogueStore } from '../../../lib/catalogue/store/contract.ts';
import { start } from '../../gateways/kit/support.ts';
import { CatalogueSourceDouble } from './catalogue-double.ts';

export interface ServedCatalogue {
  url: string;
  double: CatalogueSourceDouble;
  /** With `accounts`: the real store the gateway authenticates against. */
  store: CatalogueStore | undefined;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Log in against a real embedded store holding these users (name → password). */
  accounts?: { users: Record<string, string>; throttle?: LoginThrottle };
}

export async function serveCatalogueDouble(options: ServeOptions = {}): Promise<ServedCatalogue> {
  const double = await CatalogueSourceDouble.create();
  let store: CatalogueStore | undefined;
  let dataDir: string | undefined;
  if (options.accounts) {
    dataDir = await mkdtemp(join(tmpdir(), 'labld-accounts-'));
    store = await openCatalogueStore({ dataDir, databaseUrl: '' });
    for (const [name, password] of Object.entries(options.accounts.users)) {
      await store.createUser({ name, password_hash: await hashPassword(password) });
    }
  }
  const opened = store;
  const directory = dataDir;
  const accounts =
    opened && directory
      ? accountsOf({
          store: async () => opened,
          secret: () => serverSecret(directory),
          baseUrl: 'http://localhost:8000',
          throttle: options.accounts?.throttle,
        })
      : undefined;
  const server = await start({ gateways: [catalogueGateway({ source: double, accounts })] });
  return {
    url: server.url,
    double,
    store,
    async close() {
      await server.close();
      await double.close();
      await store?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
