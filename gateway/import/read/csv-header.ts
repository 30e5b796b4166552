/**
 * The positions of a CSV file's named columns, found by heading (case, spaces and underscores ignored), so a
 * source's column order and heading style may vary. `columns` maps a field to the headings it may have; a
 * required field without one stops the file (it is not the source's layout), an optional one is -1.
 */
export function columnPositions<Field extends string>(
  file: string,
  header: string[],
  columns: Record<Field, { headings: readonly string[]; optional?: boolean }>,
  layout: string,
): Record<Field, number> {
  const folded = header.map(fold);
  const positions = {} as Record<Field, number>;
  for (const [field, spec] of Object.entries(columns) as [
    Field,
    { headings: readonly string[]; optional?: boolean },
  ][]) {
    const index = folded.findIndex((heading) => spec.headings.map(fold).includes(heading));
    if (index < 0 && !spec.optional)
      throw new Error(`${file}: no ${spec.headings.join(' or ')} column in "${header.join(',')}": not ${layout}`);
    positions[field] = index;
  }
  return positions;
}

/** A heading as compared: case, surrounding space, and runs of spaces and underscores ignored. */
export function fold(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, ' ');
}
