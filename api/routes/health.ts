import type { z } from 'zod';
import type { ProviderConfig } from '../../core/config.ts';
import type { ModelPrice } from '../../core/providers/model/prices.ts';
import { HealthSchema, StatusSchema, type ModelPriceSchema } from '../../core/schemas/resources.ts';
import { serviceStatus } from '../../core/status.ts';
import { methodVersion } from '../../core/method/version.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';

export function healthRoutes(ctx: AppContext) {
  // Fixed at start, like the configuration it is read from.
  const modelPrice = modelPriceStatus(ctx.config.providers.model);
  // Single flight: requests that arrive while a status query is running share
  // its answer instead of queueing queries of their own. Nothing is kept once
  // it settles, so no answer is older than the request it serves.
  let inflight: ReturnType<typeof serviceStatus> | undefined;
  const currentStatus = () => {
    inflight ??= serviceStatus(ctx.pool, ctx.bossSchema, ctx.queues, ctx.config.dailySpendLimitUsd).finally(() => {
      inflight = undefined;
    });
    return inflight;
  };
  return [
    defineRoute({
      method: 'GET',
      url: '/health',
      operationId: 'getHealth',
      summary: 'Liveness',
      description: 'Answers 200 while the process serves HTTP. Says nothing about the database, the queue or anything else of the service\'s state.',
      tags: ['service'],
      auth: false,
      responses: { 200: { description: 'The process is alive.', schema: HealthSchema } },
      handler: async () => ({ status: 'ok' as const }),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/status',
      operationId: 'getStatus',
      summary: 'Method version, queue depth and today\'s spend',
      description: 'The current method version; jobs waiting and running, counted from the queue itself; today\'s (UTC) spend against the daily ceiling; and the price each configured model\'s calls are counted at, with where that price comes from.',
      tags: ['service'],
      auth: true,
      responses: { 200: { description: 'Current status.', schema: StatusSchema } },
      handler: async () => {
        const { queue, spend } = await currentStatus();
        return { method_version: methodVersion(), queue, spend, model_price: modelPrice };
      },
    }),
  ];
}

function priceView(model: string, p: ModelPrice): z.infer<typeof ModelPriceSchema> {
  return { model, input_per_mtok: p.inputPerMTok, output_per_mtok: p.outputPerMTok, currency: p.currency, source: p.source, table_date: p.tableDate };
}

function modelPriceStatus(m: ProviderConfig['model']): z.infer<typeof StatusSchema>['model_price'] {
  if (m.provider === 'none' || !m.name || !m.price) return null;
  const judge = m.judgeName && m.judgeName !== m.name && m.judgePrice ? priceView(m.judgeName, m.judgePrice) : null;
  return { model: priceView(m.name, m.price), judge };
}
