import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';

/**
 * The served OpenAPI document as a test reads it: a JSON Schema validator
 * over its schemas (ajv, JSON Schema 2020-12 as OpenAPI 3.1 has it) and
 * fast-check arbitraries that make values from them. Nothing here knows a
 * route: everything comes from the document, so a test built on it checks
 * the document against the service (test/openapi-property.test.ts) and the
 * document's examples against its own schemas (test/openapi.test.ts).
 */

export type Schema = {
  $ref?: string; type?: string | string[]; enum?: unknown[]; const?: unknown; format?: string; pattern?: string;
  minLength?: number; maxLength?: number; minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number;
  minItems?: number; maxItems?: number; items?: Schema; properties?: Record<string, Schema>; required?: string[];
  additionalProperties?: boolean | Schema; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[]; not?: Schema; minProperties?: number;
  default?: unknown; example?: unknown; examples?: unknown[]; description?: string;
};
export type Param = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema: Schema; description?: string };
export type Media = { schema?: Schema; example?: unknown; examples?: Record<string, { value: unknown }> };
export type Response = { description: string; content?: Record<string, Media>; headers?: Record<string, unknown> };
export type Operation = {
  operationId: string; summary?: string; description?: string; tags?: string[]; parameters?: Param[]; security?: unknown[];
  requestBody?: { required?: boolean; content: Record<string, Media> }; responses: Record<string, Response>;
};
export type Doc = {
  openapi: string; info: { version: string; description?: string }; tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
};

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every operation of the document, with its method and path. */
export function operationsOf(doc: Doc): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => (METHODS as readonly string[]).includes(m))
      .map(([method, op]) => ({ method, path, op })),
  );
}

const pointer = (parts: string[]) => `#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/**
 * Validators for schemas at any place in the document. String lengths count
 * UTF-16 code units (`unicode: false`), as the document says the service
 * counts them. Formats: `date` (a real calendar day) and `uri` (absolute).
 */
export class DocValidator {
  readonly #ajv: Ajv2020;
  readonly #cache = new Map<string, ValidateFunction>();
  readonly #coercing: Ajv2020;

  readonly doc: Doc;

  constructor(doc: Doc) {
    this.doc = doc;
    const make = (coerceTypes: boolean) => {
      // `unicode: false` is deprecated in ajv 8 but still what makes lengths count UTF-16 units: its notice is let pass silently.
      const logger = { log: console.log, warn: (...a: unknown[]) => String(a[0]).startsWith('DEPRECATED: option unicode') || console.warn(...a), error: console.error };
      const ajv = new Ajv2020({ strict: false, unicode: false, allErrors: false, coerceTypes, validateSchema: false, logger });
      ajv.addFormat('date', (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s));
      ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
      ajv.addFormat('uri', (s: string) => {
        try {
          return new URL(s).protocol.length > 1;
        } catch {
          return false;
        }
      });
      ajv.addSchema({ ...(doc as object), $id: 'https://openapi.test/doc.json' } as never);
      return ajv;
    };
    this.#ajv = make(false);
    this.#coercing = make(true);
  }

  /**
   * The validator of the schema at `parts` (a path into the document, e.g.
   * ['components', 'schemas', 'Problem']). With `coerce`, it validates `{v}`
   * with strings coerced to the types asked for, as a query or path parameter
   * arrives.
   */
  at(parts: string[], coerce = false): ValidateFunction {
    const ref = `https://openapi.test/doc.json${pointer(parts)}`;
    const key = `${coerce}:${ref}`;
    let v = this.#cache.get(key);
    if (!v) {
      v = coerce ? this.#coercing.compile({ type: 'object', properties: { v: { $ref: ref } } }) : this.#ajv.compile({ $ref: ref });
      this.#cache.set(key, v);
    }
    return v;
  }

  /** Validates a value; returns the first error in words, or null. */
  check(parts: string[], value: unknown, coerce = false): string | null {
    const v = this.at(parts, coerce);
    // Coercion changes the value in place: a copy is validated.
    const ok = coerce ? v({ v: structuredClone(value) }) : v(value);
    return ok ? null : (coerce ? this.#coercing : this.#ajv).errorsText(v.errors);
  }

  /** The schema a $ref (or the schema itself) stands for. */
  deref(s: Schema): Schema {
    let cur = s;
    for (let i = 0; cur.$ref && i < 20; i++) cur = this.doc.components.schemas[cur.$ref.split('/').pop()!]!;
    return cur;
  }
}

// Characters for generated strings. No NUL: the service removes it from every
// string before validating (the document says so), which changes lengths.
const char = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789-_.,:;!?/@#'.split('')) },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ß', '中', '🙂', '\u202e', '\t', '\n', '"', '\\', '<', '&', "'") },
);

function stringArb(s: Schema): fc.Arbitrary<string> {
  if (s.format === 'date') return fc.date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (s.format === 'date-time') return fc.date({ min: new Date('1970-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.format === 'uri') return fc.webUrl({ withQueryParameters: true, withFragments: true }).filter((u) => u.length <= (s.maxLength ?? Infinity));
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 60;
  if (s.pattern) {
    return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= max && !v.includes('\u0000'));
  }
  const short = fc.string({ unit: char, minLength: min, maxLength: Math.min(max, Math.max(min, 40)) });
  // The edges: exactly the longest string allowed, and the shortest.
  const edges = fc.constantFrom('x'.repeat(max), 'y'.repeat(min));
  return fc.oneof({ weight: 8, arbitrary: short }, { weight: 1, arbitrary: edges });
}

/**
 * Values a schema accepts, mostly: the caller filters with the validator
 * (cross-field rules such as anyOf over an object's fields are met by
 * chance, often enough). `override` may replace the arbitrary of a named
 * property anywhere (to use ids that exist).
 */
export function arbitraryOf(v: DocValidator, schema: Schema, override: (name: string) => fc.Arbitrary<unknown> | undefined = () => undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = v.deref(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const branches = s.anyOf ?? s.oneOf;
  if (branches && !s.type && !s.properties) return fc.oneof(...branches.map((b) => arbitraryOf(v, b, override, depth + 1)));
  if (s.allOf && s.allOf.length === 1 && !s.type) return arbitraryOf(v, s.allOf[0]!, override, depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringArb(s);
    case 'integer': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : min + 1_000_000);
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
    }
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = s.items ? arbitraryOf(v, s.items, override, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      const minLength = s.minItems ?? 0;
      return fc.array(items, { minLength, maxLength: Math.min(s.maxItems ?? 4, depth > 2 ? minLength : Math.max(minLength, 4)) });
    }
    case 'object': {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, p] of Object.entries(props)) record[name] = override(name) ?? arbitraryOf(v, p, override, depth + 1);
      const base = fc.record(record, { requiredKeys: [...required].filter((k) => k in record) });
      return base;
    }
    default:
      if (branches) return fc.oneof(...branches.map((b) => arbitraryOf(v, b, override, depth + 1)));
      return fc.jsonValue({ maxDepth: 2 });
  }
}
