import { dictionary } from '@zxcvbn-ts/language-common';
import { validationFailed } from '../lib/errors.ts';

/**
 * NIST SP 800-63B: no composition rules, but refuse passwords found in lists of breached and common
 * ones. zxcvbn-ts's list holds ~49 000 of the most used passwords, ranked; compared case-insensitively
 * because "Password1" is as guessable as "password1".
 */
const COMMON_PASSWORDS = new Set(dictionary['passwords-common'].map((entry) => entry.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

/**
 * Throws the 400 validation answer on `field` when the password is one of the common ones, worded with
 * the label of `label` (the reset's `password` is what its page calls "Nuova password").
 */
export function assertUncommonPassword(password: string, field: string, label?: string): void {
  if (!isCommonPassword(password)) return;
  throw validationFailed([{ field, message: 'commonPassword', ...(label ? { label } : {}) }]);
}
