// Units of measure as the figures reader (quantities.ts) converts them: lengths in metres, areas in square
// metres, durations in minutes (a working day a fifth of a working week), money in pounds (pence and cents as
// hundredths); and the unit a table heading names in brackets for the bare cells under it.

export type Unit = 'percent' | 'points' | 'money' | 'count' | 'length' | 'duration' | 'area' | 'temperature';

/** Lengths in metres. */
const LENGTH: Record<string, number> = { km: 1000, kilometre: 1000, kilometres: 1000, kilometer: 1000, kilometers: 1000, metre: 1, metres: 1, meter: 1, meters: 1, mile: 1609.344, miles: 1609.344 };
/** Areas in square metres. */
const AREA: Record<string, number> = { hectare: 1e4, hectares: 1e4, ha: 1e4, acre: 4046.8564224, acres: 4046.8564224, 'km²': 1e6, 'sq km': 1e6, 'square km': 1e6, 'square kilometre': 1e6, 'square kilometres': 1e6, 'square kilometer': 1e6, 'square kilometers': 1e6, 'square mile': 2_589_988.11, 'square miles': 2_589_988.11, 'sq miles': 2_589_988.11 };
const TIME: Record<string, number> = { second: 1 / 60, seconds: 1 / 60, secs: 1 / 60, minute: 1, minutes: 1, mins: 1, min: 1, hour: 60, hours: 60, hrs: 60, day: 1440, days: 1440, week: 10080, weeks: 10080, month: 43_830, months: 43_830, year: 525_960, years: 525_960 };

export function unitOf(raw: string | undefined, currency: string | undefined): { unit: Unit; factor: number } {
  const u = (raw ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
  if (currency) return { unit: 'money', factor: 1 };
  if (!u) return { unit: 'count', factor: 1 };
  // ("percentage points" before "per…": a difference of two shares is not a share.)
  if (u.startsWith('percentage') || u === 'pp' || u.startsWith('point')) return { unit: 'points', factor: 1 };
  if (u === '%' || u.startsWith('per') || u === 'percent') return { unit: 'percent', factor: 1 };
  if (u === 'p' || u === 'pence' || u.startsWith('cent')) return { unit: 'money', factor: 0.01 };
  if (/^(?:pounds?|dollars?|euros?)$/.test(u)) return { unit: 'money', factor: 1 };
  if (LENGTH[u] !== undefined) return { unit: 'length', factor: LENGTH[u]! };
  if (AREA[u] !== undefined) return { unit: 'area', factor: AREA[u]! };
  if (u.startsWith('°') || u.startsWith('degree')) return { unit: 'temperature', factor: 1 };
  // A working or business day is a fifth of a working week: 82 working days are 16.4 weeks.
  const working = /^(?:working|business)\s+days?$/.test(u);
  const t = u.replace(/^(working|business|calendar)\s+/, '');
  if (TIME[t] !== undefined) return { unit: 'duration', factor: working ? TIME.week! / 5 : TIME[t]! };
  return { unit: 'count', factor: 1 };
}


/** The unit of measure a table heading names in brackets, when it is a length, area, duration or temperature. */
export function headerUnit(header: string | undefined): { unit: Unit; factor: number } | null {
  for (const m of (header ?? '').matchAll(/\(([^()]{1,20})\)/g)) {
    const u = unitOf(m[1]!.replace(/^(?:in|average)\s+/i, ''), undefined);
    if (['length', 'area', 'duration', 'temperature'].includes(u.unit)) return u;
  }
  return null;
}

