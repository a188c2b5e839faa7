import type { FastifyRequest } from 'fastify';
import { NotBuiltError } from '../../core/errors.ts';
import { checkJobAdmission } from '../../core/limits/job-admission.ts';
import type { AppContext } from '../context.ts';

/**
 * Handler of a route whose request is declared and validated but whose logic
 * a later version builds: it answers 501 with a problem body, never an
 * invented result. A route that would start a job still applies the job gate
 * first (spending ceiling 503, daily job limit 429), so that the limits hold
 * from the first version; only looking, since no job is started.
 */
export function notBuilt(what: string, ctx?: AppContext) {
  return async (req: FastifyRequest): Promise<never> => {
    if (ctx && req.apiKey) {
      await checkJobAdmission(ctx.pool, req.apiKey.id, { dailyJobLimit: ctx.config.dailyJobLimit, dailySpendLimitUsd: ctx.config.dailySpendLimitUsd });
    }
    throw new NotBuiltError(what);
  };
}
