import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback servers speaking the OpenAI chat-completions and Anthropic Messages
 * wire formats, for testing the model adapters (and anything above them)
 * through the real SDKs and real HTTP. Each is driven by a script:
 *
 *   const s = await startOpenAIServer();
 *   s.reply(openaiReply.error(429, 'slow down', { headers: { 'retry-after': '1' } }), openaiReply.answer({ ok: true }));
 *   s.otherwise(openaiReply.answer({ ok: true }, { delayMs: 100 }));   // when the queue is empty
 *   ... s.requests[0].body.messages, s.maxInFlight ...
 *
 * Each request takes the next scripted reply in order, else the fallback; with
 * neither, a 500 that says nothing was scripted (so a test that sends more
 * than it meant to fails loudly).
 */

export type RecordedRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The JSON body, parsed (undefined if it was not JSON). */
  body: any;
};

export type Reply = {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (the connection stays open until the client gives up or the server closes). */
  hang?: boolean;
};

/** A reply, or a function of the request that makes one (to echo the model, say). */
export type Script = Reply | ((req: RecordedRequest) => Reply | Promise<Reply>);

export type FakeModelServer = {
  /** What to put in MODEL_BASE_URL. */
  readonly url: string;
  /** Every request received on the endpoint, in order. */
  readonly requests: RecordedRequest[];
  /** Requests being answered right now, and the most there have been at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Queues replies, one per coming request. */
  reply(...scripts: Script[]): void;
  /** The reply when the queue is empty; null: the "nothing scripted" 500. */
  otherwise(script: Script | null): void;
  /** Forgets the queue, the fallback, the recorded requests and the in-flight peak. */
  reset(): void;
  close(): Promise<void>;
};

type Opts = { endpoint: string; basePath: string; errorBody: (status: number, message: string) => unknown };

async function startFakeServer(opts: Opts): Promise<FakeModelServer> {
  let queue: Script[] = [];
  let fallback: Script | null = null;
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        const path = (req.url ?? '/').split('?')[0]!;
        if (req.method !== 'POST' || path !== opts.endpoint) {
          send(res, { status: 404, body: opts.errorBody(404, `no route ${req.method} ${path}`) });
          return;
        }
        const recorded: RecordedRequest = { method: req.method, path, headers: req.headers, body };
        requests.push(recorded);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        res.on('close', () => inFlight--);
        const script = queue.shift() ?? fallback;
        const reply = !script
          ? { status: 500, body: opts.errorBody(500, `nothing scripted for request ${requests.length}`) }
          : typeof script === 'function' ? await script(recorded) : script;
        if (reply.hang) return;
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        send(res, reply);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${opts.basePath}`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    reply: (...scripts) => void queue.push(...scripts),
    otherwise: (script) => void (fallback = script),
    reset() {
      queue = [];
      fallback = null;
      requests.length = 0;
      maxInFlight = inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: http.ServerResponse, reply: Reply): void {
  if (res.destroyed) return; // the client gave up (timeout) while we waited
  const body = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
  res.end(body);
}

type Extra = { headers?: Record<string, string>; delayMs?: number };

// ---- OpenAI chat completions: POST {base}/chat/completions, base ending in /v1.

export type OpenAIUsage = { prompt_tokens: number; completion_tokens: number };

export const openaiReply = {
  /** A completion whose message content is `content` (a string as is, anything else as JSON). */
  answer(content: unknown, opts: Extra & { usage?: OpenAIUsage | null } = {}): Script {
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    return openaiMessage({ role: 'assistant', content: text, refusal: null }, opts);
  },
  /** A refusal, as the structured-output API gives it: content null, refusal set. */
  refusal(text = "I'm sorry, I can't help with that.", opts: Extra & { usage?: OpenAIUsage | null } = {}): Script {
    return openaiMessage({ role: 'assistant', content: null, refusal: text }, opts);
  },
  /** The documented error body: { error: { message, type, param, code } }. */
  error(status: number, message: string, opts: Extra & { type?: string; code?: string | null } = {}): Reply {
    return { status, headers: opts.headers, delayMs: opts.delayMs, body: { error: { message, type: opts.type ?? 'server_error', param: null, code: opts.code ?? null } } };
  },
};

function openaiMessage(message: Record<string, unknown>, opts: Extra & { usage?: OpenAIUsage | null }): Script {
  const usage = opts.usage === undefined ? { prompt_tokens: 100, completion_tokens: 20 } : opts.usage;
  return (req) => ({
    headers: opts.headers,
    delayMs: opts.delayMs,
    body: {
      id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: req.body?.model ?? 'unknown',
      choices: [{ index: 0, message, logprobs: null, finish_reason: 'stop' }],
      ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
    },
  });
}

export function startOpenAIServer(): Promise<FakeModelServer> {
  return startFakeServer({
    endpoint: '/v1/chat/completions',
    basePath: '/v1',
    errorBody: (_status, message) => ({ error: { message, type: 'invalid_request_error', param: null, code: null } }),
  });
}

// ---- Anthropic Messages: POST {base}/v1/messages.

export type AnthropicUsage = { input_tokens: number; output_tokens: number };

export const anthropicReply = {
  /** A message whose one block is a tool_use of `tool` (default `answer`) with this input. */
  answer(input: unknown, opts: Extra & { usage?: AnthropicUsage; tool?: string } = {}): Script {
    const block = { type: 'tool_use', id: `toolu_${Math.random().toString(36).slice(2)}`, name: opts.tool ?? 'answer', input };
    return anthropicMessage([block], 'tool_use', opts);
  },
  /** A message of plain text, no tool use. */
  text(text: string, opts: Extra & { usage?: AnthropicUsage; stopReason?: string } = {}): Script {
    return anthropicMessage([{ type: 'text', text, citations: null }], opts.stopReason ?? 'end_turn', opts);
  },
  /** The documented error body: { type: 'error', error: { type, message } }. */
  error(status: number, type: string, message: string, opts: Extra = {}): Reply {
    return {
      status,
      headers: { 'request-id': `req_${Math.random().toString(36).slice(2)}`, ...opts.headers },
      delayMs: opts.delayMs,
      body: { type: 'error', error: { type, message } },
    };
  },
};

function anthropicMessage(content: unknown[], stopReason: string, opts: Extra & { usage?: AnthropicUsage }): Script {
  const usage = opts.usage ?? { input_tokens: 100, output_tokens: 20 };
  return (req) => ({
    headers: opts.headers,
    delayMs: opts.delayMs,
    body: {
      id: `msg_${Math.random().toString(36).slice(2)}`,
      type: 'message',
      role: 'assistant',
      model: req.body?.model ?? 'unknown',
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { ...usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  });
}

export function startAnthropicServer(): Promise<FakeModelServer> {
  return startFakeServer({
    endpoint: '/v1/messages',
    basePath: '',
    errorBody: (status, message) => ({ type: 'error', error: { type: status === 404 ? 'not_found_error' : 'api_error', message } }),
  });
}
