import { Injectable } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIPv6, LookupFunction } from 'node:net';
import { CODE_MAX } from '../fields/message-values';
import { AddressGuard, hostOfUrl } from './address-guard';
import { withinDeadline } from './attempt-deadline';
import { connectionFailure, DeliveryFailure, systemCode } from './delivery-failure';
import { SmsConfigWithSecret } from './delivery-records';
import { TemplateParams } from './render-template';
import { MainServiceConfig } from '../../main-service.config';

/** The JSON body of the `http` provider. */
export interface SmsRequest {
  phoneNumbers: string[];
  content: string;
  signName: string | null;
  templateCode: string | null;
  params: TemplateParams;
}

/** Bound of the answer read (a JSON object with an id); the whole call is bounded by the attempt's deadline. */
const RESPONSE_MAX_BYTES = 64 * 1024;
/** A provider's message id: a token of the characters ids use (Aliyun's `900619746936498440^0`), not text. */
const PROVIDER_MESSAGE_ID = new RegExp(`^[A-Za-z0-9][A-Za-z0-9._:^@+=/-]{0,${CODE_MAX * 2 - 1}}$`);

/** What a request's signature covers (docs/messages.md "SMS request signature"). */
export interface SignedParts {
  method: string;
  /** The request target as sent: path and query. */
  path: string;
  /** Epoch milliseconds, as sent in X-Timestamp. */
  timestamp: string;
  nonce: string;
  body: string;
}

/**
 * The hex HMAC-SHA256 under the account's secret of method, path, timestamp, nonce and body, one per line:
 * a provider that checks the timestamp's freshness and refuses a nonce it has seen can't be sent a request twice.
 */
export function signSmsRequest(parts: SignedParts, accessKeySecret: string): string {
  const material = [parts.method, parts.path, parts.timestamp, parts.nonce, parts.body].join('\n');
  return createHmac('sha256', accessKeySecret).update(material, 'utf8').digest('hex');
}

/**
 * Provider `http`: a signed JSON POST to the configuration's endpoint; the answer's `messageId` is the
 * provider's id of the message. The connection goes to the address the guard checked (the endpoint's name
 * stays in the Host header and, over https, in SNI and the certificate check); redirects are not followed.
 */
@Injectable()
export class SmsSender {
  constructor(
    private readonly guard: AddressGuard,
    private readonly config: MainServiceConfig,
  ) {}

  /** Refuses (for good) a configuration this sender cannot use, before any package unit is taken. */
  checkUsable(config: SmsConfigWithSecret): asserts config is SmsConfigWithSecret & { endpoint: string } {
    if (config.provider !== 'http') throw new DeliveryFailure(`unsupported SMS provider ${config.provider}`, true);
    if (!config.endpoint) throw new DeliveryFailure(`SMS configuration ${config.smsConfigId} has no endpoint`, true);
    if (!config.accessKeySecret) throw new DeliveryFailure(`SMS configuration ${config.smsConfigId} has no access key secret`, true);
  }

  /** One attempt: the lookup and the whole call (the answer read to its end) within DISPATCH_ATTEMPT_TIMEOUT_MS. */
  async send(config: SmsConfigWithSecret, request: SmsRequest): Promise<string> {
    this.checkUsable(config);
    return withinDeadline(this.config.dispatchAttemptTimeoutMs, (signal) => this.call(config, request, signal));
  }

  private async call(config: SmsConfigWithSecret & { endpoint: string }, request: SmsRequest, signal: AbortSignal): Promise<string> {
    const url = new URL(config.endpoint);
    const address = await this.guard.pin(hostOfUrl(url));
    const body = JSON.stringify(request);
    const signed: SignedParts = {
      method: 'POST',
      path: `${url.pathname}${url.search}`,
      timestamp: String(Date.now()),
      nonce: randomBytes(16).toString('hex'),
      body,
    };
    const headers = {
      'Content-Type': 'application/json',
      'X-Access-Key-Id': config.accessKeyId,
      'X-Timestamp': signed.timestamp,
      'X-Nonce': signed.nonce,
      'X-Signature': signSmsRequest(signed, config.accessKeySecret),
    };
    const { status, text } = await post(url, address, body, headers, signal);
    if (status < 200 || status > 299) throw DeliveryFailure.of('REJECTED', `HTTP ${status}`);
    return providerMessageId(text);
  }
}

/** The answer's `messageId` if it is an id; anything else is a protocol failure (nothing of the answer is kept). */
export function providerMessageId(text: string): string {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw DeliveryFailure.of('PROTOCOL', 'HTTP answer not JSON');
  }
  const id = (answer as { messageId?: unknown } | null)?.messageId;
  const value = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : id;
  if (typeof value !== 'string' || !PROVIDER_MESSAGE_ID.test(value))
    throw DeliveryFailure.of('PROTOCOL', 'HTTP answer without a valid messageId');
  return value;
}

/** One POST to `url` over a connection to `address`, destroyed when `signal` aborts; the answer's status and (bounded) text. */
function post(
  url: URL,
  address: string,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<{ status: number; text: string }> {
  // every lookup of the endpoint's name answers the checked address: no second DNS answer is ever used
  const pinned: LookupFunction = (_host, options, callback) => {
    const family = isIPv6(address) ? 6 : 4;
    if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const options: RequestOptions = {
    method: 'POST',
    hostname: hostOfUrl(url),
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
    lookup: pinned,
    signal,
  };
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => reject(httpFailure(error));
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= RESPONSE_MAX_BYTES) chunks.push(chunk);
        else res.destroy(DeliveryFailure.of('PROTOCOL', `HTTP answer larger than ${RESPONSE_MAX_BYTES} bytes`));
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
      // an answer cut short (the provider closed, or the deadline aborted it) ends without 'end'
      res.on('close', () => res.complete || fail(Object.assign(new Error('answer cut short'), { code: 'ECONNRESET' })));
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** A failed exchange as a failure category with the local error code, never a remote text. */
export function httpFailure(error: unknown): DeliveryFailure {
  if (error instanceof DeliveryFailure) return error;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'AbortError') return DeliveryFailure.of('TIMEOUT');
  return connectionFailure(systemCode(error));
}
