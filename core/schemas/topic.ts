import { z } from 'zod';
import { TOPICS, type Topic } from '../method/outcomes.ts';

/**
 * The topic a report is asked for. A topic report is a view of its own: it
 * scores only the claims filed under one of the method's topics, is stored
 * under that topic, and never stands for the subject's whole record.
 */

/**
 * A requested topic as one of the method's topics, or null when it names
 * none. Case, spaces and hyphens are forgiven ("Public safety" is
 * public_safety), exactly as the pipeline's score stage reads a topic
 * (`topicFilter` in core/research/score-stage.ts; test/report-topics.test.ts holds
 * the two equal), so the topic a report is stored under is the one it scored.
 */
export function normaliseTopic(topic: string | null | undefined): Topic | null {
  const t = topic?.trim().toLowerCase().replace(/[\s-]+/g, '_');
  return t && (TOPICS as readonly string[]).includes(t) ? (t as Topic) : null;
}

export const TOPIC_RULE =
  `One of the method's topics: ${TOPICS.map((t) => `\`${t}\``).join(', ')}; case, spaces and hyphens are forgiven ("Public safety" is \`public_safety\`), any other value is refused with 422.`;

/**
 * The `topic` field of a report request: any text up to 200 characters (the
 * spec's limit) that names one of the method's topics. Anything else is a
 * 422 of type `enum` listing the allowed values, never a report silently
 * made on the whole record. It stays a string schema (the normalised value is
 * taken by the service with normaliseTopic), so the MCP tool built from it
 * keeps the same JSON Schema.
 */
/**
 * normaliseTopic as a JSON Schema pattern: surrounding spaces, any case, and
 * `_` or a run of spaces and hyphens between words. The refinement decides;
 * the pattern states it for the document (test/openapi-property.test.ts
 * sends strings made from it and holds the two to each other).
 */
export const TOPIC_PATTERN = `^\\s*(?:${TOPICS.map((t) =>
  t.split('_').map((w) => [...w].map((c) => `[${c}${c.toUpperCase()}]`).join('')).join('(?:_|[\\s-]+)'),
).join('|')})\\s*$`;

export const RequestTopicSchema = z
  .string()
  .max(200)
  .superRefine((value, ctx) => {
    // A text past the limit has its issue already (string_too_long): one issue a field.
    if (value.length <= 200 && normaliseTopic(value) === null) ctx.addIssue({ code: 'invalid_value', values: [...TOPICS], input: value, message: `Unknown topic; send one of ${TOPICS.join(', ')}.` });
  })
  .describe(
    `Restrict the report to one broad topic. ${TOPIC_RULE} A topic report scores only the claims filed under the topic and is stored under it: it is served to requests for that topic and never replaces the subject's report on its whole record. Leave it out (or null) for the whole record.`,
  )
  .meta({ pattern: TOPIC_PATTERN });
