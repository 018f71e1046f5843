// No imports: tracing and the log load this before NestJS (`@petstore/http-errors/redact-keys`).
const KEY_SHAPED = /pet_[A-Za-z0-9_-]{43}/g;
/** A percent-escape of a character a key is made of, or of `%` itself (double encoding). */
const ESCAPE = /%([0-9A-Fa-f]{2})/g;
const KEY_CHARACTER = /[A-Za-z0-9_%-]/;

/** `text` (a URL to log, trace or echo in an error message) with every key-shaped run written `pet_…`, also behind percent-escapes (`%70et_…`, then decoded). */
export function redactKeys(text: string): string {
  // What holds neither a key's prefix nor an escape has nothing to redact: most URLs, spared the scans.
  if (!text.includes('pet_') && !text.includes('%')) return text;
  const direct = text.replace(KEY_SHAPED, 'pet_…');
  if (!direct.includes('%')) return direct;
  let decoded = direct;
  for (let pass = 0; pass < 3; pass++) {
    const next = decoded.replace(ESCAPE, (escape, hex: string) => {
      const character = String.fromCharCode(parseInt(hex, 16));
      return KEY_CHARACTER.test(character) ? character : escape;
    });
    if (next === decoded) break;
    decoded = next;
  }
  const redacted = decoded.replace(KEY_SHAPED, 'pet_…');
  return redacted === decoded ? direct : redacted;
}
