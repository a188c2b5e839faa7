import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PackRecordSchema, type DocumentRecord, type SubjectRecord } from '../corpus/pack.ts';
import type { FetchedDocument, KnownSubject } from '../providers/types.ts';
import { checked, offlineAssess, offlineExtract, offlineSelect, StageContractError, type Stage } from './stage.ts';
import type { CandidateClaim, SourceDocument } from './types.ts';

// The Stage contract (stage.ts) held against the deterministic stages on the
// whole sample pack: every stage run `checked`, so an input or output that
// leaves its schema fails here, and `checked` itself refuses what breaks it.

const PACK = fileURLToPath(new URL('../../content/sample-pack.jsonl', import.meta.url));
const records = readFileSync(PACK, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => PackRecordSchema.parse(JSON.parse(l)));
const subjects = records.filter((r): r is SubjectRecord => r.record === 'subject');
const documents = records.filter((r): r is DocumentRecord & { published: string } => r.record === 'document' && typeof r.published === 'string');

const known = (s: SubjectRecord, i: number): KnownSubject => ({
  subject_id: `sample-${i}`, name: s.name, kind: s.kind, aliases: s.aliases, description: s.description ?? null, public_figure: true,
  offices: [], serving_politician: false, urls: s.urls, handles: [], demo: false, sample: true,
});
const source = (d: DocumentRecord & { published: string }): SourceDocument => ({ url: d.url, title: d.title, publisher: d.publisher, published: d.published, speakers: d.speakers, text: d.text });
const fetched = (d: DocumentRecord & { published: string }): FetchedDocument => ({ ...source(d), sample: true });

describe('the Stage contract on the deterministic stages', () => {
  it('extract, select and assess keep their schemas on every document and claim of the sample pack', async () => {
    const extract = checked(offlineExtract);
    const assess = checked(offlineAssess);
    const select = checked(offlineSelect);
    let claims = 0;
    let verdicts = 0;
    for (const [i, s] of subjects.entries()) {
      const ref = { name: s.name, kind: s.kind, aliases: s.aliases, urls: s.urls };
      const own = documents.filter((d) => d.speakers.includes(s.name));
      const found: CandidateClaim[] = [];
      for (const d of own) found.push(...(await extract.run({ doc: source(d), ref })));
      claims += found.length;
      const docs = documents.filter((d) => !d.speakers.includes(s.name)).map(fetched);
      for (const claim of found.slice(0, 4)) {
        const task = { claim, subject: known(s, i), docs, limit: 5 };
        const a = await assess.run({ ...task, today: '2026-11-21' });
        expect(a.evidence.length).toBeLessThanOrEqual(5);
        expect(await select.run(task)).toEqual(a.evidence);
        if (a.verdict.outcome !== 'unresolvable' && a.verdict.outcome !== 'pending') verdicts++;
      }
    }
    // The pack exercises the stages: claims are found and some are settled.
    expect(claims).toBeGreaterThan(40);
    expect(verdicts).toBeGreaterThan(5);
  });

  it('checked refuses an input outside the schema before the stage runs, naming the stage and the field', async () => {
    let ran = false;
    const stage: Stage<Parameters<typeof offlineExtract.run>[0], CandidateClaim[]> = { ...offlineExtract, run: (i) => { ran = true; return offlineExtract.run(i); } };
    const bad = { doc: { ...source(documents[0]!), published: '21 November 2026' }, ref: { name: 'X', kind: 'organisation' as const, aliases: [], urls: [] } };
    const err = await checked(stage).run(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StageContractError);
    expect((err as StageContractError).side).toBe('input');
    expect((err as StageContractError).message).toMatch(/stage extract: input .*doc\.published/);
    expect(ran).toBe(false);
  });

  it('checked refuses an output outside the schema (a model stage that returns a claim without its fixed test)', async () => {
    const lying: Stage<Parameters<typeof offlineExtract.run>[0], CandidateClaim[]> = {
      ...offlineExtract,
      name: 'extract (model)',
      run: async (i) => offlineExtract.run(i).map((c) => ({ ...c, resolution_criteria: '' })),
    };
    const d = documents.find((x) => offlineExtract.run({ doc: source(x), ref: { name: x.speakers[0]!, kind: 'organisation', aliases: [], urls: [] } }).length > 0)!;
    const err = await checked(lying).run({ doc: source(d), ref: { name: d.speakers[0]!, kind: 'organisation', aliases: [], urls: [] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StageContractError);
    expect((err as StageContractError).side).toBe('output');
    expect((err as StageContractError).message).toMatch(/resolution_criteria/);
  });
});
