import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_DIR, generateClientFiles } from '../../../scripts/client/generate.ts';

describe('the checked-in typed client', () => {
  it('client/openapi.json and client/schema.d.ts match the OpenAPI document (run npm run client)', async () => {
    const generated = await generateClientFiles();
    for (const [name, text] of Object.entries(generated)) {
      expect(readFileSync(new URL(name, CLIENT_DIR), 'utf8'), `client/${name}`).toBe(text);
    }
    expect(JSON.parse(generated['openapi.json'])).toMatchObject({ openapi: expect.stringMatching(/^3\.1\./) });
    expect(generated['schema.d.ts']).toContain('export interface paths {');
  });
});
