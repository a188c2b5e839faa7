import { createRequire } from 'node:module';

// Words reduced to comparable stems: the suffix rules ("replaced" and "replace", "supplies" and "supplied"),
// the irregular forms they cannot reach, and a few word families a reader takes as one ("sells" and "sale").
// Shared by the evidence stage and the judges (judge-text.ts re-exports stem).

// Irregular forms the suffix rules cannot reach.
const IRREGULAR: Record<string, string> = {
  stood: 'stand', rose: 'rise', risen: 'rise', fell: 'fall', fallen: 'fall', grew: 'grow', grown: 'grow', spent: 'spend', held: 'hold', met: 'meet',
  paid: 'pay', took: 'take', taken: 'take', made: 'make', sold: 'sell', built: 'build', kept: 'keep', bought: 'buy', brought: 'bring',
  won: 'win', gave: 'give', given: 'give', began: 'begin', begun: 'begin', children: 'child', people: 'person', men: 'man', women: 'woman',
  went: 'go', gone: 'go', saw: 'see', seen: 'see', wrote: 'write', written: 'write', hid: 'hide', shut: 'shut', cut: 'cut',
  // Common English derivations, so that "sells" meets "sale" and "daily" meets "day".
  sale: 'sell', sales: 'sell', daily: 'day', weekly: 'week', monthly: 'month', annual: 'year', annually: 'year', yearly: 'year',
  growth: 'grow', reduction: 'reduce', reductions: 'reduce', completion: 'complete', completions: 'complete', delivery: 'deliver', deliveries: 'deliver',
  payment: 'pay', payments: 'pay', spending: 'spend', closure: 'close', closures: 'close', opening: 'open', openings: 'open', cancellation: 'cancel',
  cancellations: 'cancel', cancelled: 'cancel', canceled: 'cancel', inspection: 'inspect', inspections: 'inspect', recruitment: 'recruit', employment: 'employ',
  production: 'produce', distribution: 'distribute', attendance: 'attend', attendances: 'attend', renewal: 'renew', replacement: 'replace',
  installation: 'install', installations: 'install', admission: 'admit', admissions: 'admit', emission: 'emit', emissions: 'emit', donation: 'donate',
  donations: 'donate', investment: 'invest', enrolment: 'enrol', enrollment: 'enrol', enrolled: 'enrol', arrival: 'arrive', arrivals: 'arrive',
  departure: 'depart', publication: 'publish', correction: 'correct', corrections: 'correct', subscription: 'subscribe', subscriptions: 'subscribe',
  subscriber: 'subscribe', subscribers: 'subscribe', vaccination: 'vaccinate', vaccinations: 'vaccinate', vaccinated: 'vaccinate', prescription: 'prescribe',
  redundancy: 'redundant', redundancies: 'redundant', compulsorily: 'compulsory', punctual: 'punctuality', pts: 'point', pt: 'point', avg: 'average', yr: 'year', yrs: 'year', hrs: 'hour', mins: 'minute', approx: 'approximately', expenditure: 'spend', expenditures: 'spend', revenues: 'revenue', income: 'income', hires: 'hire', hiring: 'hire',
};

const hasVowel = (s: string) => /[aeiouy]/.test(s);

// WordNet's exception lists (through wink-lemmatizer) for the irregular forms the list above does not name:
// "lent" is "lend", "sought" is "seek", "criteria" is "criterion". Only a form the suffix rules cannot reach
// (no "-s", "-ed" or "-ing") is taken from them.
const lemmatizer = createRequire(import.meta.url)('wink-lemmatizer') as { verb(w: string): string; noun(w: string): string };
const BASES = new Map<string, string>();
function irregularBase(w: string): string {
  let base = BASES.get(w);
  if (base === undefined) {
    base = w;
    if (/^[a-z]{3,}$/.test(w) && !/(?:s|ed|ing)$/.test(w)) {
      const verb = lemmatizer.verb(w);
      const noun = lemmatizer.noun(w);
      base = verb !== w ? verb : noun;
    }
    BASES.set(w, base);
  }
  return base;
}

/** A light suffix-stripping stem, enough to match "replaced" with "replace" and "supplies" with "supplied". */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s?$/, '');
  const irregular = IRREGULAR[w];
  if (irregular) w = irregular;
  else w = irregularBase(w);
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (/(ss|sh|ch|x|zz)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const before = w;
  if (w.endsWith('ied')) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ing') && hasVowel(w.slice(0, -3)) && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && hasVowel(w.slice(0, -2)) && w.length > 4) w = w.slice(0, -2);
  // "planned" → "plan", but "added" → "add", as "add" itself stays.
  if (w !== before && w.length > 3 && /([^aeiouls])\1$/.test(w)) w = w.slice(0, -1);
  // "regulation", "regulator", "regulatory": one word family (the body and what it does); so are "supplier" and
  // "supply", "provider" and "provide", "employer" and "employ".
  if (w.length >= 8 && /at(?:ion|or|ory)$/.test(w)) w = w.replace(/at(?:ion|or|ory)$/, 'at');
  else if (w.length >= 6 && /(?:ier|ider|oyer)$/.test(w)) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  if (w.endsWith('y') && w.length > 3) w = `${w.slice(0, -1)}i`;
  return w;
}
