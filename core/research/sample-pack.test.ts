import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AFTER_DUE_DAYS, FACT_WINDOW_DAYS, candidateClaims } from './criteria.ts';
import { isOutlook } from './classify.ts';
import { subjectMatcher } from './extract.ts';
import { PackRecordSchema, type DocumentRecord, type SubjectRecord as PackSubject } from '../corpus/pack.ts';
import { CLAIM_TYPES, type CandidateClaim, type SubjectRef } from './types.ts';

type PackDocument = DocumentRecord & { published: string };

// The sample source pack (content/sample-pack.jsonl): invented subjects and documents
// that exercise every stage. These tests hold the pack to what the service needs of it.

const TODAY = '2026-11-21';
const PACK = fileURLToPath(new URL('../../content/sample-pack.jsonl', import.meta.url));
const lines = readFileSync(PACK, 'utf8').split('\n').filter((l) => l.trim() !== '');
const records = lines.map((l) => PackRecordSchema.parse(JSON.parse(l)));
const subjects = records.filter((r): r is PackSubject => r.record === 'subject');
const documents = records.filter((r): r is PackDocument => r.record === 'document' && typeof r.published === 'string');
const ref = (s: PackSubject): SubjectRef => ({ name: s.name, kind: s.kind, aliases: s.aliases, urls: s.urls });
const subject = (name: string, kind: PackSubject['kind']): PackSubject => {
  const found = subjects.find((s) => s.name === name && s.kind === kind);
  if (!found) throw new Error(`sample pack lacks ${kind} ${name}`);
  return found;
};
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const SCORABLE = [subject('Brightwater Utilities', 'organisation'), subject('Imogen Thale', 'person'), subject('The Eastmere Ledger', 'outlet')];
const claimsOf = new Map<PackSubject, CandidateClaim[]>(SCORABLE.map((s) => [s, documents.flatMap((d) => candidateClaims(d, ref(s)))]));

/** Independent of the subject: published by neither it nor an alias, and not on its own sites (DESIGN.md). */
function independent(doc: PackDocument, s: PackSubject): boolean {
  return !subjectMatcher(ref(s))(doc.publisher) && !s.urls.some((u) => doc.url.startsWith(u));
}

describe('sample pack: records', () => {
  it('every line is a valid subject or document record', () => {
    expect(lines.length).toBe(records.length);
    expect(subjects.length).toBeGreaterThanOrEqual(7);
    expect(documents.length).toBeGreaterThanOrEqual(60);
  });

  it('is marked as invented sample data throughout', () => {
    for (const s of subjects) expect(s.description ?? '').toMatch(/^SAMPLE DATA \(invented\):/);
    for (const d of documents) expect(d.title.startsWith('[Sample]')).toBe(true);
  });

  it('has unique document URLs and subject name-and-kind pairs (the ingest keys)', () => {
    expect(new Set(documents.map((d) => d.url)).size).toBe(documents.length);
    expect(new Set(subjects.map((s) => `${s.kind}:${s.name}`)).size).toBe(subjects.length);
  });

  it('dates nothing after today, and names only known subjects as speakers', () => {
    for (const d of documents) {
      expect(d.published <= TODAY).toBe(true);
      for (const sp of d.speakers) expect(subjects.some((s) => subjectMatcher(ref(s))(sp)), `${d.url}: ${sp}`).toBe(true);
    }
  });
});

describe('sample pack: subject varieties', () => {
  it('holds an organisation, an outlet and a public person with no current office', () => {
    expect(subject('Brightwater Utilities', 'organisation').public_figure).toBe(true);
    expect(subject('The Eastmere Ledger', 'outlet').kind).toBe('outlet');
    const thale = subject('Imogen Thale', 'person');
    expect(thale.public_figure).toBe(true);
    expect(thale.offices.length).toBeGreaterThan(0); // a past office, which must not count as serving
    expect(thale.offices.every((o) => typeof o.to === 'string' && o.to < TODAY)).toBe(true);
  });

  it('holds a serving politician and a private person', () => {
    expect(subjects.some((s) => s.kind === 'person' && s.offices.some((o) => o.to === null))).toBe(true);
    expect(subjects.some((s) => s.kind === 'person' && s.public_figure === false)).toBe(true);
  });

  it('holds two different subjects who share a name', () => {
    const byName = Map.groupBy(subjects, (s) => s.name);
    const shared = [...byName.values()].filter((group) => group.length > 1);
    expect(shared.length).toBeGreaterThan(0);
    for (const group of shared) expect(new Set(group.map((s) => s.description)).size).toBe(group.length);
  });
});

describe('sample pack: extraction over the scorable subjects', () => {
  it.each(SCORABLE.map((s) => [s.name, s] as const))('%s speaks in 12 or more documents and yields claims of all four types', (_name, s) => {
    const claims = claimsOf.get(s) ?? [];
    expect(new Set(claims.map((c) => c.source.url)).size).toBeGreaterThanOrEqual(12);
    // Since method 1.1 a body's outlook for its own figures is guidance, so its forecasts are fewer.
    for (const type of CLAIM_TYPES) expect(claims.filter((c) => c.claim_type === type).length, type).toBeGreaterThanOrEqual(1);
  });

  it.each(SCORABLE.map((s) => [s.name, s] as const))('%s: every quote is verbatim in its document', (_name, s) => {
    for (const c of claimsOf.get(s) ?? []) {
      const doc = documents.find((d) => d.url === c.source.url);
      expect(doc?.text.includes(c.quote), c.quote).toBe(true);
      expect(c.quote_verified).toBe(true);
      expect(c.said_on).toBe(doc?.published);
    }
  });

  it.each(SCORABLE.map((s) => [s.name, s] as const))('%s has promises or predictions still pending on %s', (_name, s) => {
    const pending = (claimsOf.get(s) ?? []).filter((c) => c.deadline !== null && c.deadline > TODAY);
    expect(pending.length).toBeGreaterThanOrEqual(2);
  });

  it('takes no one else\'s quotes: the Ledger does not get what it quotes, Brightwater gets what others quote of it', () => {
    const ledger = claimsOf.get(SCORABLE[2] as PackSubject) ?? [];
    expect(ledger.some((c) => /good start|kitchen|remain on track|filled 12,400/.test(c.quote))).toBe(false);
    const bw = claimsOf.get(SCORABLE[0] as PackSubject) ?? [];
    expect(bw.some((c) => c.source.outlet === 'The Eastmere Ledger' && c.attribution === 'quotation')).toBe(true);
    expect(bw.some((c) => c.source.outlet === 'The Harbour Post' && c.quote.startsWith('We will bring leakage'))).toBe(true);
    expect(bw.some((c) => c.quote.startsWith('Critics say'))).toBe(false);
  });
});

// Claims the pack's independent documents settle, with the outcome they were written to
// give (a fixture for the judge stage). Each row: quote fragment, type, evidence URL, outcome.
type Settled = [string, (typeof CLAIM_TYPES)[number], string, string];
const SETTLED: Record<string, Settled[]> = {
  'Brightwater Utilities': [
    ['replace 4,000 lead service pipes', 'promise', 'https://cvwr.example/reports/lead-programme-final', 'true'],
    ['to 640,000 customers', 'factual', 'https://cvwr.example/reports/2022-performance', 'true'],
    ['open two new treatment works by June 2025', 'promise', 'https://harbourpost.example/2025/06/kestrel-lane', 'mixed'],
    ['Leakage fell to 18% of supply', 'factual', 'https://cvwr.example/reports/2022-performance', 'false'],
    ['cut average household water bills by 5%', 'promise', 'https://energy-ombudsman.example/reviews/household-bills-2024', 'false'],
    ['average household bill in 2023 was £468', 'factual', 'https://energy-ombudsman.example/reviews/household-bills-2024', 'true'],
    ['run their cold tap for 30 seconds', 'guidance', 'https://health.eastmere.example/advice/drinking-water', 'true'],
    ['Reservoir levels stood at 64%', 'factual', 'https://cvwr.example/reports/2022-performance', 'mostly_true'],
    ['demand for water in Eastmere to rise by 8%', 'guidance', 'https://stats.eastmere.example/water-use-2023-2025', 'mostly_true'],
    ['fall by a fifth', 'prediction', 'https://energy-ombudsman.example/reviews/energy-market-2024', 'false'],
    ['satisfaction score reached 82', 'factual', 'https://energy-ombudsman.example/reviews/household-bills-2024', 'mostly_true'],
    ['flow temperatures to 60 degrees', 'guidance', 'https://energy-ombudsman.example/reviews/energy-market-2024', 'true'],
    ['25,000 smart water meters', 'promise', 'https://cvwr.example/reports/smart-metering-2025', 'mixed'],
    ['invested £310 million', 'factual', 'https://cvwr.example/reports/lead-programme-final', 'true'],
    ['112 pollution incidents', 'factual', 'https://cvwr.example/reports/lead-programme-final', 'mostly_false'],
    ['opened on 28 May 2025', 'factual', 'https://harbourpost.example/2025/06/kestrel-lane', 'true'],
    ['on track to finish the lead programme this year', 'promise', 'https://cvwr.example/reports/lead-programme-final', 'true'],
    ['Households use 142 litres', 'factual', 'https://stats.eastmere.example/water-use-2023-2025', 'mostly_true'],
  ],
  'Imogen Thale': [
    ['fell to 86% in 2022', 'factual', 'https://health.eastmere.example/statistics/immunisation-2022', 'true'],
    ['exceed 500 by the end of 2024', 'prediction', 'https://health.eastmere.example/statistics/measles-2023-2024', 'false'],
    ['book a catch-up dose', 'guidance', 'https://health.eastmere.example/statistics/immunisation-2022', 'true'],
    ['310 early deaths in Eastmere in 2021', 'factual', 'https://health.eastmere.example/reports/air-quality-2021', 'mostly_true'],
    ['likely to reach 15% by 2025', 'prediction', 'https://health.eastmere.example/reports/amr-2025', 'true'],
    ['Nobody should take antibiotics', 'guidance', 'https://health.eastmere.example/advice/antibiotics', 'true'],
    ['full dataset from our Eastmere air quality study', 'promise', 'https://repository.northgate-university.example/records/eaqc-dataset', 'true'],
    ['followed 2,400 children', 'factual', 'https://repository.northgate-university.example/records/eaqc-dataset', 'true'],
    ['1,240 hospital admissions', 'factual', 'https://health.eastmere.example/reports/summer-2023-heat', 'false'],
    ['flu vaccine before the end of October', 'guidance', 'https://health.eastmere.example/reports/summer-2023-heat', 'true'],
    ['Calder sleep trial within six months', 'promise', 'https://repository.northgate-university.example/records/calder-sleep-trial-results', 'true (late)'],
    ['donate all royalties', 'promise', 'https://echcharity.example/annual-report-2025', 'true'],
    ['peaked at 410', 'factual', 'https://health.eastmere.example/reports/winter-2024-25', 'mostly_true'],
    ['outbreak to be over by June 2025', 'prediction', 'https://health.eastmere.example/reports/winter-2024-25', 'true'],
    ['Wash your hands for 20 seconds', 'guidance', 'https://health.eastmere.example/reports/winter-2024-25', 'true'],
    ['rose to 24% in 2024', 'factual', 'https://health.eastmere.example/statistics/child-health-2024', 'mostly_true'],
    ['240 early deaths in Eastmere in 2025', 'factual', 'https://health.eastmere.example/reports/air-pollution-2025', 'mostly_true'],
    ['38 measles cases', 'factual', 'https://health.eastmere.example/statistics/measles-2023-2024', 'mostly_true'],
    ['check on elderly neighbours', 'guidance', 'https://health.eastmere.example/reports/summer-2023-heat', 'true'],
  ],
  'The Eastmere Ledger': [
    ['unemployment rate fell to 4.2%', 'factual', 'https://stats.eastmere.example/labour-market-2023-q1', 'true'],
    ['fall by 10% before the end of 2024', 'prediction', 'https://stats.eastmere.example/housing-2024', 'false'],
    ['rents in Eastmere rose by 11%', 'factual', 'https://stats.eastmere.example/private-rents-2023', 'false'],
    ['£48 million on road repairs', 'factual', 'https://council.eastmere.example/accounts/2023', 'false'],
    ['full audit of our corrections by March 2024', 'promise', 'https://presscouncil.example/reviews/2024', 'true (late)'],
    ['remove the paywall', 'promise', 'https://presscouncil.example/reviews/2024', 'true'],
    ['corrected 212 articles', 'factual', 'https://presscouncil.example/registers/corrections-2023', 'true'],
    ['52 million journeys', 'factual', 'https://calder-transport.example/patronage-2023', 'mostly_true'],
    ['bills in Eastmere rose by 3% in April', 'factual', 'https://energy-ombudsman.example/reviews/household-bills-2024', 'true'],
    ['3,870 burglaries in 2023', 'factual', 'https://police.eastmere.example/statistics/crime-2023', 'mostly_true'],
    ['likely to drop below 3% by June 2025', 'prediction', 'https://stats.eastmere.example/consumer-prices-2025-06', 'true'],
    ['check the Revenue Office website', 'guidance', 'https://revenue.eastmere.example/scams', 'true'],
    ['19 weeks in December 2024', 'factual', 'https://health.eastmere.example/reports/planned-care-2024-12', 'mostly_true'],
    ['diagnostic centre in Northfield by August 2025', 'prediction', 'https://health.eastmere.example/news/northfield-diagnostic-centre', 'true'],
    ['population grew to 412,000', 'factual', 'https://stats.eastmere.example/population-2024', 'true'],
    ['18,500 copies a day', 'factual', 'https://presscouncil.example/circulation/2025-07', 'mostly_true'],
    ['council elections was 34%', 'factual', 'https://council.eastmere.example/elections/2026-results', 'true'],
  ],
};

describe('sample pack: claims settled by independent evidence', () => {
  it.each(SCORABLE.map((s) => [s.name, s] as const))('%s has 8 or more, settling both ways', (name, s) => {
    const rows = SETTLED[name] ?? [];
    expect(rows.length).toBeGreaterThanOrEqual(8);
    const outcomes = new Set(rows.map((r) => r[3]));
    expect(outcomes.has('true') && (outcomes.has('false') || outcomes.has('mostly_false'))).toBe(true);
    for (const [fragment, published, url] of rows) {
      const matches = (claimsOf.get(s) ?? []).filter((c) => c.quote.includes(fragment));
      expect(matches.length, fragment).toBe(1);
      const c = matches[0] as CandidateClaim;
      expect(c.claim_type, fragment).toBe(published);
      // An outlook (guidance on the speaker's own figures) is held to the actual as a forecast is.
      const type = published === 'guidance' && isOutlook(c.quote) ? 'prediction' : published;
      const evidence = documents.find((d) => d.url === url);
      expect(evidence, url).toBeDefined();
      if (!evidence) continue;
      expect(independent(evidence, s), url).toBe(true);
      // The evidence must fall inside the window the claim's fixed test allows.
      if (type === 'factual' || type === 'guidance') expect(evidence.published <= addDays(c.said_on, FACT_WINDOW_DAYS), fragment).toBe(true);
      if (type === 'promise' || type === 'prediction') {
        expect(c.deadline !== null && c.deadline <= TODAY, `${fragment} is due`).toBe(true);
        expect(evidence.published >= c.said_on, fragment).toBe(true);
      }
      if (type === 'prediction') expect(evidence.published <= addDays(c.deadline ?? TODAY, AFTER_DUE_DAYS), fragment).toBe(true);
    }
  });
});
