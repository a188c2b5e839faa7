import type { SubjectKind } from '../providers/types.ts';
import { LIAR_RATINGS, liarOutcome } from './ratings.ts';
import type { DemoRow, ParseOptions, ParseResult } from './rows.ts';

/**
 * LIAR (W. Y. Wang, ACL 2017): tab-separated, no header, 14 columns: statement
 * id ("2635.json"), PolitiFact's rating, the statement, its topics, the speaker
 * (a slug, "dwayne-bohac"), the speaker's job title, state and party, five
 * counts of the speaker's earlier ratings, and the context ("a mailer").
 *
 * Only the id, the rating, the statement and the speaker are read. The five
 * counts include the statement's own rating, so they are never read at all.
 * LIAR gives no dates: the fixed test counts from 2017-04-23, the day the data
 * set was published (its README, v1.0), the latest day a statement in it can
 * have been made.
 */

export const LIAR_PUBLISHED = '2017-04-23';
const COLUMNS = 14;

/**
 * Whether a LIAR speaker is an organisation: party given as "organization" or
 * "government-body", or a slug holding a word that names a body, a medium or a
 * kind of posting ("national-rifle-association", "chain-email", "facebook-posts").
 * Everyone else is a person. A heuristic, stated in the methodology.
 */
const ORGANISATION_WORDS = new Set([
  'party', 'committee', 'pac', 'fund', 'association', 'posts', 'posting', 'email', 'image', 'tweets', 'club', 'chamber',
  'council', 'coalition', 'institute', 'center', 'centre', 'union', 'foundation', 'network', 'group', 'campaign', 'action',
  'project', 'alliance', 'league', 'society', 'company', 'corporation', 'inc', 'llc', 'university', 'department', 'agency',
  'commission', 'americans', 'democrats', 'republicans', 'news', 'media', 'website', 'blog', 'organization', 'federation',
  'caucus', 'board', 'office', 'administration',
]);

export function liarSpeakerKind(slug: string, party: string): SubjectKind {
  if (['organization', 'government-body'].includes(party.trim().toLowerCase())) return 'organisation';
  return slug.toLowerCase().split('-').some((w) => ORGANISATION_WORDS.has(w)) ? 'organisation' : 'person';
}

/** "dwayne-bohac" → "Dwayne Bohac". */
export function nameFromSlug(slug: string): string {
  return slug.trim().split(/-+/).filter(Boolean).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

export function parseLiar(text: string, opts: ParseOptions = {}): ParseResult {
  const dataset = opts.dataset ?? 'liar';
  const result: ParseResult = { rows: [], problems: [], read: 0, title: 'LIAR (PolitiFact ratings, Wang 2017)' };
  const seen = new Set<string>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (opts.limit !== undefined && result.rows.length >= opts.limit) break;
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    result.read++;
    const line = i + 1;
    const f = raw.split('\t');
    if (f.length !== COLUMNS) {
      result.problems.push({ line, message: `expected ${COLUMNS} tab-separated columns, found ${f.length}` });
      continue;
    }
    const id = f[0]!.trim().replace(/\.json$/i, '');
    const label = f[1]!.trim();
    const statement = f[2]!.trim();
    const slug = f[4]!.trim();
    const outcome = liarOutcome(label);
    if (!id) result.problems.push({ line, message: 'no statement id' });
    else if (!outcome) result.problems.push({ line, message: `rating "${label.slice(0, 40)}" is not one of ${Object.keys(LIAR_RATINGS).join(', ')}` });
    else if (!statement) result.problems.push({ line, message: 'no statement' });
    else if (!slug || !nameFromSlug(slug)) result.problems.push({ line, message: 'no speaker' });
    else if (seen.has(id)) result.problems.push({ line, message: `statement id ${id} given twice; the first is kept` });
    else {
      seen.add(id);
      const name = nameFromSlug(slug).slice(0, 300);
      result.rows.push({
        dataset,
        source_id: id,
        subject: { name, kind: liarSpeakerKind(slug, f[7]!) },
        quote: statement.slice(0, 5000),
        date: opts.saidOn ?? LIAR_PUBLISHED,
        date_basis: 'latest_possible',
        source_url: null,
        reference_url: /^\d+$/.test(id) ? `https://www.politifact.com/api/v/2/statement/${id}/?format=json` : null,
        publisher_rating: label,
        published_outcome: outcome,
        forecast_probability: null,
      });
    }
  }
  return result;
}
