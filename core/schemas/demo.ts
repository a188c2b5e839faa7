import { z } from 'zod';
import { ClaimTypeSchema, OutcomeSchema, TopicSchema } from '../method/outcomes.ts';
import { MAX_PAGE_SIZE, PagingSchema, SubjectIdSchema, queryInt } from './common.ts';

/** Demo sets and the published measurement (GET /v1/demo, GET /v1/methodology). */

export const AGREEMENT_IS_NOT_ACCURACY =
  'Agreement is not accuracy: the published outcomes are other people\'s judgements, the demo sets are not a random sample of anyone\'s claims, and a method can agree well on easy claims and badly on hard ones.';

const rate = (what: string) => z.number().nullable().describe(`${what} Between 0 and 1, rounded to 4 decimals; null when its denominator is 0.`);

export const ConfusionSchema = z
  .object({
    rows: z.array(z.string()).describe('Reference outcomes, one per row: the outcome scale, then `unrated` (a published rating with no place on the scale); for labels, the reviewers\' verdicts.'),
    columns: z.array(z.string()).describe('Machine outcomes, one per column: the whole outcome scale, unresolved outcomes included.'),
    counts: z.array(z.array(z.number().int())).describe('counts[i][j]: claims whose reference outcome is rows[i] and machine outcome columns[j].'),
  })
  .describe('Every claim of the set by reference outcome (rows) and machine outcome (columns).')
  .meta({ id: 'ConfusionMatrix' });

export const ForecastStatsSchema = z
  .object({
    n: z.number().int().describe('Forecasts with a published probability and a published outcome.'),
    brier: rate('Brier score of the published probabilities: the mean of (p − o)², o = 1 when the forecast came true, 0 when not. 0 is perfect; always saying 0.5 scores 0.25.'),
    machine_brier: z.null().describe('Always null: the machine gives no probability, only an outcome judged after the fact, so it has no Brier score.'),
    calls: z
      .object({
        n: z.number().int().describe('Forecasts with p other than 0.5.'),
        right: z.number().int().describe('Of those, forecasts whose favourite side came about: p > 0.5 and it came true, or p < 0.5 and it did not.'),
        rate: rate('right / n.'),
      })
      .describe('How often the published favourite was right.'),
  })
  .describe('For forecast sets: how the published probabilities fared.')
  .meta({ id: 'ForecastStats' });

const agreementFields = {
  n: z.number().int().describe('Claims in the set.'),
  n_reference_resolved: z.number().int().describe('Claims whose reference outcome is one of the five resolved outcomes (true … false).'),
  n_machine_resolved: z.number().int().describe('Claims the machine resolved, whatever their reference outcome.'),
  n_compared: z.number().int().describe('Claims both resolved: the reference outcome and the machine outcome are each one of the five resolved outcomes.'),
  n_agree: z.number().int().describe('Compared claims whose machine outcome equals the reference outcome.'),
  n_adjacent: z.number().int().describe('Compared claims whose machine outcome is at most one step from the reference outcome on true, mostly_true, mixed, mostly_false, false.'),
  coverage: rate('n_compared / n_reference_resolved: the share of the claims the reference settles that the machine settled too.'),
  agreement: rate('n_agree / n_compared: of the claims both settled, the share where the machine outcome equals the reference outcome.'),
  adjacent_agreement: rate('n_adjacent / n_compared.'),
};

export const DemoSetSchema = z
  .object({
    dataset: z.string().describe('The demo set: liar, claimreview, promises, fte-governors, fte-senate, fte-president, or a name given at import.'),
    subjects: z.number().int().describe('Demo subjects with claims in the set.'),
    ...agreementFields,
    confusion: ConfusionSchema,
    forecast: ForecastStatsSchema.nullable().describe('For forecast sets (claims with a published probability); null otherwise.'),
    method_versions: z.record(z.string(), z.number().int()).describe('Method versions that judged the set\'s claims, with how many claims each.'),
    judged_at: z.string().nullable().describe('When a claim of the set was last judged (ISO 8601).'),
  })
  .describe('Agreement of machine outcomes with the published outcomes of one demo set, over the whole set.')
  .meta({ id: 'DemoSet' });

const DemoEvidenceSchema = z.object({
  url: z.string(),
  publisher: z.string().nullable(),
  published: z.string().nullable(),
  quote: z.string().describe('The passage that bears on the claim, verbatim.'),
  independent_of_subject: z.boolean(),
});

export const DemoClaimSchema = z
  .object({
    claim_id: z.string(),
    dataset: z.string().describe('The demo set the claim came from.'),
    claim_type: ClaimTypeSchema,
    topic: TopicSchema,
    quote: z.string().describe('The claim\'s wording as the data set gives it.'),
    said_on: z.string().nullable().describe('When it was said (YYYY-MM-DD); null when the data set does not say.'),
    tested_from: z.string().nullable().describe('The day the fixed test counts from: said_on, or when the data set gives none, the latest day the claim can have been made.'),
    source: z.object({ url: z.string(), title: z.string().nullable(), outlet: z.string().nullable(), published: z.string().nullable() })
      .describe('Where it was said when the data set says; otherwise `urn:demo:<claim_id>`.'),
    resolution_criteria: z.string().describe('The fixed test, written from the claim alone.'),
    machine: z
      .object({
        outcome: OutcomeSchema,
        on_time: z.boolean().nullable(),
        rationale: z.string(),
        judges_disagree: z.boolean(),
        evidence: z.array(DemoEvidenceSchema),
        method_version: z.string().nullable().describe('The method version that judged it.'),
        judged_at: z.string().nullable(),
      })
      .describe('The machine\'s verdict, reached without seeing the published outcome.'),
    published: z
      .object({
        publisher_rating: z.string().describe('The publisher\'s own rating as published (for forecasts: `won` or `lost`).'),
        outcome: OutcomeSchema.nullable().describe('That rating on the service\'s scale (see the methodology); null when it has no place on it.'),
        forecast_probability: z.number().nullable().describe('Forecast sets: the published probability that the claim comes true.'),
        reference_url: z.string().nullable().describe('The publisher\'s page for its rating, where the data set gives one.'),
      })
      .describe('The outcome published by others.'),
    review_status: z.string().describe('`machine-generated, unreviewed`: show it beside the machine verdict.'),
  })
  .meta({ id: 'DemoClaim' });

export const DemoSchema = z
  .object({
    note: z.string().describe('Always says that agreement is not accuracy.'),
    definitions: z.record(z.string(), z.string()).describe('What n, coverage, agreement, adjacent agreement, the confusion matrix and the Brier score mean here.'),
    sets: z.array(DemoSetSchema).describe('One entry per demo set, over the whole set (narrowed only by `dataset`).'),
    subjects: z
      .array(
        z.object({
          subject_id: z.string(),
          name: z.string(),
          kind: z.string(),
          description: z.string().nullable(),
          claims: z.array(DemoClaimSchema).describe('The subject\'s claims on this page.'),
        }),
      )
      .describe('The demo subjects of this page\'s claims, each with its claims on the page.'),
    paging: PagingSchema.describe('Paging over claims (not subjects): ordered by subject name, subject id, data set and claim id.'),
  })
  .meta({ id: 'Demo' });

export const DemoQuerySchema = z.object({
  dataset: z.string().min(1).max(100).optional().describe('Only this demo set (its figures and its claims).'),
  subject_id: SubjectIdSchema.optional().describe('Only this subject\'s claims (the sets\' figures stay whole).'),
  page: queryInt(1, 1, 1_000_000, 'Page of claims, from 1.'),
  page_size: queryInt(50, 1, MAX_PAGE_SIZE, `Claims per page, 1 to ${MAX_PAGE_SIZE}; 50 by default.`),
});

export const MeasurementDatasetSchema = z
  .object({
    dataset: z.string().describe('`gold-labels` (reviewers\' labels) or a demo set\'s name.'),
    reference: z.enum(['labels', 'published']).optional().describe('What the machine is compared with: reviewers\' labels, or outcomes published by others.'),
    n: z.number().int().describe('Claims in the set (for gold-labels: labels on claims with a machine verdict).'),
    n_reference_resolved: z.number().int().optional(),
    n_compared: z.number().int().optional(),
    n_agree: z.number().int().optional(),
    coverage: z.number().nullable().describe('n_compared / n_reference_resolved; null when nothing is settled by the reference.'),
    agreement: z.number().nullable().describe('n_agree / n_compared; null when nothing was compared.'),
    adjacent_agreement: z.number().nullable().optional(),
    brier: z.number().nullable().optional().describe('Forecast sets: Brier score of the published probabilities.'),
    machine_brier: z.null().optional().describe('Always null: the machine gives no probability.'),
    method_versions: z.record(z.string(), z.number().int()).optional().describe('Method versions behind the machine verdicts compared, with how many each.'),
  })
  .meta({ id: 'MeasurementDataset' });

export const MeasurementSchema = z
  .object({
    measured_at: z.string(),
    method_version: z.string().describe('The method version measured.'),
    datasets: z.array(MeasurementDatasetSchema),
    note: z.string().describe('How it was measured, and that agreement is not accuracy.'),
  })
  .meta({ id: 'Measurement' });

export type MeasurementDataset = z.infer<typeof MeasurementDatasetSchema>;
