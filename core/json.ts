/**
 * A response body already serialized as JSON. Stored reports are kept as
 * jsonb and were checked against their schema when they were made; serving
 * one as the text PostgreSQL returns skips parsing it, validating it again
 * and serializing it back, which was most of a stored report's cost. A body
 * served again and again may be held as UTF-8 bytes, encoded once.
 */
export class RawJson {
  readonly body: string | Buffer;
  constructor(body: string | Buffer) {
    this.body = body;
  }

  get text(): string {
    return typeof this.body === 'string' ? this.body : this.body.toString('utf8');
  }
}
