import { getDatamodel } from '../../../prisma/generated/pothos-types.ts';
import type { Prisma } from '../../../prisma/generated/client/client.ts';
import { snakeCase } from '../../platform/names.ts';

interface ModelField {
  name: string;
  kind: string;
  type: string;
  isId: boolean;
  isRequired: boolean;
  isList: boolean;
  hasDefaultValue: boolean;
}

/** The model's stored fields, from the generated Prisma datamodel. */
export function scalarFields(model: Prisma.ModelName): ModelField[] {
  const fields = (getDatamodel().datamodel.models[model]?.fields ?? []) as unknown as ModelField[];
  return fields.filter((field) => field.kind === 'scalar' || field.kind === 'enum');
}

/**
 * The columns a loader of records writes, by the API's snake_case names: every stored field but the id and the
 * timestamps the database sets, each under its snake_case name unless the model file names it otherwise (a
 * company's `name` is `company` in the API).
 */
export function loadColumns(model: Prisma.ModelName, renames: Record<string, string>): Record<string, string> {
  const apiName = new Map(Object.entries(renames).map(([api, field]) => [field, api]));
  return Object.fromEntries(
    scalarFields(model)
      .filter((field) => !field.isId && !(field.type === 'DateTime' && field.hasDefaultValue))
      .map((field) => [apiName.get(field.name) ?? snakeCase(field.name), field.name]),
  );
}
