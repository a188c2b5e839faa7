// The cues classify.ts types a claim by: words of a level, of the body itself, of a deed reported against a promise,
// of things a body runs, of the economy and of contests. Invented examples throughout.

// Verbs of a level changing: "bills will rise" forecasts a figure; "the stand will open" commits to a deed.
export const LEVEL_VERBS = new Set(['rise', 'fall', 'increase', 'decrease', 'grow', 'drop', 'decline', 'climb', 'peak', 'slow', 'ease', 'recover', 'double', 'halve', 'exceed', 'top', 'reach', 'remain', 'hit', 'improve', 'worsen', 'shrink', 'slip', 'soar', 'surge', 'plunge', 'fluctuate', 'average', 'go', 'come', 'be']);
export const BODY_WORDS = 'company|firm|group|business|trust|council|authority|network|charity|club|paper|newspaper|outlet|institute|association|service|operator|supplier|utility|organisation|board|hospital|university|centre|agency|bank|retailer|chain|airline|force|brigade|government|regulator|ministry|department|league|government';
// Words by which a body refers to itself ("the company expects", "the trust would recruit").
export const SELF_REFERENCE = /\b(we|our|ours|us|i|my)\b|\bthe (company|firm|group|business|trust|council|authority|network|charity|club|paper|newspaper|outlet|institute|association|service|operator|supplier|utility|organisation|board|hospital|university|centre|agency|bank|retailer|chain|airline|force|brigade)\b/i;

// A deed reported against a promise, target or guidance given before ("two more than we promised", "as we promised",
// "beating our pledge of 120", "the 1,000 new places we promised", "ahead of the deadline we set ourselves", "in
// line with the guidance we set out"): a statement of fact about it, not the promise.
export const KEPT_OR_NOT = /\b(?:as|than)\s+(?:we|i|it|they)\s+(?:had\s+)?(?:promised|pledged|committed|forecast|predicted)\b|\b(?:we|i)\s+(?:had\s+)?(?:promised|pledged)\b(?!\s+(?:to|that)\b)|\b(?:beating|beat|missing|missed|meeting|met|keeping|kept|exceeding|exceeded|past|short\s+of|ahead\s+of|in\s+line\s+with)\s+(?:our|my|its|the|their)\s+(?:[\p{L}\d,-]+\s+){0,2}?(?:promise|pledge|target|commitment|deadline|guidance|forecast)s?\b/iu;

// Nouns for people, who do deeds as bodies do ("the Harwick chief executive", "Velmark riders").
export const PERSON_NOUNS = 'chief|executive|director|manager|spokesperson|spokesman|spokeswoman|chair|chairman|chairwoman|minister|secretary|officer|boss|founder|owner|leader|head|team|staff|players?|riders?|members?|councillors?|residents?|people|fans|supporters|drivers|workers|nurses|doctors|teachers';
// Things a body runs, named by a word after the name ("the Lyon route", "the Ashby clinic") or ending it ("Fenwright
// Hall", "the Halden Galleries"): what is done to them is the body's deed.
export const THING_NOUN = /(?:route|line|service|services|link|hall|gallery|galleries|clinic|depot|works|plant|site|studios?|chair|lift|aviary|enclosure|building|hostel|programme|program|edition|bulletin|show|fund|scheme|network|app|store|shop|branch|ward|unit|centre|center|terminal|vessel|ship|ferry|train|trains|bus|buses|fleet|project|development|exhibition|collection|course|race|festival|card|tariff|product|range|model|brand)\b/;
export const THING_WORD = /\s(?:Hall|Gallery|Galleries|Court|House|Velodrome|Theatre|Studios?|Aviary|Pavilion|Arena|Museum)$/;

// An outlook for the economy, a market or an industry as a whole.
export const WIDE = /\b(national|nationwide|industry-wide|sector-wide|market-wide|economy|economic|inflation|interest rates?|gdp|unemployment|jobless|turnout|the (?:market|sector|industry|country|region)|across the (?:market|sector|industry|country))\b/i;
// An outcome of a contest, which no one can promise: "will win the league", "will be promoted", "will finish in the top three".
export const CONTEST = /\b(?:will|shall|would)\s+(?:not\s+|never\s+|definitely\s+|surely\s+)?(?:win|lose|be\s+promoted|be\s+relegated|go\s+down|stay\s+up|qualify|finish\s+(?:in|above|below|top|bottom)|top\s+the)\b/i;

// A future in the passive: "will be demolished", "will be held on", "will be frozen" (not a state: "will be higher").
export const PASSIVE_DEED = /\b(?:will|shall|would)\s+(?:all\s+|also\s+|then\s+|now\s+|each\s+)?be\s+(?:[a-z]+ly\s+)?(?:[a-z]{3,}ed|built|held|paid|made|done|run|shut|cut|set|given|taken|sold|kept|brought|begun|frozen|chosen|sent|spent|written|rebuilt|rerun|overhauled)\b(?!\s+(?:to|that)\b)/i;
