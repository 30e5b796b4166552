import { BadRequestError } from '../../subgraphs/platform/errors.ts';

/**
 * Where a tool's next answer starts: the arguments of the call (its page among them) and how many items of that
 * page the last answer already gave. Opaque to the client (base64url JSON); it holds nothing the caller could
 * not send as arguments, so it needs no signature, and it is read back through the same checks as arguments.
 */
export interface ToolCursor {
  tool: string;
  arguments: Record<string, unknown>;
  /** Items of the page already given (an answer cut at the size budget). */
  skip: number;
}

export function encodeCursor(cursor: ToolCursor): string {
  return Buffer.from(JSON.stringify({ t: cursor.tool, a: cursor.arguments, s: cursor.skip })).toString('base64url');
}

const NOT_A_CURSOR = 'is not a cursor this tool gave';

export function decodeCursor(text: string, tool: string): ToolCursor {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new BadRequestError({ cursor: NOT_A_CURSOR });
  }
  const { t, a, s } = (decoded ?? {}) as { t?: unknown; a?: unknown; s?: unknown };
  const isObject = typeof a === 'object' && a !== null && !Array.isArray(a);
  if (t !== tool || !isObject || !Number.isSafeInteger(s) || (s as number) < 0) {
    throw new BadRequestError({ cursor: NOT_A_CURSOR });
  }
  return { tool, arguments: a as Record<string, unknown>, skip: s as number };
}
