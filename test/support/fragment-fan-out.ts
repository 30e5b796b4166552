/** `fragment F1 on Query { ...F0 ...F0 }` and so on: each level doubles what a naive expansion visits. */
export function fragmentFanOut(levels: number): string {
  let text = 'fragment F0 on Query { publicStats { signals7d } } ';
  for (let level = 1; level < levels; level += 1)
    text += `fragment F${level} on Query { ...F${level - 1} ...F${level - 1} } `;
  return `${text}query { ...F${levels - 1} }`;
}
