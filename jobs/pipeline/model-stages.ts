import { z } from 'zod';
import { CLAIM_TYPE_DESCRIPTIONS, OUTCOMES, TOPIC_DESCRIPTIONS } from '../../core/method/outcomes.ts';
import { prompt } from '../../core/method/prompts.ts';
import type { ModelProvider, PublishedFactCheck } from '../../core/providers/types.ts';
import type { EvidenceItem } from '../../core/research/evidence.ts';
import { combine, dueDate, type JudgeOpinion, type Verdict } from '../../core/research/judge.ts';
import { ATTRIBUTIONS, ClaimTypeSchema, IsoDateSchema, TopicSchema, type CandidateClaim, type Classification, type ExtractedClaim, type SourceDocument, type SubjectRef } from '../../core/research/types.ts';

// The model-backed stages (used when MODEL_PROVIDER is set): the same stage
// boundaries and data as the deterministic ones, with a model reading the
// text. What the model may not decide is still decided here: a quote must be
// found verbatim in its document or it is dropped; the fixed test is written
// before any evidence is seen; judges see only the selected evidence; a claim
// with no independent evidence is not sent to a judge at all; a claim not yet
// due cannot be judged false; the two judges' opinions are combined by the
// method's rule (judge.ts `combine`). Prompts are text files in
// content/prompts/, part of the method version.

const vocabulary = () =>
  [
    'Claim types:', ...Object.entries(CLAIM_TYPE_DESCRIPTIONS).map(([k, v]) => `- ${k}: ${v}`),
    'Topics:', ...Object.entries(TOPIC_DESCRIPTIONS).map(([k, v]) => `- ${k}: ${v}`),
  ].join('\n');

export const ExtractAnswerSchema = z.object({
  claims: z.array(z.object({
    quote: z.string().min(1).max(2000),
    claim_type: ClaimTypeSchema,
    topic: TopicSchema,
    deadline: IsoDateSchema.nullable(),
    attribution: z.enum(ATTRIBUTIONS),
  })).max(30),
});

/** Claims a model found in a document, typed; quotes not in the text verbatim are dropped. */
export async function modelExtract(model: ModelProvider, doc: SourceDocument, ref: SubjectRef, opts: { ephemeral?: boolean } = {}): Promise<Array<Omit<ExtractedClaim, 'entities' | 'keywords' | 'figures'> & Classification>> {
  const answer = await model.complete({
    ...(opts.ephemeral ? { ephemeral: true } : {}),
    purpose: 'extract',
    system: `${prompt('extract')}\n\n${vocabulary()}`,
    prompt: JSON.stringify({
      subject: { name: ref.name, kind: ref.kind, aliases: ref.aliases, own_sites: ref.urls },
      document: { url: doc.url, title: doc.title, publisher: doc.publisher, published: doc.published, speakers: doc.speakers, text: doc.text },
    }),
    schema: ExtractAnswerSchema,
  });
  const seen = new Set<string>();
  const out: Array<Omit<ExtractedClaim, 'entities' | 'keywords' | 'figures'> & Classification> = [];
  for (const c of answer.claims) {
    const quote = c.quote.trim();
    // The one thing never taken on trust: a quote is the subject's words exactly as published.
    if (!quote || !doc.text.includes(quote) || seen.has(quote)) continue;
    seen.add(quote);
    const deadline = c.claim_type === 'promise' || c.claim_type === 'prediction' ? c.deadline : null;
    out.push({
      quote, quote_verified: true, said_on: doc.published,
      source: { url: doc.url, title: doc.title, outlet: doc.publisher, published: doc.published },
      speaker: ref.name, attribution: c.attribution, claim_type: c.claim_type, topic: c.topic,
      deadline: deadline && deadline >= doc.published ? deadline : null,
    });
  }
  return out;
}

export const CriteriaAnswerSchema = z.object({ resolution_criteria: z.string().min(20).max(1500) });

/** The fixed test, written from the claim alone. */
export async function modelCriteria(model: ModelProvider, claim: Omit<CandidateClaim, 'resolution_criteria'>, opts: { ephemeral?: boolean } = {}): Promise<string> {
  const answer = await model.complete({
    ...(opts.ephemeral ? { ephemeral: true } : {}),
    purpose: 'criteria',
    system: prompt('criteria'),
    prompt: JSON.stringify({ quote: claim.quote, said_on: claim.said_on, speaker: claim.speaker, claim_type: claim.claim_type, topic: claim.topic, deadline: claim.deadline }),
    schema: CriteriaAnswerSchema,
  });
  return answer.resolution_criteria.trim();
}

export const JudgeAnswerSchema = z.object({
  outcome: z.enum(OUTCOMES),
  on_time: z.boolean().nullable(),
  reason: z.string().min(1).max(2000),
});

export type JudgeModels = { model: ModelProvider; secondModel?: string | undefined };

/**
 * Two independent judge calls (different prompts, and a different model when
 * MODEL_JUDGE_NAME is set), combined by the method's rule.
 */
export async function modelVerdict(
  judges: JudgeModels,
  claim: CandidateClaim,
  evidence: readonly EvidenceItem[],
  factChecks: readonly PublishedFactCheck[],
  today: string,
  opts: { ephemeral?: boolean } = {},
): Promise<Verdict> {
  const due = dueDate(claim);
  const notYetDue = due !== null && today < due;
  const independent = evidence.filter((e) => e.independent_of_subject);
  if (independent.length === 0) {
    const outcome = notYetDue ? 'pending' : 'unresolvable';
    const rationale = `No independent evidence was found that bears on the fixed test${notYetDue ? `; the claim falls due on ${due}` : ''}. No judge was asked.`;
    return { outcome, on_time: null, rationale, judges_disagree: false, opinions: [] };
  }
  const input = JSON.stringify({
    today,
    claim: { quote: claim.quote, said_on: claim.said_on, speaker: claim.speaker, claim_type: claim.claim_type, due },
    fixed_test: claim.resolution_criteria,
    evidence: evidence.map((e, i) => ({ n: i + 1, publisher: e.publisher, published: e.published, independent_of_subject: e.independent_of_subject, passage: e.quote })),
    // Fact-checks among the evidence, with the rating they published.
    published_fact_checks: factChecks.map((f) => ({ n: evidence.findIndex((e) => e.url === f.url) + 1, publisher: f.publisher, reviewed_on: f.reviewed_on, claim_reviewed: f.claim_text, rating: f.rating })),
  });
  const ask = async (judge: 'judge-a' | 'judge-b', model?: string): Promise<JudgeOpinion> => {
    const a = await judges.model.complete({ ...(opts.ephemeral ? { ephemeral: true } : {}), purpose: judge, system: prompt(judge), prompt: input, schema: JudgeAnswerSchema, ...(model ? { model } : {}) });
    // A claim not yet due is not false yet: the fixed test says false only once the date has passed.
    const outcome = notYetDue && a.outcome !== 'true' && a.outcome !== 'pending' ? 'pending' : a.outcome;
    return { judge, outcome, on_time: claim.claim_type === 'promise' && outcome !== 'pending' ? a.on_time : null, reason: a.reason.trim() };
  };
  const opinions = await Promise.all([ask('judge-a'), ask('judge-b', judges.secondModel)]);
  const { outcome, judges_disagree, adopted } = combine(opinions);
  const on_time = adopted.some((o) => o.on_time === false) ? false : adopted.some((o) => o.on_time === true) ? true : null;
  const rationale = judges_disagree
    ? `The judges differ (${opinions.map((o) => `${o.judge}: ${o.outcome}`).join(', ')}); the more cautious reading stands. ${adopted[0]?.reason ?? ''}`.trim()
    : adopted[0]?.reason ?? opinions.map((o) => o.reason).join(' ');
  return { outcome, on_time: outcome === 'pending' || outcome === 'unresolvable' ? null : on_time, rationale, judges_disagree, opinions };
}

