/**
 * `npm run --silent calibrate -- [--seed TEXT] [--subjects N] [--scenario NAME ...] [--json] [--markdown]`
 *
 * The calibration harness of issue #17: simulated subjects of known true
 * reliability over a grid of scenarios, p and n, scored by the production
 * scoreClaims (core/eval/calibration.ts). Prints the coverage of
 * scores.overall.interval_80, the mean width, and the score's bias and RMSE
 * per cell, for the calibration grid and then for the sensitivity grid (judges
 * that err otherwise than measured). Deterministic: the same seed gives the
 * same table. Exit codes: 0 done, 2 usage.
 */
import { parseArgs } from 'node:util';
import {
  DEFAULT_NS,
  DEFAULT_PS,
  DEFAULT_SEED,
  DEFAULT_SUBJECTS,
  SCENARIOS,
  SENSITIVITY,
  formatCalibrationTable,
  formatCoverageSummary,
  gridOf,
  runCalibration,
} from '../core/eval/calibration.ts';
import { methodVersion } from '../core/method/version.ts';

const USAGE = 'usage: npm run --silent calibrate -- [--seed TEXT] [--subjects N] [--scenario NAME ...] [--json] [--markdown] [--help]';
const names = [...Object.values(SCENARIOS), ...Object.values(SENSITIVITY)].map((s) => s.name);

const HELP = `${USAGE}

Simulates subjects whose true reliability p is known, scores each with the
production scoreClaims, and prints per cell (scenario, p, n):

  cover80   share of subjects whose scores.overall.interval_80 holds 100 × p
  ±se       Monte Carlo standard error of cover80, in points
  low/high  share whose whole interval lies below / above 100 × p
  width     mean width of interval_80, in points
  bias      mean of score − 100 × p, in points
  RMSE      root mean square of score − 100 × p, in points

The true score is 100 × p, where p is the expected credit of one of the
subject's resolved claims as a correct judge would grade it: the mean of the
distribution its true outcomes are drawn from (averaged over clusters), before
any judge error. Judge error is counted as the method's error.

Scenarios (every claim factual, judges agreeing, no deadline). Without judge
error the verdicts are given as reviewed by a person; with it, as machine
verdicts, which the method counts with the judges' measured confusion.
  binary            true or false only
  graded            the five outcomes; a credit's variance is 0.5 × p(1 − p)
                    (true/false only would be 1 × p(1 − p))
  graded-narrow     the five outcomes as Binomial(4, p)/4, variance 0.25 × p(1 − p)
  clustered-5/ICC   true/false in runs of 5 claims from one source sharing a
                    tendency drawn from a Beta with mean p; ICC is the
                    within-run correlation
  ...+error-measured
                    machine verdicts drawn from the judges' confusion as
                    npm run eval measured it (core/method/judge-error.ts), each
                    subject's rows drawn from Dirichlet(counts)
  graded+...        the same departure on graded verdicts

Sensitivity (printed after the grid; not part of it): machine verdicts whose
judges put a verdict on the wrong side, as its mirror (credit c read as 1 − c),
at a rate other than measured:
  judge-error-R     true/false verdicts, mirrored at rate R
  graded+error-R    graded verdicts, mirrored at rate R

Grid: p in ${DEFAULT_PS.join(', ')}; n in ${DEFAULT_NS.join(', ')}.

Options:
  --seed TEXT       seed of the random streams (default ${DEFAULT_SEED}); each cell's
                    stream depends only on the seed and the cell
  --subjects N      simulated subjects per cell (default ${DEFAULT_SUBJECTS})
  --scenario NAME   only this scenario; may be repeated (${names.join(', ')})
  --json            print the rows as JSON instead of a table
  --markdown        print the coverage alone as Markdown tables, as
                    content/methodology.md shows it
`;

let args;
try {
  args = parseArgs({
    options: {
      seed: { type: 'string', default: DEFAULT_SEED },
      subjects: { type: 'string', default: String(DEFAULT_SUBJECTS) },
      scenario: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      markdown: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
const { values } = args;
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const subjects = Number(values.subjects);
if (!/^\d+$/.test(values.subjects!) || subjects < 1) {
  process.stderr.write(`--subjects must be a whole number of at least 1, got ${values.subjects}\n${USAGE}\n`);
  process.exit(2);
}
const unknown = (values.scenario ?? []).filter((s) => !names.includes(s));
if (unknown.length > 0) {
  process.stderr.write(`unknown scenario ${unknown.join(', ')}; known: ${names.join(', ')}\n${USAGE}\n`);
  process.exit(2);
}
const scenarios = Object.values(SCENARIOS).filter((s) => !values.scenario || values.scenario.includes(s.name));
const sensitivity = Object.values(SENSITIVITY).filter((s) => !values.scenario || values.scenario.includes(s.name));

const started = performance.now();
const rows = runCalibration({ grid: gridOf(scenarios, DEFAULT_PS, DEFAULT_NS), seed: values.seed!, subjects });
const sensitivityRows = runCalibration({ grid: gridOf(sensitivity, DEFAULT_PS, DEFAULT_NS), seed: values.seed!, subjects });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const cells = rows.length + sensitivityRows.length;

if (values.json) {
  process.stdout.write(`${JSON.stringify({ method_version: methodVersion(), seed: values.seed, subjects, rows, sensitivity: sensitivityRows }, null, 2)}\n`);
} else if (values.markdown) {
  process.stdout.write(`method ${methodVersion()}; seed ${values.seed}; ${subjects} subjects per cell; coverage of interval_80 in %, at p = ${DEFAULT_PS.join(' / ')}\n\n`);
  if (rows.length > 0) process.stdout.write(`${formatCoverageSummary(rows)}\n\n`);
  if (sensitivityRows.length > 0) process.stdout.write(`Sensitivity (judges that err otherwise than measured):\n\n${formatCoverageSummary(sensitivityRows)}\n`);
} else {
  process.stdout.write(`method ${methodVersion()}; seed ${values.seed}; ${subjects} subjects per cell; ${cells} cells in ${seconds} s\n`);
  process.stdout.write('interval: scores.overall.interval_80; truth: 100 × p (see --help)\n\n');
  if (rows.length > 0) process.stdout.write(`${formatCalibrationTable(rows)}\n`);
  if (sensitivityRows.length > 0) {
    process.stdout.write('\nSensitivity, not part of the calibration grid: judges that put verdicts on the wrong side at another rate than measured\n\n');
    process.stdout.write(`${formatCalibrationTable(sensitivityRows)}\n`);
  }
}
