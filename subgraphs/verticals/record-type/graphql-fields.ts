import type { ArgumentSpecs, DefinedArguments } from '../../platform/arguments.ts';
import type { RequestContext } from '../../platform/context.ts';
import { definePageObject } from '../../platform/page-object.ts';
import { defineSort, pageArgument, pageSizeArgument } from '../../platform/paging.ts';
import { countTotal } from '../../platform/totals.ts';
import { PageInfo, builder } from '../builder.ts';
import { delegateOf } from '../../platform/model-delegate.ts';
import type { RecordGraphql, RecordType } from './define.ts';
import { connectionMaxSize, recordPage } from './page.ts';

/**
 * The fields every record type has, built from its GraphQL part: `<Model>Page` (nodes + offset pageInfo) and its
 * `<Model>Sort` enum, then `things` (offset pages), `thingsConnection` (cursor pages by id) and `thing(id)`.
 * The generic code cannot name each model's Prisma types; the definition's `where` is typed in its model file.
 */
export function addRecordFields<Filters extends ArgumentSpecs>(
  type: RecordType,
  filters: DefinedArguments<Filters>,
  definition: RecordGraphql<Filters>,
): void {
  const object = type.object as never;
  const sort = defineSort(builder, `${type.model}Sort`, definition.sorts, definition.defaultSort);
  const filterArgs = builder.args((t) => filters.graphql(t));

  const page = definePageObject(builder, PageInfo, `${type.model}Page`, type.object, type.model);

  builder.queryFields((t) => ({
    [type.list]: t.field({
      type: page,
      description: definition.listDescription,
      args: {
        ...filterArgs,
        sort: t.arg({ type: sort.ref, required: false, description: 'The order of the list.' }),
        page: pageArgument(t.arg),
        perPage: pageSizeArgument(t.arg),
      },
      resolve: (_root, args, context) =>
        recordPage(type.where(args), sort.toOrder(args.sort), args, (where) =>
          countTotal(context.db, type.model, where),
        ),
    }),
    [type.connection]: t.prismaConnection({
      type: object,
      cursor: 'id',
      maxSize: connectionMaxSize,
      description: `The same ${type.name} as \`${type.list}\`, paged by cursor (ordered by id).`,
      args: filterArgs,
      resolve: (query: object, _root: unknown, args: object, context: RequestContext) =>
        delegateOf(context.db, type.model).findMany({ ...query, where: type.where(args), orderBy: { id: 'asc' } }),
    } as never),
    [type.one]: t.prismaField({
      type: object,
      nullable: true,
      description: `One ${type.kind} by its id; null when there is none.`,
      args: {
        id: t.arg.string({ required: true, description: `The ${type.kind}’s API id, \`${type.ids.prefix}_<n>\`.` }),
      },
      resolve: (query: object, _root: unknown, args: { id: string }, context: RequestContext) =>
        delegateOf(context.db, type.model).findUnique({ ...query, where: { id: type.ids.parse(args.id) } }),
    } as never),
  }));
}
