/**
 * How deeply a JSON body may nest: objects and arrays inside one another, the
 * body itself being level 1. Every body of the interface needs 4 levels at
 * most; 64 leaves room for MCP's JSON-RPC messages and tool arguments. The
 * limit exists because code that walks a parsed value (validation, echoing the
 * input in a 422, serializing an answer) recurses once a level: 10,000 levels
 * overflow the stack. Documented in the README and the OpenAPI description.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The offset of the `[` or `{` that opens level max + 1 of `text`, or -1 when
 * it nests no deeper than max. One pass over the raw text, no recursion and no
 * parse, so it runs before JSON.parse builds anything: brackets inside strings
 * (escapes included) are text, not nesting. Malformed text is left for the
 * parser to describe.
 */
export function excessiveNestingAt(text: string, max = MAX_JSON_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++; // the escaped character, whatever it is, is text
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return i;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return -1;
}
