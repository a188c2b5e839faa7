import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The house's layering (DESIGN.md): core/ stands on nothing of api/, jobs/,
// site/ or scripts/; and the research stages import each other without a
// circle (a judge never imports the module that runs it), so each stage can be
// loaded, read and tested alone.

const CORE = path.resolve(import.meta.dirname, '..');
const RESEARCH = import.meta.dirname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gm)].map((m) => path.resolve(path.dirname(file), m[1]!));

describe('imports', () => {
  it('core/ imports nothing from api/, jobs/, site/ or scripts/', () => {
    const outside = sources(CORE).flatMap((f) => importsOf(f).filter((i) => !i.startsWith(CORE + path.sep)).map((i) => `${path.relative(CORE, f)} → ${path.relative(CORE, i)}`));
    expect(outside).toEqual([]);
  });

  it('core/research has no import circle', () => {
    const files = sources(RESEARCH);
    const graph = new Map(files.map((f) => [f, importsOf(f).filter((i) => i.startsWith(RESEARCH + path.sep))]));
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (f: string, trail: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        circles.push([...trail.slice(trail.indexOf(f)), f].map((p) => path.basename(p)).join(' → '));
        return;
      }
      state.set(f, 'open');
      for (const next of graph.get(f) ?? []) visit(next, [...trail, f]);
      state.set(f, 'done');
    };
    for (const f of files) visit(f, []);
    expect(files.length).toBeGreaterThan(15);
    expect(circles).toEqual([]);
  });
});
