import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * The MCP tools reach the service only through its REST routes, by
 * `app.inject` with the caller's own Authorization header: the same auth,
 * the same per-key limits, the same validation. They have no logic of their own.
 */
export type RestAnswer = { status: number; body: unknown; headers: Record<string, string | string[] | number | undefined> };
export type Rest = (method: 'GET' | 'POST', url: string, body?: unknown) => Promise<RestAnswer>;

export function restFor(app: FastifyInstance, authorization: string | undefined): Rest {
  return async (method, url, body) => {
    const res = await app.inject({
      method,
      url,
      headers: { ...(authorization ? { authorization } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    let parsed: unknown = res.body;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      // text bodies (HTML, CSV) stay text
    }
    return { status: res.statusCode, body: parsed, headers: res.headers };
  };
}

/** A REST error in words that say what to do next, for a tool error. */
export function restError(a: RestAnswer): string {
  const b = (a.body ?? {}) as { detail?: unknown; retry_after?: number; candidates?: unknown[] };
  const detail = typeof b.detail === 'string' ? b.detail : '';
  switch (a.status) {
    case 401:
      return 'The API key is missing or invalid: configure this MCP connection to send Authorization: Bearer <your key>.';
    case 404:
      return `Not found: ${detail || 'no such subject, claim or job.'} Check the name or id and try again.`;
    case 409:
      return `The name matches several subjects; call again with the subject_id of the one you mean. ${detail}`;
    case 422: {
      const items = Array.isArray(b.detail) ? (b.detail as { loc: unknown[]; msg: string }[]) : [];
      return `The input was not accepted: ${items.map((i) => `${i.loc.slice(1).join('.') || 'input'}: ${i.msg}`).join('; ') || 'invalid input'}. Correct it and call again.`;
    }
    case 429:
      return `Limit reached: ${detail} Wait ${b.retry_after ?? 60} seconds and call again.`;
    case 501:
      return `Not available yet in this version of the service: ${detail}`;
    case 503:
      return `The service cannot start new work now: ${detail} Try again later.`;
    default:
      return `The service answered ${a.status}: ${detail || 'an unexpected error'}. Try again later.`;
  }
}

/**
 * A REST answer read through the zod schema its route declares (core/schemas):
 * typed, and stripped of anything the schema does not list. Stored reports go
 * out of REST as stored JSON text, unparsed, so this is where a field the
 * schema does not know (or a missing one) is caught before it reaches a tool's
 * structured content.
 */
export function readAnswer<S extends z.ZodType>(schema: S, a: RestAnswer): { ok: true; data: z.output<S> } | { ok: false; error: string } {
  const parsed = schema.safeParse(a.body);
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, error: unexpected(parsed.error) };
}

/** A tool error for an answer of the service that breaks its own schema: a bug on the service's side, not the caller's. */
export function unexpected(error: z.ZodError): string {
  return `The service answered in a form its own schema does not allow (${z.prettifyError(error).replace(/\s+/g, ' ').slice(0, 500)}). This is a fault of the service, not of the request; report it to the service's operators.`;
}
