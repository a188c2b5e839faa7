import type { FastifyReply, FastifyRequest } from 'fastify';
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
      responses: {
        200: { description: 'A JSON-RPC response, as an SSE stream (text/event-stream) or JSON (MCP_JSON_RESPONSE=true).', contentType: 'text/event-stream' },
        403: { description: 'The Origin header names an origin that may not use the endpoint.' },
      },
      handler: (req, reply) => serve(ctx, req, reply),
    }),
    ...(['GET', 'DELETE'] as const).map((method) =>
      defineRoute({
        method,
        url: '/mcp',
        operationId: `mcp${method[0]}${method.slice(1).toLowerCase()}`,
        summary: 'Not used by this stateless MCP server',
        description,
        tags: ['mcp'],
        auth: true,
        responses: { 405: { description: 'Method not allowed: send JSON-RPC with POST.' } },
        handler: async (_req, reply) => {
          reply.header('allow', 'POST');
          throw new DomainError(405, 'method-not-allowed', 'This MCP server is stateless: send JSON-RPC messages with POST /mcp.');
        },
      }),
    ),
  ];
}
