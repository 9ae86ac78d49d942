import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { ServerConfig } from '../config/server.config';
import { bodyStatusLabel } from '../http/sent-status';
import { routeOf } from '../logging/app-logging';
import { driverPool } from '../persistence/sql/driver-pool';
import { GaleraNodes, nodeName } from '../persistence/galera-nodes';
import { galeraNodesOf } from '../persistence/ready-nodes';

// for the gauges a service counts in its database (the library's index exports this file's exports)
export { GAUGE_READ_DEADLINE_MS, GAUGE_REFRESH_MS, PeriodicReading } from './periodic-reading';

type Labels = 'method' | 'route' | 'status' | 'body_status';

/** The `status` label of a request whose client closed the connection before the answer was sent (nginx's 499). */
export const CLIENT_CLOSED_REQUEST = '499';

/**
 * One service's Prometheus metrics, in a registry of its own: the combined server hosts two apps in
 * one process, and prom-client's global registry would mix (and reject) their series. Request
 * metrics are recorded by an Express middleware on 'close' (not an interceptor: each global
 * interceptor costs every request measurably), labelled by the matched route template so ids never become labels.
 * A service adds series of its own by creating them on `registry` (prom-client's `registers: [metrics.registry]`,
 * in a provider that injects Metrics): `{prefix}/metrics` shows them beside these.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<Labels>;
  private readonly duration: Histogram<Labels>;

  constructor(config: ServerConfig, dataSource: DataSource) {
    const registers = [this.registry];
    // the process metrics run timers and observers: only when someone can read them
    if (config.metricsEnabled) collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: "HTTP requests answered, by method, route template, HTTP status and the envelope's body status",
      labelNames: ['method', 'route', 'status', 'body_status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its response, by method, route template, HTTP status and body status',
      labelNames: ['method', 'route', 'status', 'body_status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    if (dataSource.options.type === 'mysql' || dataSource.options.type === 'mariadb') this.poolMetrics(dataSource, registers);
  }

  /**
   * Express middleware: counts and times every response of the app, whatever answered it. 'close' comes after
   * 'finish', or alone when the client left before the answer (an upload it broke off): that is counted as
   * status 499, the client's doing, as proxies count it.
   */
  readonly record = (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    // a response closes once: `on` spares once's wrapper; the time taken directly spares startTimer's two closures
    res.on('close', () => {
      const status = res.writableFinished ? String(res.statusCode) : CLIENT_CLOSED_REQUEST;
      // body_status: business failures come with HTTP 200 (contract.md "The envelope"); a bounded set of values
      const labels = { method: req.method, route: routeOf(req), status, body_status: bodyStatusLabel(res) };
      this.duration.observe(labels, (performance.now() - started) / 1000);
      this.requests.inc(labels);
    });
    next();
  };

  /**
   * The mysql2 pool through its public API: its limit, and counters of its events. How many connections
   * are open, idle or awaited right now is kept in private queues only, so no gauge shows it; a rising
   * `db_pool_requests_queued_total` shows the pool running out.
   */
  private poolMetrics(dataSource: DataSource, registers: Registry[]): void {
    const pool = driverPool(dataSource);
    if (!pool) return; // SQLite, replication (a pool cluster), or not connected
    new Gauge({ name: 'db_pool_connections_max', help: 'Connections the MySQL pool may open (connectionLimit)', registers }).set(
      Number(pool.config.connectionLimit),
    );
    const opened = new Counter({
      name: 'db_pool_connections_opened_total',
      help: 'Connections the MySQL pool opened since the service started',
      registers,
    });
    const queued = new Counter({
      name: 'db_pool_requests_queued_total',
      help: 'Requests that waited for a MySQL pool connection because all were in use',
      registers,
    });
    pool.on('connection', () => opened.inc());
    pool.on('enqueue', () => queued.inc());
    const nodes = galeraNodesOf(pool);
    if (nodes) this.galeraMetrics(nodes, registers);
  }

  /** With DB_HOSTS: each node's readiness as the replica last saw it, and the node its new connections go to. */
  private galeraMetrics(nodes: GaleraNodes, registers: Registry[]): void {
    const names = nodes.nodes.map(nodeName);
    new Gauge({
      name: 'db_node_ready',
      help: 'DB_HOSTS: 1 while the node is ready (Synced, wsrep_ready) by its last probe, else 0',
      labelNames: ['node'],
      registers,
      collect() {
        for (const name of names) this.set({ node: name }, nodes.isReady(name) ? 1 : 0);
      },
    });
    new Gauge({
      name: 'db_node_in_use',
      help: "DB_HOSTS: 1 for the node the replica's new connections go to, 0 for the others",
      labelNames: ['node'],
      registers,
      collect() {
        for (const name of names) this.set({ node: name }, nodes.current() === name ? 1 : 0);
      },
    });
  }
}
