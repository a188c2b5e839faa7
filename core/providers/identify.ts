import { z } from 'zod';
import type { SubjectRecord } from '../corpus/pack.ts';
import { upsertSubjects } from '../corpus/store.ts';
import type { Queryable } from '../db/pool.ts';
import { prompt } from '../method/prompts.ts';
import type { KnowledgeProvider, KnownSubject, ModelProvider, SubjectKind } from './types.ts';

export const IdentifyAnswerSchema = z.object({
  identified: z.boolean(),
  kind: z.enum(['person', 'organisation', 'outlet']).nullable(),
  public_figure: z.boolean(),
  serving_politician: z.boolean(),
  description: z.string().max(300).nullable(),
});

export type Identify = (name: string, kind: SubjectKind | null) => Promise<KnownSubject[]>;

/** A name to identify, with what the caller sent to tell who it is. */
export type IdentifyRequest = {
  name: string;
  kind: SubjectKind | null;
  /** Identifiers only: named to the model as text, never fetched, never stored as the subject's own sites. */
  urls?: readonly string[];
  handles?: readonly string[];
};

/** What the short model call made of a name: the subject to store, or why it could not be placed. */
export type Identification = { placed: true; record: SubjectRecord } | { placed: false; reason: string };

const a = (kind: SubjectKind) => (kind === 'organisation' || kind === 'outlet' ? `an ${kind}` : `a ${kind}`);

/**
 * The short model call, for a name no knowledge source holds (neither the
 * source packs nor, when configured, Wikidata). The model says whether the
 * name is one identifiable person, organisation or outlet, and what it knows
 * of the rules' facts. Its word is trusted only in the cautious direction:
 * - a model that says "serving politician" makes the subject refused;
 * - a person the model calls public is taken as public only when no Wikidata
 *   is configured to check it against (Wikidata, asked first, did not know
 *   them: then they need consent_ref);
 * - a kind sent by the caller never lifts the rules on persons: when the
 *   caller and the model disagree on whether it is a person, the name is not
 *   placed (the caller is told to ask again with the model's kind, under
 *   which the rules apply); between organisation and outlet, whose rules are
 *   the same, the caller's kind stands.
 * The caller's urls and handles are named to the model as identifiers; they
 * are neither fetched nor kept as the subject's own sites (which decide what
 * evidence counts as independent of it).
 */
export async function identifyWithModel(model: ModelProvider, req: IdentifyRequest, opts: { wikidata: boolean }): Promise<Identification> {
  const name = req.name.trim();
  const urls = req.urls ?? [];
  const handles = req.handles ?? [];
  const answer = await model.complete({
    purpose: 'identify',
    system: prompt('identify'),
    // Identifiers only when sent: resolve's call for a bare name stays the one it always was (and its cached answer with it).
    prompt: JSON.stringify({ name, kind: req.kind, ...(urls.length > 0 ? { urls } : {}), ...(handles.length > 0 ? { handles } : {}) }),
    schema: IdentifyAnswerSchema,
    maxOutputTokens: 300,
  });
  const kind = req.kind ?? answer.kind;
  if (!answer.identified || !kind) {
    return { placed: false, reason: `"${name}" could not be identified as one person, organisation or outlet. Send urls or handles that identify it, or add it to a source pack (docs/source-packs.md).` };
  }
  if (req.kind && answer.kind && req.kind !== answer.kind && (req.kind === 'person' || answer.kind === 'person')) {
    return { placed: false, reason: `"${name}" was asked for as ${a(req.kind)}, but it is identified as ${a(answer.kind)}; ask again with kind ${answer.kind}, or without kind.` };
  }
  const isPerson = kind === 'person';
  return {
    placed: true,
    record: {
      record: 'subject', name, kind, aliases: [], description: answer.description, urls: [], handles: [], demo: false,
      public_figure: isPerson ? answer.public_figure && !opts.wikidata : true,
      offices: answer.serving_politician ? [{ title: 'political office (as identified by the model; not checked)', from: null, to: null }] : [],
      identified_by: 'model', model: model.model,
    },
  };
}

/**
 * Resolve's identification: the short model call for the name sent, the
 * subject stored (marked `identified_by: model`) so that reports and later
 * lookups find it. A name the model cannot place gives no subject.
 */
export function modelIdentifier(model: ModelProvider, knowledge: KnowledgeProvider, db: Queryable, opts: { wikidata: boolean }): Identify {
  return async (name, kind) => {
    const found = await identifyWithModel(model, { name, kind }, opts);
    if (!found.placed) return [];
    await upsertSubjects(db, [found.record]);
    return knowledge.lookup(found.record.name, found.record.kind);
  };
}
