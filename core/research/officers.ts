import { tokens } from './attribution.ts';

/**
 * A pattern matched whatever the case of its letters, its letters written out as classes ("[cC][eE][oO]"), in a
 * group of its own. (Not an inline case modifier: V8, on Node 24, matched a pattern holding one differently once
 * it had compiled it from its interpreted form, so officers found when a pack was read alone went missing after
 * other packs had been read in the same process; officers.test.ts keeps the research stages free of them.)
 * Escapes (`\s`, `\p{L}`) and character classes are kept as they are: their letters are not the text's.
 */
export function ci(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const esc = /^\\(?:[pPu]\{[^}]*\}|u[\da-fA-F]{4}|x[\da-fA-F]{2}|c[A-Za-z]|[\s\S])/.exec(pattern.slice(i))![0];
      out += esc;
      i += esc.length - 1;
    } else if (c === '[') {
      let j = i + 1;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      out += pattern.slice(i, j + 1);
      i = j;
    } else if (pattern.startsWith('(?<', i) && !/^\(\?<[=!]/.test(pattern.slice(i))) {
      const j = pattern.indexOf('>', i);
      out += pattern.slice(i, j + 1);
      i = j;
    } else {
      const [lo, up] = [c.toLowerCase(), c.toUpperCase()];
      out += lo !== up && lo.length === 1 && up.length === 1 ? `[${lo}${up}]` : c;
    }
  }
  return `(?:${out})`;
}

// Who speaks for an organisation in a document that introduces them: a person the text names in an office
// of the subject ("Ruth Amberley, Group Chief Executive, Calderbrook Insurance Group"; "Calderbrook's
// managing director, Jo Tallis"; "its chief executive, Ada Finch"; "Ruth Amberley, who has run the group
// since 2022"). Their words, quoted or reported, and their turns in a transcript are the organisation's
// (methodology, "Whose words"). Known by the office the text gives them, never by a name list: a person
// introduced in an office of another body speaks for that body, not for the subject.

// Offices that speak for an organisation.
const OFFICE = ci(String.raw`(?:(?:group|deputy|acting|interim|joint|executive|non-executive|senior)\s+)?(?:chief\s+executive(?:\s+officer)?|managing\s+director|performance\s+director|(?:news|programme|programmes|artistic|technical|medical|research|policy|communications)\s+director|chief\s+(?:financial|operating|technology|technical|commercial|medical|nursing|digital|information|people)\s+officer|chief\s+(?:constable|fire\s+officer|economist|inspector|officer|nurse)|finance\s+director|(?:chair(?:man|woman|person)?)|president|co-?founder|founder|director(?:\s+of\s+[\p{L}-]+(?:\s+(?:and\s+)?[\p{L}-]+){0,2})?|head\s+of\s+[\p{L}-]+(?:\s+(?:and\s+)?[\p{L}-]+){0,2}|spokes(?:person|man|woman)|editor(?:-in-chief)?|chief\s+editor|principal|headteacher|head\s+teacher|vice-chancellor|general\s+manager|manager|general\s+secretary|secretary|owner|ceo|cfo|coo|cto)`);
// A person's name: two or three capitalised words, with an optional title; NAME1 also a surname alone.
const NAME = String.raw`((?:(?:Dr|Mr|Mrs|Ms|Miss|Prof|Professor|Sir|Dame)\.?\s+)?\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){1,2})`;
const NAME1 = String.raw`((?:(?:Dr|Mr|Mrs|Ms|Miss|Prof|Professor|Sir|Dame)\.?\s+)?\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,2})`;
// What a text calls the organisation it is about once it has named it.
const BODY = 'group|company|firm|business|society|trust|council|service|club|charity|authority|agency|network|operator|airline|institute|paper|newspaper|magazine|station|insurer|bank|lender|supplier|utility|board|force|party|school|university|hospital|practice|partnership|brand|chain|retailer|maker|manufacturer|developer|builder|contractor|federation|association|union|cooperative|co-operative|commission|foundation|centre|museum|broadcaster|channel|port|airport|college|academy';

const BODY_KINDS = BODY.split('|');

// Kinds any organisation may be called, whatever its name says.
const GENERIC = /^(?:company|firm|business|group|operator|brand|organisation|organization)$/;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An organisation's names as a pattern, their words, and the kinds of body its name says it is ("the council"
 * for "Brackenvale Arts Council").
 */
function organisation(names: readonly string[]): { org: string; own: Set<string>; ownBody: string } {
  const own = new Set(names.flatMap((n) => tokens(n)));
  return {
    org: names.filter((n) => n.trim().length >= 3).map((n) => escape(n.trim()).replace(/\s+/g, '\\s+')).join('|'),
    own,
    ownBody: BODY_KINDS.filter((b) => own.has(b)).join('|'),
  };
}

/**
 * The first word of an organisation's name, as a text calls it for short ("Moorcroft's chief inspector" for
 * Moorcroft Animal Rescue): when it is a word of its own (four letters or more, capitalised) and the text names
 * no other body that begins with it ("Westmarch Radio" beside "Westmarch County Council").
 */
function shortNames(text: string, names: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    const parts = name.trim().split(/\s+/);
    const first = parts[0]!;
    if (parts.length < 2 || first.length < 4 || !/^\p{Lu}\p{Ll}+$/u.test(first) || BODY_KINDS.includes(first.toLowerCase())) continue;
    const longer = new RegExp(String.raw`\b${escape(first)}\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*)`, 'gu');
    const others = [...text.matchAll(longer)].filter((m) => !names.some((n) => `${first} ${m[1]}`.startsWith(n) || n.startsWith(`${first} ${m[1]}`)));
    if (others.length === 0 && !out.includes(first)) out.push(first);
  }
  return out;
}

/** The names (as word lists) of the people a text introduces in an office of the organisation `names` names. */
export function officersOf(text: string, names: readonly string[]): string[][] {
  const { org, own, ownBody } = organisation([...names, ...shortNames(text, names)]);
  if (!org) return [];
  const S = ci(String.raw`(?:the\s+)?(?:${org})`);
  // The kinds of body the subject's name says it is, in the singular ("resort" for "Glenmarra Mountain Resorts").
  const kindWords = [...new Set(names.flatMap((n) => tokens(n)).filter((w) => w.length >= 4 && (BODY_KINDS.includes(w) || BODY_KINDS.includes(w.replace(/s$/, '')) || /(?:resorts?|parks?|zoos?|mills?|works|halls?)$/.test(w))).map((w) => w.replace(/s$/, '')))].join('|');
  const THE = String.raw`(?:its|the\s+${ci(BODY)}['’]s|${S}['’]s)`;
  const ITEM = String.raw`${NAME},\s+${ci(String.raw`(?:the|an?)\s+`)}?(?:[\p{L}-]+\s+){0,2}?${OFFICE}`;
  // Each pattern, whether it lists several people, whether it refers back to a body named before ("its", "the
  // group's", "who has run the group"), and whether the subject must have been named before it.
  type Pattern = { re: RegExp; list?: boolean; back?: boolean; after?: boolean; first?: boolean; sole?: boolean };
  const patterns: Pattern[] = [
    // "Ruth Amberley, Group Chief Executive, Calderbrook Insurance Group"; "Ada Finch, chief executive of Harrowgate
    // Water"; "Witnesses: Marit Sandell, chief executive, and Ruben Halloway, performance director, Velmark Cycling Federation"
    { re: new RegExp(String.raw`${ITEM}(?:,?\s+(?:and\s+)?${ITEM.replace(/\(\(\?:/, '(?:(?:')})*(?:,\s*|\s+(?:of|at|for)\s+)${S}\b`, 'gu'), list: true },
    // "Calderbrook chief executive Fenella Ashgrove", "Calderbrook's managing director, Jo Tallis"
    { re: new RegExp(String.raw`\b${S}(?:['’]s)?\s+(?:[\p{L}-]+\s+){0,2}?${OFFICE},?\s+${NAME}`, 'gu') },
    // "Resort spokesperson Kirsty Lamont", "Trust director Alun Petch": an office of the subject's own kind, named by a
    // word of its name ("resort" for "Glenmarra Mountain Resorts"), in a text that has named the subject.
    ...(kindWords ? [{ re: new RegExp(String.raw`\b${ci(kindWords)}\s+${OFFICE},?\s+${NAME}`, 'gu'), after: true }] : []),
    // "its chief executive, Ada Finch", "the group's chief executive Ruth Amberley"
    { re: new RegExp(String.raw`\b${ci(String.raw`its|the\s+(?:${BODY})['’]s`)}\s+(?:[\p{L}-]+\s+){0,2}?${OFFICE},?\s+${NAME}`, 'gu'), back: true },
    // "Priya Lomond, the council's director of funding"
    { re: new RegExp(String.raw`${NAME1},\s+${THE}\s+(?:[\p{L}-]+\s+){0,2}?${OFFICE}\b`, 'gu'), back: true },
    // "Delia Farrant has run Swiftmarch Parcels since 2022", "Ada Finch founded Orrin Foods in 1998", "Priya Hollis
    // became chief executive of Moorcroft Animal Rescue in 2021"
    { re: new RegExp(String.raw`${NAME1}\s+(?:has\s+|had\s+)?(?:run|runs|ran|led|leads|heads|headed|chairs|chaired|founded|co-founded|set\s+up|became\s+(?:the\s+)?(?:[\p{L}-]+\s+){0,2}?${OFFICE}\s+(?:of|at))\s+${S}\b`, 'gu') },
    // "When Marguerite Oyelaran agreed to meet the Courier …, she had led the Vellmore Tramlink Extension Company for
    // three years": a pronoun in the sentence that names the person, taking the subject as what they run.
    { re: new RegExp(String.raw`${NAME}(?=[^.!?\n]{0,300}?\b${ci('(?:he|she)')}\s+(?:has\s+|had\s+)?(?:run|runs|ran|led|leads|headed|heads|chaired|chairs|founded|co-founded|set\s+up)\s+${S}\b)`, 'gu'), first: true },
    // "Idris Vantongeren does not like being called a founder. Corvane Pay, the payments firm he set up in 2016, …";
    // "Gareth Pellow does not look like a man presiding over a retreat. The finance director of Marlowby Pharmacy
    // bounds into the room": the next sentence says what the person the sentence before opened with is to the subject.
    { re: new RegExp(String.raw`${NAME}(?=[^.!?\n]*[.!?]\s+(?:${S},\s+the\s+(?:[\p{L}-]+\s+){0,3}?${ci(BODY)}\s+${ci('(?:he|she)')}\s+(?:has\s+|had\s+)?(?:set\s+up|founded|co-founded|started|built|runs|run|leads|led)\b|${ci('the')}\s+(?:[\p{L}-]+\s+){0,2}?${OFFICE}\s+(?:of|at)\s+${S}\b))`, 'gu'), first: true },
    // "Helen Castellane has heard the complaints. … “Our wait is 11 minutes,” the Marlowby Pharmacy chief executive said":
    // an office of the subject speaking, after a person named at a sentence's start and no one else named since.
    { re: new RegExp(String.raw`${NAME}(?=([^\n]{0,400}?\n?[^\n]{0,300}?)\b${ci('the')}\s+${S}\s+(?:[\p{L}-]+\s+){0,2}?${OFFICE}\s+(?:said|says|told|added|explained|admitted|insisted|argued)\b)`, 'gu'), first: true, sole: true },
    // "I met Imogen Carraway (chief executive since 2019, a former veterinary nurse)": an office in brackets after the
    // name, in a text about the subject.
    { re: new RegExp(String.raw`${NAME}\s+\((?:the\s+|its\s+)?(?:[\p{L}-]+\s+){0,2}?${OFFICE}\b`, 'gu'), after: true },
    // "Priya Haldane, the managing director, told The Wavelength": an office of no body named, in a text about the
    // subject (named before it), is the subject's.
    { re: new RegExp(String.raw`${NAME1},\s+the\s+(?:[\p{L}-]+\s+){0,2}?${OFFICE}(?=[,.;]|\s+(?!(?:of|at|for|to|with|in)\b)[\p{Ll}])`, 'gu'), after: true },
    // "said Mara Okonjo, chief executive.": an office with no article and no body, closing the sentence, likewise.
    { re: new RegExp(String.raw`${NAME1},\s+(?:[\p{L}-]+\s+)?${OFFICE}(?=[.;]["”’]?(?:\s|$))`, 'gu'), after: true },
    // "Ruth Amberley, who has run the group since 2022", "Marchbank, who took over the council in 2022"
    { re: new RegExp(String.raw`${NAME1},\s+who\s+(?:has\s+|had\s+)?(?:(?:run|runs|ran|led|leads|chaired|chairs|founded|heads|headed|edits|edited|took\s+over|joined)|(?:became|becomes|is|was|been|serves\s+as|served\s+as)\s+(?:the\s+)?(?:[\p{L}-]+\s+){0,2}?${OFFICE}\s+(?:of|at)(?:\s+the)?)\s+(?:the\s+${ci(BODY)}\b|${S}\b)`, 'gu'), back: true },
  ];
  const out: string[][] = [];
  const named = new RegExp(S, 'u');
  const add = (raw: string, at: number) => {
    // (A sentence's opening word is not a name's: "When Marguerite Oyelaran agreed…".)
    const bare = raw.replace(/^(?:When|After|As|While|Since|Before|Although|But|And|So|Then)\s+(?=\p{Lu})/u, '').replace(/^(?:Dr|Mr|Mrs|Ms|Miss|Prof|Professor|Sir|Dame)\.?\s+/, '').trim();
    let name = tokens(bare);
    // (A name that shares a word with the organisation's is a programme or a part of it: "Harlby Talks".)
    if (name.length === 0 || name.some((w) => own.has(w))) return;
    // A surname alone is the person the text named in full before ("Odile Marchbank … Marchbank, who took over";
    // "Priya Hollis's desk … Ms Hollis, who became chief executive").
    if (name.length === 1) {
      const full = new RegExp(String.raw`\b\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?\s+${escape(bare)}\b`, 'u').exec(text.slice(0, at));
      if (!full) return;
      name = tokens(full[0]);
    }
    if (!out.some((n) => n.join(' ') === name.join(' '))) out.push(name);
  };
  // "Attending for the authority: Dorcas Penhallow, chief executive, and Captain Idris Vane, harbour master";
  // "Appearing for the trust: …"; "Item 5: evidence from Fernleigh Care Group. Attending: …". Whoever a hearing
  // lists as appearing for the organisation speaks for it, whatever their office.
  for (const m of text.matchAll(new RegExp(String.raw`\b(?:attending|appearing|present|giving\s+evidence|witnesses?)(?:\s+(?:for|on\s+behalf\s+of)\s+((?:the\s+)?[\p{L}'’ -]+?))?:\s+([^.
]+)`, 'giu'))) {
    const before = text.slice(0, m.index);
    const sentenceBefore = before.slice(Math.max(0, before.length - 300));
    const forWhom = m[1]?.trim();
    const ok = forWhom
      ? named.test(forWhom) || new RegExp(String.raw`^the\s+(?:${[ownBody, 'company|firm|business|group|operator|organisation|organization'].filter(Boolean).join('|')})$`, 'i').test(forWhom)
      : named.test(sentenceBefore);
    if (!ok) continue;
    for (const item of m[2]!.matchAll(new RegExp(String.raw`(?:^|,\s+(?:and\s+)?|\s+and\s+)((?:(?:Captain|Capt|Cllr|Councillor|Dr|Mr|Mrs|Ms|Miss|Prof|Professor|Sir|Dame)\.?\s+)?\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){1,2})(?=,)`, 'gu'))) {
      add(item[1]!.replace(/^(?:Captain|Capt|Cllr|Councillor)\.?\s+/, ''), m.index + m[0].indexOf(item[1]!));
    }
  }
  for (const { re, list, back, after, first, sole } of patterns) {
    for (const m of text.matchAll(re)) {
      // (Whom no other person's name comes near, before or after: two capitalised words that are not the subject's.)
      const others = (t: string) => [...t.matchAll(/\p{Lu}[\p{L}'’-]+\s+\p{Lu}[\p{L}'’-]+/gu)].some((n) => !named.test(t.slice(n.index, n.index + 80)));
      if (sole && (others(m[2]!) || others(text.slice(Math.max(0, m.index - 400), m.index)))) continue;
      // (The person a sentence opens with: "When Marguerite Oyelaran agreed…", not someone named later in it.)
      if (first && !/(?:^|[.!?]["”’]?\s+|\n)(?:(?:when|after|as|while|since|before|although)\s+)?$/i.test(text.slice(Math.max(0, m.index - 12), m.index))) continue;
      // "its chief executive", "who has run the group": of the organisation named before. The subject's own kind
      // ("the council" for "Brackenvale Arts Council") may have been named anywhere before; another kind of
      // body, or "its", only in the same sentence or the one before.
      // ("who became chief executive of Moorcroft Animal Rescue" names it itself.)
      if (back && /\b(?:its|the\s+[\p{L}]+['’]s|who\s)/iu.test(m[0]) && !named.test(m[0].replace(/^[^,]*,\s+/, ''))) {
        const kind = new RegExp(String.raw`\bthe\s+(${BODY})\b`, 'i').exec(m[0])?.[1]?.toLowerCase();
        const before = text.slice(0, m.index);
        const recent = before.slice(Math.max(0, before.length - 250));
        const last = [...recent.matchAll(/(?:^|[.!?]\s+|\n)/g)].at(-2)?.index ?? 0;
        // (A kind that is neither the subject's own nor one any organisation may be called is another body's.)
        const ok = kind && ownBody && new RegExp(`^(?:${ownBody})$`).test(kind) ? named.test(before) : (!kind || GENERIC.test(kind)) && named.test(recent.slice(last));
        if (!ok) continue;
      }
      if (after && !named.test(text.slice(0, m.index))) continue;
      if (list) {
        // Every person of the list: each "Name, office" before the organisation.
        for (const item of m[0].matchAll(new RegExp(ITEM, 'gu'))) add(item[1]!, m.index + item.index);
      } else add(m[1]!, m.index);
    }
  }
  return out;
}

/**
 * The officers the documents of one research run introduce, each once: a person a release names as the subject's
 * director speaks for it in an interview that does not say so again ("Ostrander said…").
 */
export function runOfficers(texts: readonly string[], names: readonly string[]): string[][] {
  const out: string[][] = [];
  for (const text of texts) for (const o of officersOf(text, names)) if (!out.some((n) => n.join(' ') === o.join(' '))) out.push(o);
  return out;
}

/**
 * The subject's matcher with its officers: a text that names one of them by full name, or by surname after a
 * title or alone ("Ms Amberley said", "Amberley added") when no other speaker of the document shares it; and
 * one that speaks of an office of the subject itself ("the federation's performance director said",
 * "Calderbrook's spokeswoman said"), when the subject's name says what kind of body it is.
 */
export function withOfficers(isSubject: (t: string) => boolean, officers: readonly string[][], otherSpeakers: readonly string[], names: readonly string[] = []): (t: string) => boolean {
  const { org, ownBody } = organisation(names);
  const role = org ? new RegExp(String.raw`\b(?:${ci(String.raw`the\s+(?:${ownBody || '(?!)'})['’]s`)}|${ci(String.raw`(?:the\s+)?(?:${org})`)}(?:['’]s)?)\s+(?:[\p{L}-]+\s+){0,2}?${OFFICE}\b`, 'u') : null;
  // "The company said…", "the trust told councillors": the body a document that quotes no one else speaks of, by a
  // noun any organisation may be called or the kind its name says it is.
  const body = org && otherSpeakers.length === 0 ? new RegExp(String.raw`^\s*${ci(String.raw`the\s+(?:company|firm|group|business|operator|organisation|organization${ownBody ? `|${ownBody}` : ''})`)}\s*$`, 'u') : null;
  if (officers.length === 0 && !role && !body) return isSubject;
  const shared = new Set(otherSpeakers.map((s) => tokens(s).at(-1)));
  // (A first name alone, as a broadcaster calls its guests, "Kirsty told us", when no other speaker or officer has it.)
  const firsts = officers.map((o) => o[0]);
  const sharedFirst = new Set([...otherSpeakers.map((s) => tokens(s)[0]), ...firsts.filter((f, i) => firsts.indexOf(f) !== i)]);
  const forms = officers.flatMap((o) => [
    o,
    ...(o.length > 1 && !shared.has(o.at(-1)) && o.at(-1)!.length >= 3 ? [[o.at(-1)!]] : []),
    ...(o.length > 1 && !sharedFirst.has(o[0]) && o[0]!.length >= 4 ? [[o[0]!]] : []),
  ]);
  return (t) => {
    if (isSubject(t)) return true;
    if (role?.test(t) || body?.test(t)) return true;
    const hay = tokens(t);
    return forms.some((f) => hay.some((_, i) => f.every((w, j) => hay[i + j] === w)));
  };
}
