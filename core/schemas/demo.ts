import { z } from 'zod';

/** Demo sets and the published measurement (GET /v1/demo, GET /v1/methodology). */

export const MeasurementSchema = z
  .object({
    measured_at: z.string(),
    method_version: z.string(),
    datasets: z.array(
      z.object({
        dataset: z.string(),
        n: z.number().int(),
        coverage: z.number(),
        agreement: z.number().nullable(),
      }),
    ),
    note: z.string(),
  })
  .meta({ id: 'Measurement' });

export const DemoSchema = z
  .object({
    note: z.string().describe('Always says that agreement is not accuracy.'),
    sets: z.array(z.unknown()),
  })
  .meta({ id: 'Demo' });
