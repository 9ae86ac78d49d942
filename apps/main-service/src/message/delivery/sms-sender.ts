import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { CODE_MAX } from '../fields/message-values';
import { DeliveryFailure, failureText } from './delivery-failure';
import { SmsConfigWithSecret } from './delivery-records';
import { isUnreachable } from './delivery-unreachable';
import { TemplateParams } from './render-template';

/** The JSON body of the `http` provider. */
export interface SmsRequest {
  phoneNumbers: string[];
  content: string;
  signName: string | null;
  templateCode: string | null;
  params: TemplateParams;
}

/** Bounds of one provider call: the whole exchange, and the answer read (a JSON object with an id). */
const REQUEST_TIMEOUT_MS = 10_000;
const RESPONSE_MAX_BYTES = 64 * 1024;
const PROVIDER_MESSAGE_ID_MAX = CODE_MAX * 2;

/** The HMAC-SHA256 (hex) of the exact request body under the account's secret: header `X-Signature`. */
export function signSmsBody(body: string, accessKeySecret: string): string {
  return createHmac('sha256', accessKeySecret).update(body, 'utf8').digest('hex');
}

/**
 * Provider `http`: a signed JSON POST to the configuration's endpoint; the answer's `messageId` is the
 * provider's id of the message. Redirects are refused (the signature and key id must not travel on).
 */
@Injectable()
export class SmsSender {
  /** Refuses (for good) a configuration this sender cannot use, before any package unit is taken. */
  checkUsable(config: SmsConfigWithSecret): asserts config is SmsConfigWithSecret & { endpoint: string } {
    if (config.provider !== 'http') throw new DeliveryFailure(`unsupported SMS provider ${config.provider}`, true);
    if (!config.endpoint) throw new DeliveryFailure(`SMS configuration ${config.smsConfigId} has no endpoint`, true);
  }

  async send(config: SmsConfigWithSecret, request: SmsRequest): Promise<string> {
    this.checkUsable(config);
    const body = JSON.stringify(request);
    let answer: unknown;
    try {
      const response = await fetch(config.endpoint, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Access-Key-Id': config.accessKeyId,
          'X-Signature': signSmsBody(body, config.accessKeySecret),
        },
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await readBounded(response);
      if (!response.ok) throw new DeliveryFailure(`SMS provider answered HTTP ${response.status}`);
      answer = JSON.parse(text);
    } catch (error) {
      throw error instanceof DeliveryFailure
        ? error
        : new DeliveryFailure(
            `SMS provider call failed: ${failureText(causeOf(error), [config.accessKeySecret])}`,
            false,
            isUnreachable(error),
          );
    }
    const id = (answer as { messageId?: unknown } | null)?.messageId;
    if ((typeof id !== 'string' && typeof id !== 'number') || String(id).trim() === '')
      throw new DeliveryFailure('SMS provider answer has no messageId');
    return String(id).trim().slice(0, PROVIDER_MESSAGE_ID_MAX);
  }
}

/** fetch reports network failures as "fetch failed" with the reason in `cause`. */
function causeOf(error: unknown): unknown {
  const cause = (error as { cause?: unknown })?.cause;
  return cause instanceof Error ? cause : error;
}

/** The response text, refused beyond RESPONSE_MAX_BYTES (a provider answer is a small JSON object). */
async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > RESPONSE_MAX_BYTES) {
      await reader.cancel();
      throw new DeliveryFailure(`SMS provider answer larger than ${RESPONSE_MAX_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
