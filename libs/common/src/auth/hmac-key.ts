import { createSecretKey, KeyObject } from 'node:crypto';

/**
 * An HMAC key for jsonwebtoken, made once at start-up. Given a string, jsonwebtoken builds a KeyObject
 * on every sign/verify and first tries the string as a public key, which throws: about 0.5 ms of CPU
 * per request (measured, docs/performance.md), against ~15 µs with the key object.
 */
export const hmacKey = (secret: string): KeyObject => createSecretKey(Buffer.from(secret, 'utf8'));
