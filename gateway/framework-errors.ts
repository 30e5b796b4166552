import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { errorBody } from '../subgraphs/platform/error-body.ts';
import { BadRequestError, InternalError } from '../subgraphs/platform/errors.ts';
import type { ErrorBody } from '../subgraphs/platform/errors.ts';

/** Fastify's default longest path parameter, named in the 414's message. */
const MAX_PARAM_LENGTH = 100;

interface Refusal {
  status: number;
  body: ErrorBody;
}

const refusal = (status: number, part: string, problem: string, message: string): Refusal => ({
  status,
  body: errorBody(new BadRequestError({ [part]: problem }, message)),
});

/**
 * What the client got wrong, in our words, for an error Fastify raised while reading the request (a body that
 * is not JSON, too large, of another content type). Undefined for anything else: that is a fault of ours.
 * Framework codes and texts never reach a client.
 */
export function requestReadingRefusal(error: FastifyError, bodyLimit: number): Refusal | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return refusal(
        400,
        'body',
        'is not valid JSON (member names __proto__ and constructor.prototype are refused)',
        'The request body is not valid JSON.',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return refusal(400, 'body', 'is empty; send a JSON object or no Content-Type', 'The request body is empty.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return refusal(
        413,
        'body',
        `is larger than ${bodyLimit} bytes`,
        `The request body is larger than ${bodyLimit} bytes.`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return refusal(
        415,
        'content-type',
        'must be application/json',
        'The request body must be JSON (Content-Type: application/json).',
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return refusal(
        400,
        'content-length',
        'does not match the body',
        'The Content-Length header does not match the body.',
      );
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return refusal(400, 'request', 'could not be read', 'The request could not be read.');
  }
  return undefined;
}

/** Errors the router raises before any route runs: a path that is not valid percent-encoded UTF-8, a segment too long. */
function routerRefusal(error: FastifyError): Refusal {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return refusal(
      414,
      'path',
      `has a segment longer than ${MAX_PARAM_LENGTH} characters`,
      'The request path is too long.',
    );
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return refusal(400, 'path', 'is not valid percent-encoded UTF-8', 'The request path is malformed.');
  }
  return { status: 500, body: errorBody(new InternalError()) };
}

/** A malformed request Node's HTTP parser refused before Fastify saw it: answered on the socket, then closed. */
function connectionRefusal(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): Refusal {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // The parser counts the request line with the headers: when it never ended, the URL is what is too long.
    const requestLineEnded = error.rawPacket?.includes('\r\n') ?? true;
    return requestLineEnded
      ? refusal(
          431,
          'headers',
          'are larger than the server accepts (16 KiB with the URL)',
          'The request headers are too large.',
        )
      : refusal(414, 'url', 'is longer than the server accepts (16 KiB)', 'The request URL is too long.');
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return refusal(408, 'request', 'was not received in time', 'The request was not received in time.');
  }
  return refusal(400, 'request', 'is not valid HTTP/1.1', 'The request is not valid HTTP.');
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

/** Fastify options that route framework-level refusals through our error bodies. */
export const frameworkErrorOptions: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> = {
  frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
    const { status, body } = routerRefusal(error);
    return reply.status(status).send(body);
  },
  clientErrorHandler(error: Error, socket: Socket) {
    // A reset connection or a socket already gone has no one to answer.
    if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || socket.destroyed) return;
    const { status, body } = connectionRefusal(error);
    const text = JSON.stringify(body);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
      );
    }
    socket.destroy(error);
  },
};
