import { createReadStream } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { expect } from 'vitest';
import { ingestPack } from '../../core/corpus/ingest.ts';
import { SAMPLE_PACK } from '../../core/corpus/sample.ts';
import { startTestApp, type TestApp } from './app.ts';

/** The SDK's own MCP client over streamable HTTP, against the whole app listening on loopback. */

export type Started = { t: TestApp; url: string; key: string };

export async function startMcp(env: Record<string, string>, label: string): Promise<Started> {
  const t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000', MCP_WAIT_SECONDS: '60', ...env }, label, { workers: true });
  await ingestPack(t.db.pool, createReadStream(SAMPLE_PACK));
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, url: `http://127.0.0.1:${port}/mcp`, key: await t.key('mcp') };
}

export type Connected = { client: Client; tools: Tool[] };

/**
 * Connects and lists the tools, as an MCP host does before calling one: from
 * then on the SDK `Client` checks every structured answer against the tool's
 * published output schema and throws (MCP error -32602) on any mismatch.
 */
export async function connect(s: Started, key = s.key, headers: Record<string, string> = {}): Promise<Connected> {
  const client = new Client({ name: 'reliability-test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } } }));
  const { tools } = await client.listTools();
  return { client, tools };
}

export const text = (r: unknown) => ((r as { content?: { text: string }[] }).content ?? []).map((c) => c.text).join('\n');

const ajv = new AjvJsonSchemaValidator();

/**
 * Calls a tool through the client (which validates the answer), and checks the
 * answer once more, here, against the published output schema: a successful
 * answer must carry structured content that the schema accepts, so the test
 * does not rest on the client's validation being switched on.
 */
export async function call(c: Connected, name: string, args: Record<string, unknown>): Promise<CallToolResult & { structuredContent?: Record<string, unknown> }> {
  const r = (await c.client.callTool({ name, arguments: args })) as CallToolResult;
  if (!r.isError) {
    const schema = c.tools.find((t) => t.name === name)!.outputSchema!;
    expect(r.structuredContent, `${name} answered without structured content: ${text(r)}`).toBeDefined();
    const verdict = ajv.getValidator(schema)(r.structuredContent);
    expect(verdict.valid, `${name}: ${verdict.valid ? '' : verdict.errorMessage}`).toBe(true);
  }
  return r;
}
