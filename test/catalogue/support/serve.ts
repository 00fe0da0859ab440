// The catalogue gateway on 127.0.0.1:0, its pages served from the CatalogueSourceDouble.
import { catalogueGateway } from '../../../gateways/catalogue.ts';
import { start } from '../../gateways/kit/support.ts';
import { CatalogueSourceDouble } from './catalogue-double.ts';

export interface ServedCatalogue {
  url: string;
  double: CatalogueSourceDouble;
  close(): Promise<void>;
}

export async function serveCatalogueDouble(): Promise<ServedCatalogue> {
  const double = await CatalogueSourceDouble.create();
  const server = await start({ gateways: [catalogueGateway({ source: double })] });
  return {
    url: server.url,
    double,
    async close() {
      await server.close();
      await double.close();
    },
  };
}
