import { redactKeys } from '@petstore/http-errors/redact-keys';

/** The API's own query parameters, as the features declare them (`logQueryValues`). */
const KNOWN_PARAMETERS = new Set<string>();
const MAX_PATH = 200;
const MAX_VALUE = 64;
const MAX_PARAMETERS = 8;

/** A URL fit for a log line: keys and API_KEYS entries redacted before anything is cut, path ≤ 200, ≤ 8 parameters, only ours with values. */
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

/** Declares query parameters whose values a log line may keep: values the API itself checks (a limit, a cursor). */
export function logQueryValues(names: readonly string[]): void {
  for (const name of names) KNOWN_PARAMETERS.add(name);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function redactSecrets(text: string, apiKeys: readonly string[]): string {
  return apiKeys.reduce((redacted, key) => redacted.replaceAll(key, '…'), redactKeys(text));
}
