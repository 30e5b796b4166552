import openapiTS, { COMMENT_HEADER, astToString } from 'openapi-typescript';
import type { OpenAPI3 } from 'openapi-typescript';
import { openApiDocument } from '../../gateway/openapi/document.ts';

export const CLIENT_DIR = new URL('../../client/', import.meta.url);

/** The generated files of client/, by name; index.ts, package.json and README.md are written by hand. */
export type GeneratedFiles = Record<'openapi.json' | 'schema.d.ts', string>;

/**
 * The typed client's generated files, from the OpenAPI document the service serves at /openapi.json, built
 * in-process (no server, no database): the document itself, and openapi-typescript's `paths`/`components` types
 * that openapi-fetch checks every call against.
 */
export async function generateClientFiles(): Promise<GeneratedFiles> {
  const document = openApiDocument();
  // A document the service can serve is one the generator accepts: its own type is narrower than OpenAPI3's.
  const ast = await openapiTS(document as unknown as OpenAPI3, { silent: true });
  return {
    'openapi.json': `${JSON.stringify(document, null, 2)}\n`,
    'schema.d.ts': COMMENT_HEADER + astToString(ast),
  };
}
