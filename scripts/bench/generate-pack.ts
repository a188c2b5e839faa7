/**
 * Generated source packs for benchmarks: invented subjects (marked as
 * generated sample data) whose statements carry factual claims, promises,
 * guidance and predictions, and independent documents that settle some of
 * them. Deterministic for a seed. Not test data: tests write their own packs.
 */

export type GenOptions = { subjects: number; documents: number; seed?: number; bigSubjectDocuments?: number };

/** A small seeded generator (mulberry32): the same seed, the same pack. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['Avelin', 'Corvan', 'Dellis', 'Embry', 'Fenwick', 'Garrow', 'Halden', 'Isley', 'Jarrow', 'Kestrel', 'Lorne', 'Marlow', 'Norcott', 'Orwin', 'Pellam', 'Quarry', 'Rushden', 'Selwyn', 'Tamsin', 'Ulric'];
const LAST = ['Ashdown', 'Brackley', 'Caldew', 'Dunmere', 'Elstow', 'Farleigh', 'Glenholt', 'Harwood', 'Ingleby', 'Kirkham'];
const THINGS = [
  ['customers', 'count'], ['homes connected', 'count'], ['jobs', 'count'], ['bus routes', 'count'], ['clinics', 'count'],
  ['revenue', 'money'], ['investment', 'money'], ['leakage', 'percent'], ['emissions', 'percent'], ['readership', 'count'],
] as const;
const TOPIC_WORDS = ['water', 'energy', 'housing', 'transport', 'health', 'schools', 'broadband', 'rail'];
const PUBLISHERS = ['Valley Statistics Office', 'Northshore Herald', 'Regional Audit Board', 'Coastline Review', 'Civic Data Trust'];

export function* generatePack(o: GenOptions): Generator<string> {
  const r = rng(o.seed ?? 7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const kinds = ['organisation', 'person', 'outlet'] as const;
  const subjects = Array.from({ length: o.subjects }, (_, i) => {
    const kind = kinds[i % 3]!;
    const base = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
    const name = kind === 'organisation' ? `${base} Group ${i}` : kind === 'outlet' ? `The ${base} Courier ${i}` : `${base} ${i}`;
    return { name, kind, slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-') };
  });
  for (const s of subjects) {
    yield JSON.stringify({
      record: 'subject', name: s.name, kind: s.kind, aliases: [], description: 'GENERATED SAMPLE DATA (benchmark): an invented subject.',
      public_figure: true, offices: [], urls: [`https://${s.slug}.example`], handles: [],
    });
  }
  // The first subject speaks in bigSubjectDocuments documents (and is the
  // topic of a quarter as many independent ones); the rest share what is left.
  const big = o.bigSubjectDocuments ?? 0;
  const bigTotal = Math.round(big * 1.25);
  for (let d = 0; d < o.documents; d++) {
    const s = d < bigTotal ? subjects[0]! : subjects[(d % (subjects.length - 1)) + 1]!;
    const year = 2022 + Math.floor(r() * 4);
    const month = 1 + Math.floor(r() * 12);
    const published = `${year}-${String(month).padStart(2, '0')}-${String(1 + Math.floor(r() * 27)).padStart(2, '0')}`;
    const [thing, unit] = pick(THINGS);
    const n = 100 + Math.floor(r() * 9000);
    const fig = unit === 'money' ? `£${(n / 10).toFixed(1)} million` : unit === 'percent' ? `${(n % 40) + 2}%` : n.toLocaleString('en-GB');
    const topic = pick(TOPIC_WORDS);
    const statement = d < bigTotal ? d < big : d % 5 !== 4;
    if (statement) {
      const sentences = [
        `Our ${topic} ${thing} reached ${fig} in ${year - 1}, the highest figure we have recorded.`,
        `We will open ${2 + (n % 9)} new ${topic} centres by December ${year + 1}.`,
        `${thing[0]!.toUpperCase()}${thing.slice(1)} in the ${topic} sector will rise by ${(n % 12) + 1}% by the end of ${year + 2}.`,
        `People should check their ${topic} bills before the winter and report faults within 48 hours.`,
        `We delivered ${fig} of ${thing} across ${2 + (n % 7)} districts last year.`,
      ];
      yield JSON.stringify({
        record: 'document', url: `https://${s.slug}.example/news/${d}`, title: `[Generated] ${s.name} update ${d}`,
        publisher: s.name, published, speakers: [s.name], text: sentences.slice(0, 3 + (d % 3)).join(' '),
      });
    } else {
      const off = 1 + (r() < 0.5 ? 0.01 : 0.3);
      const reported = unit === 'money' ? `£${((n * off) / 10).toFixed(1)} million` : unit === 'percent' ? `${Math.round(((n % 40) + 2) * off)}%` : Math.round(n * off).toLocaleString('en-GB');
      yield JSON.stringify({
        record: 'document', url: `https://${pick(PUBLISHERS).toLowerCase().replace(/[^a-z]+/g, '-')}.example/${d}`, title: `[Generated] Figures on ${s.name}`,
        publisher: pick(PUBLISHERS), published, speakers: [],
        text: `${s.name} reported ${topic} ${thing} of ${reported} in ${year - 1}, according to published accounts. The ${topic} centres promised for ${year + 1} opened on time.`,
      });
    }
  }
}
