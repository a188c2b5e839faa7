import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Answers compressed by Accept-Encoding (br, then gzip; q-values respected):
 * JSON, problem bodies, HTML on demand, Markdown, the export stream. Bodies
 * under 1 KB go as they are (compressing them saves less than the header
 * costs). Streams are piped through zlib's streaming compressor, so the
 * export still streams, chunk by chunk, with no Content-Length. The static
 * site's pages come precompressed from the build (api/routes/site.ts); an
 * answer that already has a Content-Encoding is left alone. MCP answers are
 * written by the MCP transport itself (the reply is hijacked) and never
 * compressed: an SSE stream must reach the client event by event.
 */
export async function compressionPlugin(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    // zstd and deflate left out: br and gzip are what browsers and HTTP clients send, and what the site is precompressed in.
    encodings: ['br', 'gzip'],
    // The plugin's default text types plus JSON Lines (the export), which mime-db does not call compressible;
    // not octet-stream (the default has it): nothing of ours sends text as that, and binary rarely shrinks.
    customTypes: /^text\/(?!event-stream)|[+/](?:json|text|xml)(?:;|$)|^application\/x-ndjson(?:;|$)/,
  });
}
