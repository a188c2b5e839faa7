import { z } from 'zod';
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

/**
 * The short model call of resolve, for a name no knowledge source holds
 * (neither the source packs nor, when configured, Wikidata). The model says
 * whether the name is one identifiable person, organisation or outlet, and
 * what it knows of the rules' facts. Its word is trusted only in the
 * cautious direction: a model that says "serving politician" makes the
 * subject refused; a person the model calls public is taken as public only
 * when no Wikidata is configured to check it against (Wikidata, asked first,
 * did not know them: then they need consent_ref). The subject is stored,
 * marked `identified_by: model`, so that reports and later lookups find it.
 */
export function modelIdentifier(model: ModelProvider, knowledge: KnowledgeProvider, db: Queryable, opts: { wikidata: boolean }): Identify {
  return async (name, kind) => {
    const a = await model.complete({
      purpose: 'identify',
      system: prompt('identify'),
      prompt: JSON.stringify({ name, kind }),
      schema: IdentifyAnswerSchema,
      maxOutputTokens: 300,
    });
    const k = kind ?? a.kind;
    if (!a.identified || !k) return [];
    const isPerson = k === 'person';
    await upsertSubjects(db, [{
      record: 'subject', name, kind: k, aliases: [], description: a.description, urls: [], handles: [], demo: false,
      public_figure: isPerson ? a.public_figure && !opts.wikidata : true,
      offices: a.serving_politician ? [{ title: 'political office (as identified by the model; not checked)', from: null, to: null }] : [],
      identified_by: 'model', model: model.model,
    }]);
    return knowledge.lookup(name, k);
  };
}
