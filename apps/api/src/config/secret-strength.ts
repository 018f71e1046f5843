import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/** A secret must take at least this many guesses (about 66 bits) by zxcvbn's estimate. */
const MIN_GUESSES_LOG10 = 20;

/**
 * Words an attacker tries first against this service: its own name and vocabulary. zxcvbn counts a
 * secret built from them (`petstore-api-key-2026`) as a few guesses each.
 */
const SERVICE_WORDS = ['petstore', 'pet', 'store', 'api', 'key', 'keys', 'secret', 'cursor', 'metrics', 'token', 'changeme', 'production'];

/** Why a secret is too weak for production, or undefined when it is not. */
export type SecretCheck = (secret: string) => string | undefined;

/**
 * A check for the secrets of one start. `placeholders` are values the project itself publishes
 * (`.env.example`, the development default): refused whatever their strength. The estimate is
 * zxcvbn's (dictionaries, keyboard patterns, sequences, repeats, dates), so a random value passes by
 * its length and `abcdefghijklmnop` or `changeme-changeme-changeme` do not. Its ranked dictionaries
 * (4 MB of heap) are built on the first secret and go with the check: nothing holds them once the
 * configuration is read.
 */
export function secretCheck(placeholders: readonly string[]): SecretCheck {
  let estimator: ZxcvbnFactory | undefined;
  return (secret) => {
    if (placeholders.includes(secret)) return 'is a published placeholder, known to anyone';
    estimator ??= new ZxcvbnFactory({ dictionary: { ...dictionary, service: SERVICE_WORDS }, graphs: adjacencyGraphs });
    const guessesLog10 = estimator.check(secret).guessesLog10;
    if (guessesLog10 >= MIN_GUESSES_LOG10) return undefined;
    return `is too easy to guess (an estimated 10^${guessesLog10.toFixed(1)} guesses; at least 10^${MIN_GUESSES_LOG10} needed)`;
  };
}
