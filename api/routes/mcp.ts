import { defineRoute } from '../route.ts';
import { notBuilt } from './not-built.ts';

/** The MCP endpoint (streamable HTTP). Declared now so that its auth and limits hold. */
export function mcpRoutes() {
  return (['POST', 'GET', 'DELETE'] as const).map((method) =>
    defineRoute({
      method,
      url: '/mcp',
      operationId: `mcp${method[0]}${method.slice(1).toLowerCase()}`,
      summary: 'MCP server (streamable HTTP transport)',
      description: 'The Model Context Protocol endpoint: tools lookup_reliability, check_claims and get_evidence over the REST interface. Same bearer key and limits as the REST routes.',
      tags: ['mcp'],
      auth: true,
      responses: {},
      handler: notBuilt('The MCP server'),
    }),
  );
}
