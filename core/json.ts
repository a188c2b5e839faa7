/**
 * A response body already serialized as JSON. Stored reports are kept as
 * jsonb and were checked against their schema when they were made; serving
 * one as the text PostgreSQL returns skips parsing it, validating it again
 * and serializing it back, which was most of a stored report's cost.
 */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}
