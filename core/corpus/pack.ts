import { createHash } from 'node:crypto';
import { z } from 'zod';
import { IsoDateSchema, SubjectKindSchema } from '../schemas/common.ts';

/**
 * Source pack records (DESIGN.md, "Source packs"). Fields we know are checked;
 * fields we do not know are kept (in `extra`), never refused.
 */

const OfficeSchema = z.object({
  title: z.string().min(1).max(300),
  from: IsoDateSchema.nullish(),
  to: IsoDateSchema.nullish().describe('null: the office is held now.'),
});

export const SubjectRecordSchema = z.looseObject({
  record: z.literal('subject'),
  name: z.string().trim().min(1).max(300),
  kind: SubjectKindSchema,
  aliases: z.array(z.string().trim().min(1).max(300)).max(100).default([]),
  description: z.string().max(2000).nullish(),
  public_figure: z.boolean().default(true),
  offices: z.array(OfficeSchema).max(100).default([]),
  urls: z.array(z.string().max(2000)).max(100).default([]),
  handles: z.array(z.string().max(300)).max(100).default([]),
  demo: z.boolean().default(false),
});

export const DocumentRecordSchema = z.looseObject({
  record: z.literal('document'),
  url: z.string().max(2000).regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL'),
  title: z.string().max(1000).default(''),
  publisher: z.string().max(300).default(''),
  published: IsoDateSchema.nullish(),
  speakers: z.array(z.string().trim().min(1).max(300)).max(100).default([]),
  text: z.string().min(1).max(5_000_000),
});

export const PackRecordSchema = z.discriminatedUnion('record', [SubjectRecordSchema, DocumentRecordSchema]);

export type SubjectRecord = z.infer<typeof SubjectRecordSchema>;
export type DocumentRecord = z.infer<typeof DocumentRecordSchema>;
export type PackRecord = z.infer<typeof PackRecordSchema>;

const KNOWN_SUBJECT = new Set(['record', 'name', 'kind', 'aliases', 'description', 'public_figure', 'offices', 'urls', 'handles', 'demo']);
const KNOWN_DOCUMENT = new Set(['record', 'url', 'title', 'publisher', 'published', 'speakers', 'text']);

/** The fields of a record that the format does not define, kept as they came. */
export function extraFields(r: PackRecord): Record<string, unknown> {
  const known = r.record === 'subject' ? KNOWN_SUBJECT : KNOWN_DOCUMENT;
  return Object.fromEntries(Object.entries(r).filter(([k]) => !known.has(k)));
}

/** Stable subject id: the same subject gets the same id in every database. */
export function subjectIdFor(kind: string, name: string): string {
  return `sub_${createHash('sha256').update(`${kind}\n${name.trim().toLowerCase()}`).digest('hex').slice(0, 16)}`;
}

export function nameKey(name: string): string {
  return name.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
}
