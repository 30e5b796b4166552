import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Database } from './database.ts';

/** Prisma's model delegate, as far as the generic record code calls it. */
export interface RecordDelegate {
  findMany(args: object): Promise<{ id: number }[]>;
  findUnique(args: object): Promise<object | null>;
  count(args: object): Promise<number>;
}

export function delegateOf(db: Database, model: Prisma.ModelName): RecordDelegate {
  const property = model.charAt(0).toLowerCase() + model.slice(1);
  return (db.prisma as unknown as Record<string, RecordDelegate>)[property]!;
}
