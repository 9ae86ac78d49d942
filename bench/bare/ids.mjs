import { randomInt } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 21 random characters over [0-9A-Za-z], like the services' record ids. */
export function newId() {
  let id = '';
  for (let i = 0; i < 21; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}
