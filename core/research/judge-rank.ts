import { namesIn } from './grounding.ts';
import { peersFinding } from './judge-peers.ts';
import type { Finding, JudgeInput } from './judge-types.ts';
import type { ResolvedOutcome } from '../method/outcomes.ts';

// The ranks judge (methodology, "Ranks"): claims about a place in an ordered
// list ("will finish in the top four", "be in the bottom three", "win the
// league", "finished fifth", "the third-largest") are held to the place a
// source gives: a table with a position column, or a sentence that says the
// place in words ("finished fifth", "came third"). A place is an ordinal, not
// a count: "finished 22nd" is never compared with a figure of 22. It says
// nothing about claims that state no place.

type Condition = { test: (pos: number, size: number | null) => boolean | null; text: string };

const ORD: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12,
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
};
const num = (w: string) => (/^\d+/.test(w) ? Number.parseInt(w, 10) : ORD[w.toLowerCase()] ?? null);
const N = String.raw`(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;
const NTH = String.raw`(\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)`;

/** The place a claim says something will be or was in, as a test of a position (1 = top) in a list of `size`. */
export function rankCondition(quote: string): Condition | null {
  const q = quote.toLowerCase();
  let m: RegExpExecArray | null;
  if ((m = new RegExp(String.raw`\btop[\s-]+${N}\b`).exec(q))) { const n = num(m[1]!)!; return { test: (p) => p <= n, text: `in the top ${n}` }; }
  if ((m = new RegExp(String.raw`\bbottom[\s-]+${N}\b`).exec(q))) { const n = num(m[1]!)!; return { test: (p, s) => (s === null ? null : p > s - n), text: `in the bottom ${n}` }; }
  if (/\btop half\b/.test(q)) return { test: (p, s) => (s === null ? null : p <= s / 2), text: 'in the top half' };
  if (/\bbottom half\b/.test(q)) return { test: (p, s) => (s === null ? null : p > s / 2), text: 'in the bottom half' };
  if (/\b(finish|finishes|finished|end|ends|ended|be|is|was|were)\s+(?:the\s+season\s+)?(bottom|last)\b/.test(q)) return { test: (p, s) => (s === null ? null : p === s), text: 'last' };
  if (/\b(win|wins|won)\s+(the\s+)?(league|title|championship|division|cup|race|competition|gold cup|\p{Lu})/u.test(quote.replace(/\b(win|wins|won)\b/gi, (w) => w.toLowerCase())) || /\b(finish|finishes|finished|end|ends|ended)\s+(top|first)\b|\b(be|become|are|were)\s+(?:crowned\s+)?champions\b|\btop the (table|league)\b/.test(q)) {
    return { test: (p) => p === 1, text: 'first' };
  }
  // A superlative among peers ("the longest waits of any hospital in the region") claims first place.
  if (/\bthe\s+(?:\w+est|most|least|biggest|best|worst|highest|lowest|largest|fewest)\b[^.;]{0,60}\bof\s+any\b/.test(q)) return { test: (p) => p === 1, text: 'first' };
  if ((m = new RegExp(String.raw`\b(?:finish|finishes|finished|end|ends|ended|come|comes|came|be|was|were|is|are|rank|ranks|ranked)\s+(?:in\s+)?${NTH}(?:\s+place)?\b`).exec(q))) {
    const n = num(m[1]!)!;
    return { test: (p) => p === n, text: `${m[1]}` };
  }
  return null;
}

/** The place a passage gives an entity: its row in a table with a position column, or "X finished fifth". */
function placeOf(entity: string, sentence: string, header: string | undefined, rows: number | undefined): { pos: number; size: number | null } | null {
  const e = entity.toLowerCase();
  if (header && sentence.includes('|')) {
    const heads = header.split('|').map((h) => h.trim().toLowerCase());
    const col = heads.findIndex((h) => /^(pos|position|place|rank|#)$/.test(h));
    const cells = sentence.split('|').map((c) => c.trim());
    if (col < 0 || !cells.some((c) => c.toLowerCase() === e)) return null;
    const pos = Number.parseInt(cells[col] ?? '', 10);
    return Number.isFinite(pos) ? { pos, size: rows ?? null } : null;
  }
  const lower = sentence.toLowerCase();
  for (let at = lower.indexOf(e); at >= 0; at = lower.indexOf(e, at + 1)) {
    const after = lower.slice(at + e.length, at + e.length + 60);
    const m = new RegExp(String.raw`^\s+(?:(?:have|has|had)\s+)?(?:finished|finish|came|ended|ended up|were|was|are|is|placed|ranked|ranks|rank)\s+(?:the\s+season\s+)?(?:in\s+)?["“]?${NTH}\b`).exec(after);
    if (m) return { pos: num(m[1]!)!, size: null };
    if (/^\s+(?:are|were|became|have been|has been)\s+(?:crowned\s+)?champions\b|^\s+won\s+(?:the\s+)?(?:league|title|championship|cup|\p{Lu})/u.test(sentence.slice(at + e.length, at + e.length + 60))) return { pos: 1, size: null };
    // "with runners-up Brindmoor United", "Brindmoor United were runners-up": second.
    if (/\brunners?[\s-]up\s*,?\s*$/.test(lower.slice(Math.max(0, at - 20), at)) || /^\s+(?:are|were|finished|finish|ended)\s+(?:as\s+)?(?:the\s+)?runners?[\s-]up\b/.test(after)) return { pos: 2, size: null };
  }
  return null;
}

export function rankJudge(input: JudgeInput): Finding {
  const { claim, items } = input;
  // A place among peers by a measure is read from the table that lists them (judge-peers.ts).
  const peers = peersFinding(input);
  if (peers) return peers;
  const cond = rankCondition(claim.quote);
  if (!cond) return { outcome: 'unresolvable', reason: 'No place to check: the claim states no rank.', basis: [], applies: false };
  const self = [claim.speaker.toLowerCase()];
  const entities = namesIn(claim.quote).filter((n) => !n.place && !self.some((s) => s.includes(n.text.toLowerCase()))).map((n) => n.text);
  if (entities.length === 0) return { outcome: 'unresolvable', reason: 'No place to check: the claim names no one to rank.', basis: [] };
  const found: Array<{ entity: string; held: boolean; item: JudgeInput['items'][number]; sentence: string; pos: number }> = [];
  for (const entity of entities) {
    let hit: (typeof found)[number] | null = null;
    for (const item of items) {
      for (const sentence of item.sentences) {
        const place = placeOf(entity, sentence, item.table_header, item.table_rows);
        if (!place) continue;
        const held = cond.test(place.pos, place.size);
        if (held === null) continue;
        // The latest source wins: a final table over a mid-season one.
        if (!hit || (item.published ?? '') > (hit.item.published ?? '')) hit = { entity, held, item, sentence, pos: place.pos };
      }
    }
    if (hit) found.push(hit);
  }
  if (found.length < entities.length) return { outcome: 'unresolvable', reason: `No source gives the place of ${entities.filter((e) => !found.some((f) => f.entity === e)).join(' and ')}.`, basis: [] };
  const held = found.filter((f) => f.held).length;
  const outcome: ResolvedOutcome = held === found.length ? 'true' : held === 0 ? 'false' : 'mixed';
  const reason = found.map((f) => `${f.entity} placed ${f.pos} (${f.item.publisher}, ${f.item.published}), ${f.held ? '' : 'not '}${cond.text} as claimed`).join('; ');
  return { outcome, reason: `${reason}, so ${outcome}.`, basis: found.map((f) => ({ item: f.item, sentence: f.sentence })) };
}
