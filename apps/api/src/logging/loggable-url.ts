import { redactKeys } from '../auth/redact-keys';

/** The API's own query parameters, as the features declare them (`logQueryValues`). */
const KNOWN_PARAMETERS = new Set<string>();
const MAX_PATH = 200;
const MAX_VALUE = 64;
const MAX_PARAMETERS = 8;

/**
 * A request URL as it may go into a log line: a client can put anything in a URL, a key included
 * (`?access_token=…`), and make it 16 KB long. The path is cut at 200 characters; the values of the
 * API's own query parameters are kept (cut at 64), those of any other parameter are replaced by `…`,
 * and at most 8 parameters are written. Anything shaped like a key, and any API_KEYS entry, is redacted
 * wherever it is (a parameter's name, the path, a kept value), before anything is cut.
 */
export function loggableUrl(url: string, apiKeys: readonly string[] = []): string {
  const question = url.indexOf('?');
  const path = cut(redactSecrets(question === -1 ? url : url.slice(0, question), apiKeys), MAX_PATH);
  if (question === -1) return path;
  const pairs = url.slice(question + 1).split('&');
  const shown = pairs.slice(0, MAX_PARAMETERS).map((raw) => {
    const pair = redactSecrets(raw, apiKeys);
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    if (!KNOWN_PARAMETERS.has(name)) return `${cut(name, MAX_VALUE)}=…`;
    return equals === -1 ? name : `${name}=${cut(pair.slice(equals + 1), MAX_VALUE)}`;
  });
  if (pairs.length > MAX_PARAMETERS) shown.push('…');
  return `${path}?${shown.join('&')}`;
}

/**
 * Declares query parameters of a feature's routes whose values a log line may keep: values the API
 * itself defines and checks (a limit, a status, a cursor), never what a client could hide a key in.
 */
export function logQueryValues(names: readonly string[]): void {
  for (const name of names) KNOWN_PARAMETERS.add(name);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** `text` with every `pet_…`-shaped key and every API_KEYS entry redacted. */
export function redactSecrets(text: string, apiKeys: readonly string[]): string {
  let redacted = redactKeys(text);
  for (const key of apiKeys) if (redacted.includes(key)) redacted = redacted.replaceAll(key, '…');
  return redacted;
}
