// npm run bench:delivery: e-mails per second that one dispatcher (the built main-service alone, on
// MariaDB) hands to a local SMTP sink (smtp-server, in this process, no TLS, no AUTH).
//
//   DB_URL                 server to use (a fresh database `<name>_<time>` is created and dropped)   default mysql://root@127.0.0.1:3306/bench
//   BENCH_EMAILS           PENDING e-mails inserted at once (one multi-row INSERT) and timed until all are SENT   default 2000
//   BENCH_WARMUP_EMAILS    e-mails sent first, not timed (connections, JIT)                          default 100
//   BENCH_RECIPIENTS       recipients (To) per e-mail                                                default 1
//   BENCH_SINK_DELAY_MS    the sink holds each message this long before accepting it (a slower server)   default 0
//   BENCH_JSON=1           also print the result as one JSON line
//
// The clock runs from the INSERT to the moment the database shows every e-mail SENT (polled every 50 ms);
// the sink must have received each e-mail exactly once, or the run fails.
import { execFileSync, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { SMTPServer } from 'smtp-server';
import { CLK_TCK, cpuTicks, freePort, sleep } from './lib/processes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BASE_URL = process.env.DB_URL ?? 'mysql://root@127.0.0.1:3306/bench';
const EMAILS = Number(process.env.BENCH_EMAILS ?? 2000);
const WARMUP = Number(process.env.BENCH_WARMUP_EMAILS ?? 100);
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 1);
const SINK_DELAY_MS = Number(process.env.BENCH_SINK_DELAY_MS ?? 0);
const TENANT = 'bench';
/** The sink: counts each e-mail by its Subject header (one per e-mail). */
async function startSink() {
  const seen = new Map();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    closeTimeout: 100,
    size: 1024 * 1024,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk) => {
        if (head.length < 8192) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const subject = /^Subject: (.*)$/m.exec(head)?.[1]?.trim() ?? '';
        seen.set(subject, (seen.get(subject) ?? 0) + 1);
        if (SINK_DELAY_MS) setTimeout(() => callback(), SINK_DELAY_MS);
        else callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.server.address().port, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function insertEmails(db, prefix, count) {
  const now = Date.now();
  const to = Array.from({ length: RECIPIENTS }, (_, i) => `user${i}@example.com`).join(',');
  for (let start = 0; start < count; start += 1000) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 1000); i++) {
      rows.push([
        TENANT,
        1,
        'bench',
        now,
        'bench',
        now,
        0,
        `${prefix}${i}`,
        'relay',
        'noreply@example.com',
        to,
        `${prefix} ${i}`,
        `Hello, this is e-mail ${i} of the delivery benchmark.`,
        'PENDING',
        0,
      ]);
    }
    await db.query(
      'INSERT INTO message_email (tenant_id, revision, created_username, created_time, last_modified_username, last_modified_time, delete_time, email_id, email_config_id, from_address, to_addresses, subject, content, status, retry_count) VALUES ?',
      [rows],
    );
  }
}

async function waitAllSent(db, prefix, count) {
  for (;;) {
    const [[{ sent, failed }]] = await db.query(
      "SELECT SUM(status = 'SENT') AS sent, SUM(status = 'FAILED') AS failed FROM message_email WHERE tenant_id = ? AND email_id LIKE ?",
      [TENANT, `${prefix}%`],
    );
    if (Number(failed) > 0) throw new Error(`${failed} e-mails FAILED`);
    if (Number(sent) === count) return;
    await sleep(50);
  }
}

async function main() {
  const url = new URL(BASE_URL.replace(/^mariadb:/, 'mysql:'));
  const dbName = `${url.pathname.slice(1)}_${Date.now().toString(36)}`;
  const connection = {
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
  const admin = await mysql.createConnection(connection);
  await admin.query(`CREATE DATABASE \`${dbName}\``);
  const dbUrl = `mysql://${url.username}${url.password ? `:${url.password}` : ''}@${url.host}/${dbName}`;
  const port = await freePort();
  const env = {
    ...process.env,
    DB_URL: dbUrl,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DISPATCH_ENABLED: 'true',
    DISPATCH_POLL_MS: '100',
    DELIVERY_ALLOWED_HOSTS: '127.0.0.1',
  };
  delete env.KAFKA_BROKERS;
  const sink = await startSink();
  let server;
  try {
    execFileSync(process.execPath, [join(ROOT, 'dist/apps/main-service/src/migrate.js')], { env, stdio: 'ignore' });
    const db = await mysql.createConnection({ ...connection, database: dbName });
    const now = Date.now();
    await db.query(
      'INSERT INTO message_email_config (tenant_id, revision, created_username, created_time, last_modified_username, last_modified_time, delete_time, email_config_id, name, enabled, host, port, secure, from_address) VALUES (?)',
      [[TENANT, 1, 'bench', now, 'bench', now, 0, 'relay', 'sink', 1, '127.0.0.1', sink.port, 0, 'noreply@example.com']],
    );
    server = spawn(process.execPath, [join(ROOT, 'dist/apps/main-service/src/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    for (let i = 0; ; i++) {
      if ((await fetch(`http://127.0.0.1:${port}/main-service/health/ready`).catch(() => null))?.ok) break;
      if (i > 120) throw new Error('main-service did not start');
      await sleep(500);
    }

    if (WARMUP > 0) {
      await insertEmails(db, 'warm', WARMUP);
      await waitAllSent(db, 'warm', WARMUP);
    }
    const cpuBefore = cpuTicks(server.pid);
    const started = performance.now();
    await insertEmails(db, 'bench', EMAILS);
    await waitAllSent(db, 'bench', EMAILS);
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = ((cpuTicks(server.pid) - cpuBefore) * 1000) / CLK_TCK;

    const received = [...sink.seen.entries()].filter(([subject]) => subject.startsWith('bench '));
    const twice = received.filter(([, n]) => n !== 1);
    if (received.length !== EMAILS || twice.length)
      throw new Error(`sink got ${received.length} distinct of ${EMAILS} e-mails, ${twice.length} more than once`);
    const result = {
      emails: EMAILS,
      recipients: RECIPIENTS,
      seconds: Number(seconds.toFixed(2)),
      emailsPerSecond: Math.round(EMAILS / seconds),
      serviceCpuMsPerEmail: Number((cpuMs / EMAILS).toFixed(2)),
    };
    console.log(
      `${EMAILS} e-mails (${RECIPIENTS} recipient(s) each) PENDING -> SENT through one dispatcher in ${result.seconds} s: ${result.emailsPerSecond} e-mails/s; main-service CPU ${result.serviceCpuMsPerEmail} ms per e-mail`,
    );
    console.log(`node ${process.version}; every e-mail arrived at the sink exactly once`);
    if (process.env.BENCH_JSON === '1') console.log(JSON.stringify(result));
    await db.end();
  } finally {
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.on('exit', r));
    }
    await sink.close();
    await admin.query(`DROP DATABASE \`${dbName}\``);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
