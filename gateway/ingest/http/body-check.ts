import type { FetchFailureCode } from './fetch-failure.ts';

/** The formats a source may be; 'text' is a plain text listing (the EDGAR daily `.idx`). */
export type ExpectedFormat = 'json' | 'csv' | 'xml' | 'yaml' | 'text';

export const FORMAT_NAMES: Record<ExpectedFormat, string> = {
  json: 'JSON',
  csv: 'CSV',
  xml: 'XML',
  yaml: 'YAML',
  text: 'text',
};

/** How many bytes of each end of a body are kept for the checks below. */
export const BODY_END_BYTES = 1024;

/** An HTML document, possibly after an XML declaration and comments (an XHTML error page). */
const HTML_START = /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html)[\s>]/i;

/** Whitespace and a byte-order mark, which a file may begin or end with and which say nothing of its format. */
const trimmed = (text: string) => text.replace(/^[\s\uFEFF]+|\s+$/g, '');

export interface BodyProblem {
  code: FetchFailureCode;
  reason: string;
}

/** A `Content-Type` that is an HTML page: what a portal or a proxy answers with in place of a file. */
export function isHtmlContentType(contentType: string | undefined): boolean {
  return /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType ?? '');
}

/**
 * Cheap checks, on the first and last kilobyte of a complete body, that catch what would otherwise be parsed as
 * data: an HTML page (an error or a login page served with 200), and a JSON document that does not end (a cut
 * connection the server closed cleanly). They prove nothing about the middle; the importer's parser does that.
 */
export function checkBody(expect: ExpectedFormat, head: Buffer, tail: Buffer, bytes: number): BodyProblem | undefined {
  const name = FORMAT_NAMES[expect];
  const start = trimmed(head.toString('utf8'));
  if (!start) return { code: 'wrong_format', reason: `an empty body where ${name} was expected` };
  if (HTML_START.test(start))
    return { code: 'wrong_format', reason: `an HTML page where ${name} was expected: ${firstLine(start)}` };
  if (expect === 'json') {
    const end = trimmed(tail.toString('utf8'));
    if (!'[{'.includes(start[0]!))
      return { code: 'wrong_format', reason: `not JSON: the body starts with ${JSON.stringify(start.slice(0, 20))}` };
    const closer = start[0] === '[' ? ']' : '}';
    if (end.at(-1) !== closer)
      return {
        code: 'truncated',
        reason: `incomplete JSON: ${bytes} bytes that end with ${JSON.stringify(end.slice(-20))}, not "${closer}"`,
      };
  }
  if (expect === 'xml' && !start.startsWith('<'))
    return { code: 'wrong_format', reason: `not XML: the body starts with ${JSON.stringify(start.slice(0, 20))}` };
  return undefined;
}

/** The first line of a page, short enough for a one-line reason (an HTML title is usually there). */
function firstLine(text: string): string {
  const title = /<title[^>]*>([^<]*)</i.exec(text)?.[1]?.trim();
  return JSON.stringify(title || text.split('\n')[0]!.slice(0, 60));
}
