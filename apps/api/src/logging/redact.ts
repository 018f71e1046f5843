import { redactKeys } from '../auth/redact-keys';

/** `text` with every `pet_…`-shaped key and every API_KEYS entry written `…`-redacted. */
export function redactSecrets(text: string, apiKeys: readonly string[]): string {
  let redacted = redactKeys(text);
  for (const key of apiKeys) if (redacted.includes(key)) redacted = redacted.replaceAll(key, '…');
  return redacted;
}
