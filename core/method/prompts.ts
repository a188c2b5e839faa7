import { readFileSync } from 'node:fs';

/**
 * The prompts of the model-backed stages: text files in content/prompts/,
 * hashed into the method version (core/method/version.ts), read once.
 */
export type PromptName = 'extract' | 'criteria' | 'judge-a' | 'judge-b' | 'identify';

const DIR = new URL('../../content/prompts/', import.meta.url);
const cache = new Map<PromptName, string>();

export function prompt(name: PromptName): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`${name}.md`, DIR), 'utf8');
    cache.set(name, text);
  }
  return text;
}
