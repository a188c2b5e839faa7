import nlp from 'compromise';

type View = ReturnType<typeof nlp>;

/**
 * compromise's full parse (tokenise and tag) of a text, remembered: the stages
 * read the same sentence many times over (extract, classify, criteria, and
 * again when a document serves as evidence for claim after claim), and tagging
 * is most of the pipeline's time. Only reads go through shared views: the one
 * change any stage makes is compute('root'), which adds the same roots however
 * often it runs. (compromise-dates, which tags dates, parses afresh.)
 */
const MAX = 5000;

/** A bounded memo of parses (oldest out first). */
function parser(): (text: string) => View {
  const cache = new Map<string, View>();
  return (text) => {
    const hit = cache.get(text);
    if (hit) return hit;
    if (cache.size >= MAX) cache.delete(cache.keys().next().value as string);
    const view = nlp(text);
    cache.set(text, view);
    return view;
  };
}

export const parse: (text: string) => View = parser();

/**
 * The same parse, kept apart and never given roots: with roots computed, compromise matches a choice of
 * words ("(frankly|honestly)", "(am|are)") against the roots ("frank", "is") and misses the words themselves.
 */
export const parsePlain: (text: string) => View = parser();

// A unit's abbreviation after a figure ends the sentence when a capital follows ("grew by 310 km in 2024, to more
// than 2,500 km. Cyclist deaths fell"): compromise reads "km." as an abbreviation that never ends one. (Names of
// companies, "Co." and "Ltd.", and "St." stay abbreviations.)
const UNIT_STOP = /(?<=\d\s?(?:km|kg|m|mi|ft|lb|oz|hrs?|mins?|secs?|cm|mm|ml|l|p|pa)\.)\s+(?=["“‘]?\p{Lu})/gu;

/** The sentences of a text, as compromise's tokenizer splits them (the same splits as a full parse, without tagging), and after a unit's abbreviation. */
export function sentenceTexts(text: string): string[] {
  return (nlp.tokenize(text).sentences().out('array') as string[]).flatMap((s) => s.split(UNIT_STOP));
}
