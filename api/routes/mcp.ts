import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { DomainError } from '../../core/errors.ts';
import type { AppContext } from '../context.ts';
import { buildServer } from '../mcp/tools.ts';
import { restFor } from '../mcp/rest.ts';
import { defineRoute } from '../route.ts';

/**
 * The MCP endpoint: streamable HTTP at /mcp, stateless (a fresh server and
 * transport per request, so any API process can answer any request; no
 * session ids). Same bearer key and same limits as REST (the route is keyed,
 * and the tools call the REST routes with the caller's key). Responses are
 * SSE streams, or plain JSON with MCP_JSON_RESPONSE=true.
 *
 * Origin, as the MCP specification asks against DNS rebinding: a request
 * that carries an Origin header is refused (403) unless that origin is the
 * service's own (same host) or listed in MCP_ALLOWED_ORIGINS. Clients that
 * are not browsers send no Origin and are not affected.
 */

function checkOrigin(req: FastifyRequest, allowed: readonly string[]): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (allowed.includes(origin) || (host !== undefined && host === req.headers.host)) return;
  throw new DomainError(403, 'origin-refused', `Origin ${origin.slice(0, 200)} may not use this MCP endpoint; add it to MCP_ALLOWED_ORIGINS to allow it.`);
}

/**
 * JSON-RPC 2.0 as the document declares it (the MCP transport judges the
 * body itself, and answers what it cannot read with a JSON-RPC error, 400).
 */
const JsonRpcId = z.union([z.string(), z.number().int()]).describe('The request id, echoed in its response.');
/** `_meta` of a message's params or result, as the MCP SDK takes it (other members are passed on). */
const MetaSchema = z.looseObject({
  progressToken: JsonRpcId.optional().describe('Asks for progress notifications under this token.'),
  'io.modelcontextprotocol/related-task': z.object({ taskId: z.string() }).optional(),
});
const JsonRpcRequestSchema = z
  .strictObject({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId.optional().describe('Present on a request; absent on a notification.'),
    method: z.string().describe('The MCP method: `initialize`, `tools/list`, `tools/call`, ….'),
    params: z.looseObject({ _meta: MetaSchema.optional() }).optional().describe('The method\'s parameters.'),
  })
  .describe('A JSON-RPC request (with `id`) or notification (without).')
  .meta({ id: 'JsonRpcRequest' });
const JsonRpcResultSchema = z
  .strictObject({ jsonrpc: z.literal('2.0'), id: JsonRpcId, result: z.looseObject({ _meta: MetaSchema.optional() }) })
  .describe('A JSON-RPC result.')
  .meta({ id: 'JsonRpcResult' });
const rpcErrorBody = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });
const JsonRpcErrorSchema = z
  .object({ jsonrpc: z.literal('2.0'), id: JsonRpcId.nullable().optional(), error: rpcErrorBody })
  .describe('A JSON-RPC error. The transport\'s answer to a body it cannot take has `id: null`.')
  .meta({ id: 'JsonRpcError' });
/** A client's answer to a request of the server's, as an error: its id is that request's. */
const JsonRpcClientErrorSchema = z.object({ jsonrpc: z.literal('2.0'), id: JsonRpcId.optional(), error: rpcErrorBody }).describe('A JSON-RPC error answering a request of the server\'s.');
const JsonRpcMessageSchema = z.union([JsonRpcRequestSchema, JsonRpcResultSchema, JsonRpcClientErrorSchema]);
const JsonRpcBodySchema = z
  .union([JsonRpcMessageSchema, z.array(JsonRpcMessageSchema)])
  .describe('One JSON-RPC message (a request, a notification, or an answer to a request of the server\'s), or a batch of them. A batch with no request in it (empty, or only notifications and answers) is answered 202.');

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'example-client', version: '1.0.0' } } };
const LIST_RESULT = { jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'lookup_reliability', description: 'A subject\'s report.', inputSchema: { type: 'object' } }] } };
const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', id: null, error: { code, message } });

async function serve(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  checkOrigin(req, ctx.config.mcpAllowedOrigins);
  const server = buildServer(restFor(req.server, req.headers.authorization), { waitMs: ctx.config.mcpWaitSeconds * 1000 });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: ctx.config.mcpJsonResponse });
  // The transport writes the response itself; headers set so far (security, rate limit) go with it.
  reply.hijack();
  for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(k, v as string);
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req.raw, reply.raw, req.body);
  return reply;
}

export function mcpRoutes(ctx: AppContext) {
  const description =
    'The Model Context Protocol endpoint (streamable HTTP, stateless): tools lookup_reliability, check_claims and get_evidence, thin wrappers over the REST routes. Same bearer key and limits as REST: each tool call also makes one or more REST requests with the same key. A request with an Origin header not allowed answers 403. GET and DELETE answer 405 (no sessions, no server-initiated stream). Malformed JSON-RPC, or an Accept header without both application/json and text/event-stream, is refused by the MCP transport with a JSON-RPC error body (application/json), as the MCP specification has it.';
  return [
    defineRoute({
      method: 'POST',
      url: '/mcp',
      operationId: 'mcpPost',
      summary: 'MCP (streamable HTTP): JSON-RPC requests',
      description,
      tags: ['mcp'],
      auth: true,
      body: JsonRpcBodySchema,
      bodyExample: INITIALIZE,
      validateBody: false,
      responses: {
        200: {
          description: 'The JSON-RPC response: an SSE stream (`text/event-stream`), or JSON with MCP_JSON_RESPONSE=true. A method the server does not have is a JSON-RPC error inside it.',
          contentType: 'text/event-stream',
          schema: z.string().describe('Server-sent events, each `event: message` with a JSON-RPC message as its `data`.'),
          example: `event: message\ndata: ${JSON.stringify(LIST_RESULT)}\n\n`,
          alternatives: { 'application/json': { schema: z.union([JsonRpcResultSchema, JsonRpcErrorSchema]), example: LIST_RESULT } },
        },
        202: { description: 'No request was sent (only notifications or answers, or an empty batch): accepted, no body.' },
        400: { description: 'Not a JSON-RPC message (or batch) the transport can take: a JSON-RPC error.', contentType: 'application/json', schema: JsonRpcErrorSchema, example: rpcError(-32700, 'Parse error: Invalid JSON-RPC message') },
        403: { description: 'The Origin header names an origin that may not use the endpoint (`/problems/origin-refused`).' },
        406: { description: 'The Accept header does not take both `application/json` and `text/event-stream`: a JSON-RPC error.', contentType: 'application/json', schema: JsonRpcErrorSchema, example: rpcError(-32000, 'Not Acceptable: Client must accept both application/json and text/event-stream') },
        415: { description: 'No body was sent (so no `Content-Type: application/json`): a JSON-RPC error.', contentType: 'application/json', schema: JsonRpcErrorSchema, example: rpcError(-32000, 'Unsupported Media Type: Content-Type must be application/json') },
      },
      handler: (req, reply) => serve(ctx, req, reply),
    }),
    // GET and DELETE are not in the document: like any method a path does not answer, they get 405 with Allow: POST.
    ...(['GET', 'DELETE'] as const).map((method) =>
      defineRoute({
        method,
        url: '/mcp',
        operationId: `mcp${method[0]}${method.slice(1).toLowerCase()}`,
        summary: 'Not used by this stateless MCP server',
        description,
        tags: ['mcp'],
        auth: true,
        hidden: true,
        responses: { 405: { description: 'Method not allowed: send JSON-RPC with POST.' } },
        handler: async (_req, reply) => {
          reply.header('allow', 'POST');
          throw new DomainError(405, 'method-not-allowed', 'This MCP server is stateless: send JSON-RPC messages with POST /mcp.');
        },
      }),
    ),
  ];
}
