import { randomInt } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Identifiers: 21 random characters over [0-9A-Za-z] (contract.md "Records"), uniform via crypto.randomInt. */
export function newId(): string {
  let id = '';
  for (let i = 0; i < 21; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

/** What a client may send as an identifier on save: the same alphabet, 1 to 32 characters. */
export const CLIENT_ID_PATTERN = /^[0-9A-Za-z]{1,32}$/;
