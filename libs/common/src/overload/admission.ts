import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Gauge } from 'prom-client';
import { bearerToken } from '../auth/bearer-token';
import { AdmissionConfig } from '../config/admission.config';
import { DatabaseConfig } from '../config/database.config';
import { failure } from '../http/envelope';
import { localize } from '../http/error-translator';
import { noteEnvelope } from '../http/sent-status';
import { parseQueryString } from '../http/query-params';
import { Message, renderAll } from '../i18n/message';
import { Metrics } from '../metrics/metrics';
import { AdmissionQueue, Entrant, Place, RefusalReason } from './admission-queue';
import { busyText } from './busy';
import { KnownCallers } from './known-callers';
import { RequestTicket, setTicket } from './request-ticket';

/** The lanes of callers the replica cannot name a tenant for; each is one share, admitted within a per-second budget. */
const UNVERIFIED = 'unverified credential';
const ANONYMOUS = 'no credential';
/** A refused request whose unread body is larger than this closes its connection rather than have Node read it away. */
const DRAINED_BODY_MAX = 64 * 1024;
const NO_OVERRIDES = new Map<string, ReadonlyMap<string, string>>();

/**
 * The credential a request presents, read as its guard reads it: its Bearer token (any other Authorization header
 * counts as a credential not verified), else a `token` query parameter (device calls) as the app's query parser
 * gives it; the query is parsed only when it names a token.
 */
function credentialOf(req: IncomingMessage): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization !== undefined) return bearerToken(req) ?? authorization;
  const url = req.url ?? '';
  const query = url.indexOf('?');
  if (query < 0 || !url.includes('token=', query)) return undefined;
  const token = parseQueryString(url.slice(query + 1)).token;
  return typeof token === 'string' && token ? token : undefined;
}

/**
 * One request at the door: admitted (the app goes on with it), or refused. It is the request's ticket for the
 * database side too, open from admission to the end of its response.
 */
class RequestAtDoor implements Entrant, RequestTicket {
  place?: Place;
  /** The async context the request arrived in, for an admission that comes later from another request's end. */
  private context?: AsyncResource;
  private admitted = false;
  private ended = false;
  private goneListeners?: (() => void)[];
  gone = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly next: NextFunction,
    private readonly door: Admission,
  ) {}

  get open(): boolean {
    return this.admitted && !this.ended;
  }

  enter(lane: string, perSecond?: number): void {
    this.res.on('close', () => {
      this.ended = true;
      this.gone = !this.res.writableFinished;
      this.place?.leave();
      if (this.gone) for (const listener of this.goneListeners?.splice(0) ?? []) listener();
    });
    this.place = this.door.queue.enter(lane, this, perSecond);
    if (this.place.state === 'waiting') this.context = new AsyncResource('admission');
  }

  whenGone(listener: () => void): void {
    if (this.gone) listener();
    else if (!this.ended) (this.goneListeners ??= []).push(listener);
  }

  leaveInFlightLimit(): void {
    // an admitted place frees its slot once; the 'close' of the response then finds it done
    this.place?.leave();
  }

  admit(): void {
    this.admitted = true;
    setTicket(this.req, this);
    if (this.context) this.context.runInAsyncScope(this.next);
    else this.next();
  }

  refuse(reason: RefusalReason): void {
    this.door.refuse(this.req, this.res, reason);
  }
}

/**
 * Admission before work (docs/decisions.md "Overload"): the app's first middleware. Probes pass at once; every other
 * request is sorted by the tenant of its credential, if a guard of this replica verified it already, and admitted by
 * the AdmissionQueue before anything reads its body, verifies its token or opens a transaction. A refusal is a
 * 503 with Retry-After and the busy envelope, counted in `http_requests_refused_total` and summed up in one warn
 * line per second instead of a request line each: a crowd must not cost what serving it would.
 */
@Injectable()
export class Admission implements OnModuleDestroy {
  readonly queue: AdmissionQueue;
  private readonly logger = new Logger('Admission');
  private readonly refusals: Counter<'reason'>;
  private readonly unreported: Record<RefusalReason, number> = { busy: 0, queue_full: 0 };
  private reporter?: NodeJS.Timeout;
  private readonly retryAfter: string;
  /** The refusal's text, its parts (translated per request) and its English, made once. */
  private readonly busy: readonly Message[];
  private readonly busyError: string;
  private readonly perSecond: number;

  constructor(
    config: AdmissionConfig,
    database: DatabaseConfig,
    metrics: Metrics,
    private readonly callers: KnownCallers,
  ) {
    this.queue = new AdmissionQueue({
      limit: config.inFlightLimit(database.dbUrl ? database.dbPoolSize : undefined),
      waitMs: config.waitMs,
      waitingMax: config.waitingMax,
    });
    this.retryAfter = String(config.retryAfterSeconds);
    this.busy = [busyText(config.retryAfterSeconds)];
    this.busyError = renderAll(this.busy);
    this.perSecond = config.unverifiedPerSecond;
    const registers = [metrics.registry];
    const queue = this.queue;
    new Gauge({ name: 'admission_limit', help: 'Requests this replica serves at once (ADMISSION_MAX_IN_FLIGHT)', registers }).set(
      queue.limit,
    );
    new Gauge({
      name: 'http_requests_in_flight',
      help: 'Requests admitted and not yet answered: the per-replica load to scale on',
      registers,
      collect() {
        this.set(queue.inFlight);
      },
    });
    new Gauge({
      name: 'http_requests_waiting',
      help: 'Requests waiting for admission',
      registers,
      collect() {
        this.set(queue.waiting);
      },
    });
    this.refusals = new Counter({
      name: 'http_requests_refused_total',
      help: 'Requests refused for load before any work (503 + Retry-After): busy after waiting, or queue_full at once',
      labelNames: ['reason'],
      registers,
    });
  }

  /** The middleware, for an app whose probes are `probePaths` (answered ahead of admission). */
  gate(probePaths: readonly string[]): (req: Request, res: Response, next: NextFunction) => void {
    const probes = new Set(probePaths);
    return (req, res, next) => {
      const url = req.url;
      const query = url.indexOf('?');
      if (probes.has(query < 0 ? url : url.slice(0, query))) return next();
      const credential = credentialOf(req);
      const tenant = credential === undefined ? undefined : this.callers.tenantOf(credential);
      const door = new RequestAtDoor(req, res, next, this);
      if (tenant !== undefined) door.enter(tenant);
      else door.enter(credential === undefined ? ANONYMOUS : UNVERIFIED, this.perSecond);
    };
  }

  refuse(req: IncomingMessage, res: ServerResponse, reason: RefusalReason): void {
    this.refusals.inc({ reason });
    this.unreported[reason]++;
    this.reportEachSecond();
    if (res.headersSent || res.destroyed) return;
    const url = req.url ?? '/';
    const path = url.split('?')[0];
    const envelope = failure(503, this.busyError, path, localize(this.busy, req.headers['accept-language'], NO_OVERRIDES));
    noteEnvelope(res, envelope);
    const body = JSON.stringify(envelope);
    const length = Number(req.headers['content-length'] ?? 0);
    res.writeHead(503, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Retry-After': this.retryAfter,
      'Cache-Control': 'no-store',
      ...((length > DRAINED_BODY_MAX || req.headers['transfer-encoding']) && { Connection: 'close' }),
    });
    res.end(body);
  }

  onModuleDestroy(): void {
    this.queue.close();
    clearTimeout(this.reporter);
    this.report();
  }

  /** One warn line per second with refusals in it, never one per refusal. */
  private reportEachSecond(): void {
    if (this.reporter) return;
    this.reporter = setTimeout(() => {
      this.reporter = undefined;
      this.report();
    }, 1000);
    this.reporter.unref();
  }

  private report(): void {
    const { busy, queue_full } = this.unreported;
    if (!busy && !queue_full) return;
    this.unreported.busy = this.unreported.queue_full = 0;
    this.logger.warn(
      `refused ${busy + queue_full} requests for load in the last second (${busy} after waiting, ${queue_full} with the waiting room full); ` +
        `${this.queue.inFlight} of ${this.queue.limit} in flight, ${this.queue.waiting} waiting`,
    );
  }
}
