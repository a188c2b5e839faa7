import { tokens } from './attribution.ts';

// Who speaks for an organisation in a document that introduces them: a person the text names in an office
// of the subject ("Ruth Amberley, Group Chief Executive, Calderbrook Insurance Group"; "Calderbrook's
// managing director, Jo Tallis"; "its chief executive, Ada Finch"; "Ruth Amberley, who has run the group
// since 2022"). Their words, quoted or reported, and their turns in a transcript are the organisation's
// (methodology, "Whose words"). Known by the office the text gives them, never by a name list: a person
// introduced in an office of another body speaks for that body, not for the subject.

// Offices that speak for an organisation.
const OFFICE = String.raw`(?i:(?:(?:group|deputy|acting|interim|joint|executive|non-executive|senior)\s+)?(?:chief\s+executive(?:\s+officer)?|managing\s+director|chief\s+(?:financial|operating|technology|technical|commercial|medical|nursing|digital|information|people)\s+officer|chief\s+(?:constable|fire\s+officer|economist|inspector|officer|nurse)|finance\s+director|(?:chair(?:man|woman|person)?)|president|co-?founder|founder|director(?:\s+of\s+[\p{L}-]+(?:\s+(?:and\s+)?[\p{L}-]+){0,2})?|head\s+of\s+[\p{L}-]+(?:\s+(?:and\s+)?[\p{L}-]+){0,2}|spokes(?:person|man|woman)|editor(?:-in-chief)?|chief\s+editor|principal|headteacher|head\s+teacher|vice-chancellor|general\s+manager|manager|general\s+secretary|secretary|owner|ceo|cfo|coo|cto))`;
// A person's name: two or three capitalised words, with an optional title.
const NAME = String.raw`((?:(?:Dr|Mr|Mrs|Ms|Miss|Prof|Professor|Sir|Dame)\.?\s+)?\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){1,2})`;
// What a text calls the organisation it is about once it has named it.
const BODY = 'group|company|firm|business|society|trust|council|service|club|charity|authority|agency|network|operator|airline|institute|paper|newspaper|magazine|station|insurer|bank|lender|supplier|utility|board|force|party|school|university|hospital|practice|partnership|brand|chain|retailer|maker|manufacturer|developer|builder|contractor';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The names (as word lists) of the people a text introduces in an office of the organisation `names` names. */
export function officersOf(text: string, names: readonly string[]): string[][] {
  const org = names.filter((n) => n.trim().length >= 3).map((n) => escape(n.trim()).replace(/\s+/g, '\\s+')).join('|');
  if (!org) return [];
  const S = String.raw`(?i:(?:the\s+)?(?:${org}))`;
  const patterns = [
    // "Ruth Amberley, Group Chief Executive, Calderbrook Insurance Group"; "Ada Finch, chief executive of Harrowgate Water"
    new RegExp(String.raw`${NAME},\s+(?i:the\s+)?(?:[\p{L}-]+\s+){0,2}?${OFFICE}(?:,\s*|\s+(?:of|at|for)\s+)${S}\b`, 'gu'),
    // "Calderbrook chief executive Fenella Ashgrove", "Calderbrook's managing director, Jo Tallis"
    new RegExp(String.raw`\b${S}(?:['’]s)?\s+(?:[\p{L}-]+\s+){0,2}?${OFFICE},?\s+${NAME}`, 'gu'),
    // "its chief executive, Ada Finch", "the group's chief executive Ruth Amberley"
    new RegExp(String.raw`\b(?i:its|the\s+(?:${BODY})['’]s)\s+(?:[\p{L}-]+\s+){0,2}?${OFFICE},?\s+${NAME}`, 'gu'),
    // "Ruth Amberley, who has run the group since 2022"
    new RegExp(String.raw`${NAME},\s+who\s+(?:has\s+|had\s+)?(?:run|runs|ran|led|leads|chaired|chairs|founded|heads|headed|edits|edited)\s+(?:the\s+(?i:${BODY})\b|${S}\b)`, 'gu'),
  ];
  const out: string[][] = [];
  const own = new Set(names.flatMap((n) => tokens(n)));
  const named = new RegExp(S, 'u');
  for (const [k, re] of patterns.entries()) {
    for (const m of text.matchAll(re)) {
      // "its chief executive", "who has run the group": of the organisation named just before, which must be the subject.
      if (k >= 2) {
        const before = text.slice(Math.max(0, m.index - 250), m.index);
        const last = [...before.matchAll(/(?:^|[.!?]\s+|\n)/g)].at(-2)?.index ?? 0;
        if (!named.test(before.slice(last))) continue;
      }
      const name = tokens(m[1]!.replace(/^(?:Dr|Mr|Mrs|Ms|Miss|Prof|Professor|Sir|Dame)\.?\s+/, ''));
      // (A name that shares a word with the organisation's is a programme or a part of it: "Harlby Talks".)
      if (name.some((w) => own.has(w))) continue;
      // (The office word itself is not part of a name: "Chief Executive Ruth Amberley".)
      if (name.length >= 2 && !out.some((n) => n.join(' ') === name.join(' '))) out.push(name);
    }
  }
  return out;
}

/**
 * The subject's matcher with its officers: a text that names one of them by full name, or by surname after a
 * title or alone ("Ms Amberley said", "Amberley added") when no other speaker of the document shares it.
 */
export function withOfficers(isSubject: (t: string) => boolean, officers: readonly string[][], otherSpeakers: readonly string[]): (t: string) => boolean {
  if (officers.length === 0) return isSubject;
  const shared = new Set(otherSpeakers.map((s) => tokens(s).at(-1)));
  const forms = officers.flatMap((o) => (o.length > 1 && !shared.has(o.at(-1)) && o.at(-1)!.length >= 3 ? [o, [o.at(-1)!]] : [o]));
  return (t) => {
    if (isSubject(t)) return true;
    const hay = tokens(t);
    return forms.some((f) => hay.some((_, i) => f.every((w, j) => hay[i + j] === w)));
  };
}
