// labld and the fixture server around a test file's end-to-end tests.
import { after, before } from 'node:test';
import { startLabld, type Running } from '../support/labld.ts';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';

export interface ConverterContext {
  labld: Running;
  files: FixtureServer;
  /** `<labld>/converter/api` */
  api: string;
}

/** Starts labld and the fixture server around the file's tests (loopback fetches allowed). */
export function useConverter(): ConverterContext {
  const context = {} as ConverterContext;
  before(async () => {
    process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
    context.files = await startFixtureServer();
    context.labld = await startLabld();
    context.api = `${context.labld.url}/converter/api`;
  });
  after(async () => {
    await context.labld.stop();
    await context.files.stop();
  });
  return context;
}
