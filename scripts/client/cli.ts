import { writeFileSync } from 'node:fs';
import { CLIENT_DIR, generateClientFiles } from './generate.ts';

/**
 * `npm run client`: writes client/openapi.json and client/schema.d.ts from the service's OpenAPI document.
 * test/unit/client/generated.test.ts fails while the checked-in files differ from what this would write.
 */
try {
  const generated = await generateClientFiles();
  for (const [name, text] of Object.entries(generated)) writeFileSync(new URL(name, CLIENT_DIR), text);
  console.log(
    `wrote ${Object.keys(generated)
      .map((name) => `client/${name}`)
      .join(', ')}`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
