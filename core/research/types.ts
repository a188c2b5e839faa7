import { z } from 'zod';

// Data handed between the research pipeline's stages (discover → extract →
// classify → criteria → evidence → judge), and the source-pack records they
// start from. Each stage takes and returns plain data so it can be tested alone.

// One vocabulary for the whole service: the method's lists (core/method/outcomes.ts).
export { CLAIM_TYPES, TOPICS } from '../method/outcomes.ts';
import { CLAIM_TYPES, OUTCOMES, TOPICS } from '../method/outcomes.ts';

export const SUBJECT_KINDS = ['person', 'organisation', 'outlet'] as const;

/** How a sentence was tied to the subject; kept on the claim so a reader can see why it is theirs. */
export const ATTRIBUTIONS = ['own_document', 'quotation', 'transcript', 'reported_speech'] as const;

/** A calendar date as written in packs and claims. `z.iso.date()` also rejects 2025-02-30. */
export const IsoDateSchema = z.iso.date().describe('A calendar date, YYYY-MM-DD.');

export const ClaimTypeSchema = z.enum(CLAIM_TYPES).describe('factual, promise, guidance or prediction.');
export const TopicSchema = z.enum(TOPICS).describe('Broad topic the claim is filed under.');
export const SubjectKindSchema = z.enum(SUBJECT_KINDS).describe('person, organisation or outlet.');

export const SourceDocumentSchema = z
  .object({
    url: z.string().min(1).describe('Where the document lives; its identity in the corpus.'),
    title: z.string().describe('Headline or title of the document.'),
    publisher: z.string().min(1).describe('Who published it: an outlet, organisation or person.'),
    published: IsoDateSchema.describe('Publication date; the said_on date of the claims taken from it.'),
    speakers: z.array(z.string()).describe('Subjects whose statements the document carries.'),
    text: z.string().describe('Full text as fetched; quotes must be exact substrings of it.'),
  })
  .describe('A document in which subjects may speak.');

export const SubjectRefSchema = z
  .object({
    name: z.string().min(1).describe('The subject\'s name.'),
    kind: SubjectKindSchema,
    aliases: z.array(z.string()).describe('Other names the subject goes by, used to attribute statements.'),
    urls: z.array(z.string()).describe('Sites of the subject\'s own; documents there are not independent of it.'),
    description: z.string().nullish().describe('One line on who the subject is; a person\'s organisation is read from it.'),
    officers: z
      .array(z.array(z.string()))
      .optional()
      .describe('People the documents of the research run introduce in an office of the subject, each as the words of their name; they speak for it in every document.'),
  })
  .describe('The subject whose claims are being extracted.');

export const ClaimSourceSchema = z
  .object({
    url: z.string().describe('URL of the document the quote comes from.'),
    title: z.string().describe('Title of that document.'),
    outlet: z.string().describe('Publisher of that document.'),
    published: IsoDateSchema.describe('Publication date of that document.'),
  })
  .describe('Where the claim was made.');

export const FigureSchema = z
  .object({
    text: z.string().describe('The figure as written, e.g. "12%", "£4.2 billion", "3,200".'),
    value: z.number().nullable().describe('Its numeric value where it could be read, e.g. 12, 4200000000, 3200.'),
    unit: z.enum(['percent', 'money', 'count']).describe('What kind of number it is.'),
  })
  .describe('A number stated in a claim; the judge compares it with the evidence.');

export const ExtractedClaimSchema = z
  .object({
    quote: z.string().min(1).describe('The claim exactly as it stands in the document text, never re-worded.'),
    quote_verified: z.boolean().describe('True only when the document text contains the quote verbatim.'),
    said_on: IsoDateSchema.describe('When it was said: the document\'s publication date.'),
    source: ClaimSourceSchema,
    speaker: z.string().describe('Name of the subject the claim is attributed to.'),
    attribution: z.enum(ATTRIBUTIONS).describe('How the sentence was tied to the subject.'),
    entities: z.array(z.string()).describe('Named people, places and organisations in the quote, for evidence search.'),
    keywords: z.array(z.string()).describe('Normalised content words of the quote, for evidence search.'),
    figures: z.array(FigureSchema).describe('Numbers stated in the quote (years excluded).'),
  })
  .describe('A checkable sentence spoken by the subject, before it is typed.');

export const ClassificationSchema = z
  .object({
    claim_type: ClaimTypeSchema,
    topic: TopicSchema,
    deadline: IsoDateSchema.nullable().describe('For promises and predictions: when it falls due; null otherwise or when none is stated.'),
  })
  .describe('What kind of claim a sentence is, and when it falls due.');

export const CandidateClaimSchema = ExtractedClaimSchema.extend({
  ...ClassificationSchema.shape,
  resolution_criteria: z.string().min(1).describe('The fixed test, written before any evidence is seen.'),
}).describe('A claim ready for evidence search and judging.');

export type ClaimType = z.infer<typeof ClaimTypeSchema>;
export type Topic = z.infer<typeof TopicSchema>;
export type SourceDocument = z.infer<typeof SourceDocumentSchema>;
export type SubjectRef = z.infer<typeof SubjectRefSchema>;
export type ClaimSource = z.infer<typeof ClaimSourceSchema>;
export type Figure = z.infer<typeof FigureSchema>;
export type ExtractedClaim = z.infer<typeof ExtractedClaimSchema>;
export type Classification = z.infer<typeof ClassificationSchema>;
export type CandidateClaim = z.infer<typeof CandidateClaimSchema>;

// What the evidence and judge stages hand on (the Stage contract's outputs, core/research/stage.ts).

export const EvidenceItemSchema = z
  .object({
    url: z.string().describe('The evidence document.'),
    publisher: z.string().describe('Who published it.'),
    published: z.string().nullable().describe('Its publication date, when known (as the document gave it).'),
    quote: z.string().describe('The passage that bears on the claim, verbatim.'),
    independent_of_subject: z.boolean().describe('Neither published by the subject nor on its sites (core/research/rules.ts).'),
    relevance: z.number().describe('Share of the claim\'s terms, by weight, the passage holds.'),
    table_header: z.string().optional().describe('When the passage is a table row: the heading row, which says what each cell measures (read by the judges, not published).'),
    table_rows: z.number().int().optional().describe('...and how many rows the table has below its heading.'),
  })
  .describe('A passage of a document that bears on a claim.');

export const JudgeOpinionSchema = z
  .object({
    judge: z.string().describe('Which judge read it.'),
    outcome: z.enum(OUTCOMES).describe('What it read.'),
    on_time: z.boolean().nullable().describe('Promises: whether kept by the due date, when it tells.'),
    reason: z.string().describe('Why, in words, citing the evidence.'),
  })
  .describe('One judge\'s reading of a claim against its evidence.');

export const VerdictSchema = z
  .object({
    outcome: z.enum(OUTCOMES).describe('The combined outcome.'),
    on_time: z.boolean().nullable().describe('Promises: kept by the due date.'),
    rationale: z.string().describe('Why, in words.'),
    judges_disagree: z.boolean().describe('Two judges that resolved the claim differ.'),
    opinions: z.array(JudgeOpinionSchema).describe('Each judge\'s reading.'),
  })
  .describe('The judge stage\'s answer for one claim.');

export type EvidenceItem = z.infer<typeof EvidenceItemSchema>;
export type JudgeOpinion = z.infer<typeof JudgeOpinionSchema>;
export type Verdict = z.infer<typeof VerdictSchema>;
