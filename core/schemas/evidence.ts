import { z } from 'zod';

// Parts every claim-shaped resource shares (resources.ts, labels.ts): the
// review label and an evidence item. Apart, so that neither module imports
// the other.

export const REVIEW = z
  .string()
  .describe('`machine-generated, unreviewed` until a person has reviewed it. Show it beside any verdict or score.');

export const EvidenceSchema = z
  .object({
    url: z.string().describe('Where the evidence was found (http or https).'),
    publisher: z.string().nullable(),
    published: z.string().nullable().describe('Date of publication, YYYY-MM-DD.'),
    quote: z.string().describe('The passage that bears on the claim, verbatim.'),
    independent_of_subject: z.boolean().describe('False when the subject published it or it sits on one of the subject\'s own sites.'),
  })
  .meta({ id: 'Evidence' });
