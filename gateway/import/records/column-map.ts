import { UsageError } from '../../../subgraphs/platform/process/command-tool.ts';
import { fold } from '../read/csv-header.ts';

/** Where a field's value comes from in a file: a heading (CSV) or key (JSON lines), optionally scaled. */
export interface ColumnSource {
  heading: string;
  /** `revenue_usd=Revenue (M)*1000000`: the file's number times this. */
  scale?: number;
}

/**
 * `--columns field=Heading,field=Heading*1000000`: the API field each of the file's own headings fills. A heading
 * may contain spaces and parentheses; a comma inside one is written `\,`.
 */
export function parseColumnsOption(option: string | undefined, fields: readonly string[]): Map<string, ColumnSource> {
  const mapping = new Map<string, ColumnSource>();
  if (!option) return mapping;
  for (const pair of option.split(/(?<!\\),/)) {
    const equals = pair.indexOf('=');
    const field = pair.slice(0, equals).trim();
    let heading = pair
      .slice(equals + 1)
      .replace(/\\,/g, ',')
      .trim();
    if (equals < 1 || !heading) throw new UsageError(`--columns: "${pair}" is not field=Heading`);
    if (!fields.includes(field)) throw new UsageError(`--columns: no field "${field}"; fields: ${fields.join(', ')}`);
    if (mapping.has(field)) throw new UsageError(`--columns: ${field} is mapped twice`);
    let scale: number | undefined;
    const scaled = /^(.*?)\s*\*\s*([0-9.eE+-]+)$/.exec(heading);
    if (scaled) {
      heading = scaled[1]!;
      scale = Number(scaled[2]);
      if (!Number.isFinite(scale) || scale === 0) throw new UsageError(`--columns: "${pair}" has no usable factor`);
    }
    mapping.set(field, { heading, scale });
  }
  return mapping;
}

/**
 * Each field's source in a file with these headings: the `--columns` mapping, else the heading that is the field's
 * own name (case, spaces and underscores ignored). A mapped heading the file lacks stops the load. JSON lines have
 * no headings: each field is read from the key `--columns` names, else from its own name.
 */
export function resolveColumns(
  file: string,
  headings: readonly string[] | undefined,
  fields: readonly string[],
  mapped: Map<string, ColumnSource>,
): Map<string, ColumnSource> {
  if (!headings) return new Map(fields.map((field) => [field, mapped.get(field) ?? { heading: field }]));
  const byFolded = new Map(headings.map((heading) => [fold(heading), heading]));
  const sources = new Map<string, ColumnSource>();
  for (const field of fields) {
    const explicit = mapped.get(field);
    if (explicit) {
      const heading = byFolded.get(fold(explicit.heading));
      if (heading === undefined)
        throw new UsageError(
          `${file}: no column "${explicit.heading}" (for ${field}); columns: ${headings.join(', ')}`,
        );
      sources.set(field, { ...explicit, heading });
      continue;
    }
    const own = byFolded.get(fold(field));
    if (own !== undefined) sources.set(field, { heading: own });
  }
  return sources;
}
