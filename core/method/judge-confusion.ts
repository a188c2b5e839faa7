import type { ClaimType } from './outcomes.ts';

// How the machine judges' verdicts relate to the true outcomes, as the benchmark
// measures it: the one table the method reads its judge error from
// (judge-error.ts derives the rest). content/methodology.md ("Judge error")
// prints the same figures; change them together, then bump METHOD_SEMVER.
//
// WHERE THE FIGURES COME FROM. Text the engine had never seen, counted
// with `npm run --silent eval -- PACKS… --confusion` (core/eval/confusion.ts:
// every gold claim the engine found and resolved counts once, by the type the
// engine gave it, in the row of its gold outcome and the column of the
// engine's; a resolved verdict on a claim the gold leaves `unresolvable` or
// `pending` counts in `unsettled`; no claim's text is read), on 2026-11-25,
// pooled from these parts, each counted the first time it was measured:
// - six packs by three new authors (a building society, a local newspaper, a
//   pharmaceutical company, a bus company, a weather forecaster, an
//   environmental charity), measured before any rule was written from them,
//   with method 1.2.0: 14 of 60 verdicts on the wrong side (23%);
// - the held-out part (six packs by three other authors), measured once
//   with method 1.3.0 at its release: 10 of 42 (24%);
// - twelve packs by six further authors, in four batches, each measured
//   before it was read, with the engine of that day (1.3.0 to 1.4.0): 28 of
//   117 (24%);
// - twelve packs by six further authors (an insurer, a former mayor, a public
//   health agency, a car maker, a recycling contractor, a science magazine, a
//   social-media company, a prison service, an arts council, a cycling
//   federation, a television broadcaster, a dairy co-operative), in six
//   batches, each measured before it was read, with the engine of that day
//   (1.4.0 to 1.5.0): 38 of 110 (35%);
// - session 8: twenty packs by ten further authors (a port authority, care
//   homes, a mining company, a trade union, a toll road, a cricket pundit, a
//   heritage trust, a local radio station, a parcel courier, a brewery, a ski
//   resort, an animal charity, a software company, a podcast host, a zoo, a
//   battery start-up, a city marathon, a forestry agency, a housing charity,
//   a financial columnist), in eight batches, each measured before any rule
//   was written from it, with the engine of that day (1.5.0 to 1.6.0): 57 of
//   127 (45%);
// - session 9: eight packs by four further authors (a water company, a
//   university, a bus operator, a supermarket chain, a long-range weather
//   forecaster, a think tank, a regional airline, a museum), in one batch,
//   measured before any rule was written from it, with method 1.6.0 on
//   2026-11-25: 20 of 64 (31%).
// In all 167 of 520 (32.1%). A verdict is on the wrong side when its side
// (`true`/`mostly_true`; `mixed`; `mostly_false`/`false`) is not the gold
// outcome's, an `unsettled` one included: the `wrong/res` column of
// `npm run eval`. Method 1.2 read 21% from its own development packs, text
// its rules had been written on; unseen text is what a report meets. To
// update: count a part the engine has not seen with --confusion, and add it
// cell by cell, overall and per type.

/** Rows: the gold outcome; columns: the machine's; both in RESOLVED_OUTCOMES order (true … false). */
export type ConfusionCounts = readonly (readonly number[])[];
export type MeasuredConfusion = { readonly counts: ConfusionCounts; readonly unsettled: number };

export const JUDGE_CONFUSION_MEASURED = Object.freeze({
  command: 'npm run --silent eval -- PACKS… --confusion',
  measured_on: '2026-11-25',
  method_version: '1.2.0 to 1.6.0, each part with the engine of the day it was first measured',
  packs: 64,
  overall: {
    counts: [
      [133, 11, 9, 7, 28],
      [12, 39, 7, 4, 10],
      [14, 3, 24, 2, 15],
      [8, 2, 2, 40, 14],
      [19, 0, 4, 3, 77],
    ],
    unsettled: 33,
  },
  by_type: {
    factual: {
      counts: [
        [59, 9, 4, 6, 21],
        [3, 29, 6, 4, 7],
        [4, 3, 9, 1, 10],
        [2, 2, 0, 29, 12],
        [7, 0, 3, 3, 46],
      ],
      unsettled: 22,
    },
    promise: {
      counts: [
        [43, 1, 5, 1, 5],
        [4, 6, 0, 0, 0],
        [7, 0, 15, 1, 2],
        [5, 0, 0, 2, 0],
        [3, 0, 0, 0, 10],
      ],
      unsettled: 10,
    },
    guidance: {
      counts: [
        [16, 0, 0, 0, 1],
        [3, 3, 1, 0, 2],
        [0, 0, 0, 0, 1],
        [1, 0, 2, 7, 1],
        [1, 0, 1, 0, 13],
      ],
      unsettled: 1,
    },
    prediction: {
      counts: [
        [15, 1, 0, 0, 1],
        [2, 1, 0, 0, 1],
        [3, 0, 0, 0, 2],
        [0, 0, 0, 2, 1],
        [8, 0, 0, 0, 8],
      ],
      unsettled: 0,
    },
  } satisfies Record<ClaimType, MeasuredConfusion>,
} as const);

/**
 * A type uses its own counts once the benchmark holds this many of its
 * resolved verdicts (`unsettled` ones included); below that they are too few
 * to tell its confusion from the pooled one, and the pooled counts are used. (On 2026-11-25, with 520 verdicts, factual had 301, 102 on the wrong
 * side (34%), and promise 120, 39 on the wrong side (33%): both use their own;
 * guidance 54 and prediction 45, on the wrong side 20% and 33%, use the
 * pooled counts.)
 */
export const MIN_VERDICTS_FOR_TYPE_CONFUSION = 100;
