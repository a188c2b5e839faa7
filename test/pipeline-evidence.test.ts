import { Readable } from 'node:stream';
import { createReadStream, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import type { KnownSubject, Providers } from '../core/providers/types.ts';
import { isResolved } from '../core/method/outcomes.ts';
import { candidateClaims } from '../core/research/criteria.ts';
import { isIndependent, type EvidenceItem } from '../core/research/evidence.ts';
import { gatherEvidence } from '../jobs/pipeline/search.ts';
import { judgeClaim, type Verdict } from '../core/research/judge.ts';
import type { CandidateClaim, SourceDocument } from '../core/research/types.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';

// The evidence and judge stages end to end on the offline engine: a pack written
// here (invented subject and publishers), then the sample pack, each in a
// database of its own, searched through the real local providers.

const TODAY = '2026-11-21';
const jsonl = (...records: unknown[]) => Readable.from(records.map((r) => JSON.stringify(r)).join('\n') + '\n');
const SUBJECT = { record: 'subject', name: 'Orrin Foods', kind: 'organisation', aliases: ['Orrin'], description: 'SAMPLE (test): a bakery chain.', public_figure: true, offices: [], urls: ['https://orrin-foods.example'], handles: [] };
const doc = (url: string, publisher: string, published: string, text: string, speakers: string[] = []) => ({ record: 'document', url, title: `[Test] ${publisher}`, publisher, published, speakers, text });
const SOURCE = doc('https://orrin-foods.example/news/2024-plan', 'Orrin Foods', '2024-02-10',
  'Orrin Foods baked 18,000 loaves a day in 2023. We will open 3 new bakeries in Pellow by March 2025. We will publish our flour sourcing audit by June 2024. Customers should store bread in a cool, dry place. Flour prices will fall by 10% before the end of 2024.',
  ['Orrin Foods']);
const PACK = [
  SUBJECT,
  SOURCE,
  doc('https://pellow-gazette.example/2024/05/bakery-inspection', 'Pellow Gazette', '2024-05-02', 'Inspectors visited the Pellow bakeries in April. Orrin Foods baked 18,200 loaves a day in 2023, the inspection found.'),
  doc('https://pellow-gazette.example/2024/06/audit', 'Pellow Gazette', '2024-06-20', 'Orrin Foods published its flour sourcing audit on 11 June 2024. The audit names 14 mills.'),
  doc('https://pellow-gazette.example/2025/06/new-bakeries', 'Pellow Gazette', '2025-06-05', 'Orrin Foods opened 3 new bakeries in Pellow in May 2025, later than it had promised. Queues formed on the first morning.'),
  doc('https://pellow-stats.example/prices/flour-2024', 'Office for Pellow Statistics', '2025-01-20', 'Flour prices in Pellow rose by 4% over 2024.'),
  doc('https://food-standards.pellow.example/advice/bread', 'Pellow Food Standards Agency', '2023-05-01', 'Store bread in a cool, dry place and eat it within three days.'),
  // Not independent: the subject's own site under another name, and the subject's alias on another site.
  doc('https://orrin-foods.example/press/guild-note', 'Pellow Millers Guild', '2024-03-01', 'Orrin Foods baked 18,000 loaves a day in 2023, the guild noted.'),
  doc('https://bread-news.example/orrin-column', 'Orrin', '2024-03-05', 'Orrin Foods baked 18,000 loaves a day in 2023 across all bakeries.'),
  // An independent outlet quoting the subject: the quote is not evidence; the outlet's own sentence is.
  doc('https://valley-herald.example/2024/04/loaves', 'Valley Herald', '2024-04-12', '"We baked 18,000 loaves a day in 2023," said Orrin Foods. The Herald counted 16,500 loaves a day at Orrin Foods bakeries in 2022.', ['Orrin Foods']),
  // Unrelated: must never come back as evidence.
  doc('https://pellow-gazette.example/2024/07/ferries', 'Pellow Gazette', '2024-07-01', 'The Pellow ferry carried 41,000 passengers in June, a record for the crossing.'),
];

type Judged = { claim: CandidateClaim; evidence: EvidenceItem[]; verdict: Verdict };

async function judgeAll(providers: Providers, subject: KnownSubject, docs: readonly SourceDocument[]): Promise<Judged[]> {
  const out: Judged[] = [];
  const ref = { name: subject.name, kind: subject.kind, aliases: subject.aliases, urls: subject.urls };
  for (const d of docs) {
    for (const claim of candidateClaims(d, ref)) {
      const evidence = await gatherEvidence(claim, subject, providers);
      out.push({ claim, evidence, verdict: judgeClaim(claim, evidence, TODAY) });
    }
  }
  return out;
}

async function knownSubject(providers: Providers, name: string): Promise<KnownSubject> {
  const [s] = await providers.knowledge.lookup(name);
  if (!s) throw new Error(`${name} not ingested`);
  return s;
}

describe('evidence and judge on a pack written for the test', () => {
  let db: TestDatabase;
  let providers: Providers;
  let judged: Judged[];
  const texts = new Map(PACK.filter((r) => r.record === 'document').map((d) => [(d as { url: string }).url, (d as { text: string }).text]));
  const of = (fragment: string): Judged => {
    const j = judged.find((x) => x.claim.quote.includes(fragment));
    if (!j) throw new Error(`no claim with "${fragment}"`);
    return j;
  };

  beforeAll(async () => {
    db = await createTestDatabase('pipeline_evidence');
    const r = await ingestPack(db.pool, jsonl(...PACK));
    expect(r.skipped).toEqual([]);
    providers = localProviders(db.pool);
    const subject = await knownSubject(providers, 'Orrin Foods');
    judged = await judgeAll(providers, subject, [SOURCE as unknown as SourceDocument]);
  });
  afterAll(() => db.drop());

  it('finds the claims of the source document', () => {
    expect(judged.map((j) => j.claim.claim_type)).toEqual(['factual', 'promise', 'promise', 'guidance', 'prediction']);
  });

  it('marks independence by publisher, alias and the subject\'s own site', () => {
    const loaves = of('18,000 loaves').evidence;
    const flag = (url: string) => loaves.find((e) => e.url === url)?.independent_of_subject;
    expect(flag('https://pellow-gazette.example/2024/05/bakery-inspection')).toBe(true);
    expect(flag('https://orrin-foods.example/press/guild-note')).toBe(false);
    expect(flag('https://bread-news.example/orrin-column')).toBe(false);
    // Independent items come first, each group by relevance.
    const firstOwn = loaves.findIndex((e) => !e.independent_of_subject);
    expect(loaves.slice(firstOwn).every((e) => !e.independent_of_subject)).toBe(true);
  });

  it('isIndependent: whole names and aliases in any case, and sites on path-segment boundaries', () => {
    const person: KnownSubject = {
      subject_id: 'sub_test', name: 'Wren Halloway', kind: 'person', aliases: ['Dr Wren Halloway'], description: null, public_figure: true,
      offices: [], serving_politician: false, urls: ['https://valley-institute.example/people/wren-halloway', 'wrenhalloway.example'], handles: [], demo: false,
    };
    const at = (url: string, publisher = 'Valley Herald') => isIndependent({ url, publisher }, person);
    expect(at('https://valley-herald.example/a', 'DR WREN HALLOWAY')).toBe(false);
    expect(at('https://valley-herald.example/a', 'Wren Halloway Fan Club')).toBe(true);
    expect(at('https://valley-institute.example/people/wren-halloway/blog/1')).toBe(false);
    expect(at('https://valley-institute.example/people/wren-halloway-smith/blog/1')).toBe(true);
    expect(at('https://valley-institute.example/news/1')).toBe(true);
    expect(at('https://www.wrenhalloway.example/essays')).toBe(false);
  });

  it('quotes every passage verbatim, never the claim\'s own source or an unrelated document', () => {
    for (const { claim, evidence } of judged) {
      expect(evidence.length).toBeLessThanOrEqual(5);
      for (const e of evidence) {
        expect(texts.get(e.url)?.includes(e.quote), e.quote).toBe(true);
        expect(e.url).not.toBe(claim.source.url);
        expect(e.url).not.toContain('ferries');
      }
    }
  });

  it('takes the outlet\'s own words, not the subject\'s quoted words, from a document that quotes it', () => {
    const herald = of('18,000 loaves').evidence.find((e) => e.url.includes('valley-herald'));
    expect(herald).toMatchObject({ independent_of_subject: true, quote: 'The Herald counted 16,500 loaves a day at Orrin Foods bakeries in 2022.' });
    for (const { evidence } of judged) for (const e of evidence) expect(e.quote).not.toContain('We baked');
  });

  it('settles the claims the pack\'s independent documents settle', () => {
    expect(of('18,000 loaves').verdict).toMatchObject({ outcome: 'true', judges_disagree: false });
    expect(of('3 new bakeries').verdict).toMatchObject({ outcome: 'true', on_time: false });
    expect(of('sourcing audit').verdict).toMatchObject({ outcome: 'true', on_time: true });
    expect(of('store bread').verdict.outcome).toBe('true');
    expect(of('Flour prices').verdict.outcome).toBe('false');
    expect(of('18,000 loaves').verdict.rationale).toContain('Pellow Gazette (2024-05-02) wrote: "Orrin Foods baked 18,200 loaves a day in 2023');
  });

  it('respects the limit, keeping the best first', async () => {
    const subject = await knownSubject(providers, 'Orrin Foods');
    const { claim, evidence } = of('18,000 loaves');
    const two = await gatherEvidence(claim, subject, providers, { limit: 2 });
    expect(two).toEqual(evidence.slice(0, 2));
  });
});

// Claims the sample pack's documents settle, with the outcome each was written to give, are
// listed once, in core/research/sample-pack.test.ts; read from there so the two cannot drift.
type Row = { fragment: string; url: string; want: string };
function settledRows(): Map<string, Row[]> {
  const src = readFileSync(new URL('../core/research/sample-pack.test.ts', import.meta.url), 'utf8');
  const table = src.slice(src.indexOf('const SETTLED'), src.indexOf("describe('sample pack: claims settled"));
  const out = new Map<string, Row[]>();
  for (const block of table.matchAll(/'([^']+)': \[([\s\S]*?)\n {2}\],/g)) {
    const rows = [...(block[2] ?? '').matchAll(/\['([^']+)', '\w+', '([^']+)', '([^']+)'\]/g)];
    out.set(block[1] ?? '', rows.map((r) => ({ fragment: r[1] ?? '', url: r[2] ?? '', want: r[3] ?? '' })));
  }
  return out;
}

describe('evidence and judge over the sample pack', () => {
  const SCORABLE = ['Brightwater Utilities', 'Imogen Thale', 'The Eastmere Ledger'];
  let db: TestDatabase;
  const results = new Map<string, Judged[]>();
  const rows = settledRows();

  beforeAll(async () => {
    db = await createTestDatabase('pipeline_sample');
    await ingestPack(db.pool, createReadStream(new URL('../content/sample-pack.jsonl', import.meta.url)));
    const providers = localProviders(db.pool);
    const { rows: docs } = await db.pool.query<SourceDocument>('SELECT url, title, publisher, published, speakers, text FROM documents ORDER BY url');
    for (const name of SCORABLE) results.set(name, await judgeAll(providers, await knownSubject(providers, name), docs));
  });
  afterAll(() => db.drop());

  it('reads the settled-claims table', () => {
    expect(SCORABLE.map((s) => rows.get(s)?.length ?? 0).every((n) => n >= 8)).toBe(true);
  });

  it('agrees with the outcome each settled claim was written to give', () => {
    let agree = 0;
    let total = 0;
    const misses: string[] = [];
    for (const name of SCORABLE) {
      const judged = results.get(name) ?? [];
      const counts = { resolved: 0, pending: 0, unresolvable: 0 };
      for (const j of judged) counts[isResolved(j.verdict.outcome) ? 'resolved' : (j.verdict.outcome as 'pending' | 'unresolvable')] += 1;
      let hits = 0;
      for (const row of rows.get(name) ?? []) {
        const j = judged.find((x) => x.claim.quote.includes(row.fragment));
        const got = j ? `${j.verdict.outcome}${j.verdict.on_time === false ? ' (late)' : ''}` : 'missing';
        total += 1;
        if (got === row.want) {
          hits += 1;
          // A claim settled as it was written to be is settled on the evidence it was written for.
          expect(j?.evidence.some((e) => e.url === row.url), `${row.fragment}: evidence ${row.url}`).toBe(true);
        } else misses.push(`${name}: "${row.fragment}" gave ${got}, written to give ${row.want}`);
      }
      agree += hits;
      console.info(`${name}: ${judged.length} claims, ${counts.resolved} resolved, ${counts.pending} pending, ${counts.unresolvable} unresolvable; settled claims agreeing ${hits}/${rows.get(name)?.length ?? 0}`);
    }
    console.info(`sample pack agreement: ${agree}/${total}${misses.length ? `\n${misses.join('\n')}` : ''}`);
    // The sample pack was the only test of the method 1.0 stages, which were tuned to it (90% here, about 40%
    // on packs written elsewhere). Method 1.1 is measured on the benchmark of invented packs and held to its
    // published figures there (test/benchmark.test.ts); here it must keep the agreement it has, 42 of 54. (It was
    // 45 under method 1.6. Method 1.7 leaves three false claims open whose source figure is more than 50% off the
    // claimed one, "£48 million on road repairs" against £31 million, rents up 11% against 7%, prices to fall by a
    // fifth against 12%: a figure that far off settles nothing alone, content/methodology.md, "Fixed test", a rule
    // measured on the whole benchmark, where such pairs were as often two measures as one.)
    expect(agree / total).toBeGreaterThanOrEqual(42 / 54);
  });

  it('resolves nothing on non-independent evidence, and quotes every passage verbatim', async () => {
    for (const judged of results.values()) {
      for (const { evidence, verdict } of judged) {
        if (isResolved(verdict.outcome)) expect(evidence.some((e) => e.independent_of_subject)).toBe(true);
        for (const e of evidence) {
          const { rows: found } = await db.pool.query<{ text: string }>('SELECT text FROM documents WHERE url = $1', [e.url]);
          expect(found[0]?.text.includes(e.quote), e.quote).toBe(true);
        }
      }
    }
  });

  it('leaves promises and predictions that are not yet due pending', () => {
    for (const judged of results.values()) {
      for (const { claim, verdict } of judged) {
        if (claim.deadline && claim.deadline > TODAY && claim.claim_type === 'prediction') expect(verdict.outcome, claim.quote).toBe('pending');
      }
    }
  });
});
