import { stem } from './judge-text.ts';

// The words the wording judge reads as cues (judge-wording.ts): deeds of completion and failure, records and
// comparisons, a part of a whole, a shortfall, a promise broken in the source's own words, advice against.

// Deeds of completion: one reported done bears out a promise of another ("will open", "went live"); others, only their own verb.
export const COMPLETE = new Set(['complete', 'finish', 'open', 'reopen', 'deliver', 'publish', 'release', 'launch', 'remove', 'install', 'receive', 'donate', 'replace', 'introduce', 'build', 'hire', 'connect', 'recruit', 'start', 'begin', 'switch', 'roll', 'unveil', 'implement', 'ship', 'award', 'appoint', 'welcome', 'set', 'establish', 'create', 'form', 'live'].map(stem));
export const FAIL = new Set(['miss', 'scrap', 'abandon', 'cancel', 'deny', 'fail', 'shelve', 'withdraw', 'reject', 'break', 'broke', 'broken'].map(stem));
export const NON_ACTION = new Set(['be', 'have', 'do', 'get', 'expect', 'predict', 'forecast', 'pledge', 'promise', 'commit', 'say', 'think', 'believe', 'aim', 'plan', 'intend', 'remain', 'advise', 'recommend', 'urge', 'know', 'likely', 'understand', 'see'].map(stem));
const SUPERLATIVE = String.raw`(?:most|highest|largest|biggest|best|greatest|lowest|fewest|smallest|worst)`;
export const RECORD = new RegExp(String.raw`\b${SUPERLATIVE}\b[^.;]{0,60}\b(?:ever|in (?:our|its|their) (?:history|\d+-year history)|on record|of all time|since records began)\b|\brecord (?:high|low|number|total|year)\b`, 'i');
export const NOT_RECORD = new RegExp(String.raw`\b${SUPERLATIVE}\b[^.;]{0,40}\bsince\s+(?:(?:19|20)\d\d|records)\b(?!\s+began)|\b(?:second|third|fourth)[\s-]+${SUPERLATIVE}\b`, 'i');
export const EVERY_PERIOD = /\b(?:every|each)\s+(?:single\s+)?(?:year|quarter|month|week|season)\b|\bin each of the\b/i;
export const EVERY_PERIOD_NEGATED = /\b(?:not|never)\b[^,;.]{0,30}\b(?:every|each)\b/i;
export const ANY_PERIOD = /\b(?:a\s+single|any)\s+(?:year|quarter|month|week|season|day)\b/i;
// "most of the institute's forecasts", "the majority of pupils": a share of many, which one case reported in words does not confirm.
export const SHARE_OF = /\b(?:most|the\s+majority|many|nearly\s+all|almost\s+all|the\s+bulk)\s+(?:of\s+)?(?:the|our|its|their|these|those)?\s*(?:[\p{L}'’-]+\s+){0,2}[\p{L}'’-]+s\b/iu;
// A claim that compares ("more … than in any year", "the only one", "the first to"): a sentence that reports the
// deed without the comparison does not confirm it.
export const COMPARISON = /\b(?:more|less|fewer|higher|lower|better|worse|bigger|larger|smaller|faster|slower|cheaper|earlier|later)\b[^.;]{0,60}\bthan\b|\bthe\s+only\b|\bno\s+other\b|\bthe\s+first\s+(?:[\p{L}-]+\s+){0,3}to\s+\p{L}|\bunlike\b/iu;
export const EXCLUSIVE = /\bthe\s+only\b|\bno\s+other\b|\bthe\s+first\s+(?:[\p{L}-]+\s+){0,3}to\s+\p{L}/iu;
export const NOT_EXCLUSIVE = /\bnot\s+(?:alone|the\s+only|the\s+first)\b/i;
export const EXCEPT = /\b(?:except|apart from|other than|with the exception of|bar one|save for)\b/i;
export const WRONG = /\b(incorrect|inaccurate|untrue|not true|wrong|misleading|unfounded|no evidence|not supported|yet to|no sign of)\b/i;
// A source that could not confirm a claim neither confirms nor contradicts it.
export const UNCONFIRMED = /\b(unable to (?:confirm|verify)|could not (?:confirm|verify)|cannot (?:confirm|verify)|can(?:'|no)t (?:confirm|verify)|has not (?:confirmed|verified)|not (?:been )?(?:independently )?(?:confirmed|verified))\b/i;
export const SHORTFALL = /\b(fell short|falls short|fall short|short of|only partly|partly|partially|in part|only some|only half)\b/i;
export const FIRST_PERSON = /\b(we|i|our|my|us)\b/i;
export const MOSTLY = /\b(mostly|largely|almost all|nearly all|broadly|in the main)\b/i;
// A claim about every one of a kind, and a sentence that reports a part of them ("11 of the 40", "only some").
export const EVERY_ONE = /\b(?:every|each|all)\s+(?!year|quarter|month|week|day|season|time|of\s+(?:this|that|it)\b)[\p{L}\d]/iu;
// ("24 of the home's 52 care staff"; "only for 20 of its depots".)
export const SOME_OF = /\b\d[\d,]*\s+(?:[\p{L}-]+\s+){0,2}?(?:of|out\s+of)\s+(?:the\s+|its\s+|their\s+)?(?:[\p{L}-]+['’]s\s+)?\d[\d,]*\b|\b(?:only|just)\s+(?:(?:for|in|at|to|by)\s+)?(?:some|a\s+few|a\s+minority|\d[\d,]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half)\b|\bsome\s+of\s+(?:the|its|their)\b/iu;
// "…began their courses in hotels, despite the vice-chancellor's public guarantee that every…": what happened
// against the promise, in the source's own words.
export const DESPITE_PROMISE = /\b(?:despite|in spite of|contrary to|notwithstanding)\s+(?:[\p{L}'’-]+\s+){0,4}?(?:promise|pledge|guarantee|commitment|assurance|undertaking)s?\b/iu;
// A commitment that a state will last ("will stay open until", "will remain free through", "will keep … until").
export const CONTINUING = /\b(?:stay|stays|remain|remains|keep|keeps|continue|continues|hold|holds)\b[^.;]{0,60}\b(?:until|till|through|throughout|to the end of|for the rest of)\b/i;
export const ADVISE_AGAINST = /\b(advise against|advises against|not recommended|no longer recommend(ed|s)?|should not be used)\b/i;
