import { applyMigrations, createMigration } from '../prisma/migrate.ts';
import { parseCommandLine } from './command-line.ts';

/** `npm run migrate`: the migrations of prisma/migrate.ts from the command line. */
const USAGE = `usage: npm run migrate                    applies pending migrations to the configured databases
       npm run migrate -- --create <name>  writes a migration from changes to prisma/schema.prisma`;

async function main() {
  const { values } = parseCommandLine(USAGE, { options: { create: { type: 'string' } } });
  if (values.create) {
    const directory = await createMigration(values.create);
    console.log(
      directory ? `wrote ${directory}/migration.sql` : 'schema.prisma matches the migrations: nothing to write',
    );
    return;
  }
  const { openConfiguredDatabases } = await import('../subgraphs/platform/database.ts');
  const databases = await openConfiguredDatabases();
  for (const database of Object.values(databases)) {
    const applied = await applyMigrations(database);
    console.log(`${database.mode}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`);
    await database.close();
  }
}

await main();
