/**
 * scripts/lib/daemon.sh's `plain`, through which kafka.sh and zipkin.sh pass what they echo of the JVM (a log's
 * tail, a tool's complaints): no terminal escape codes and no bare `[0m` remnants reach the terminal.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const DAEMON = join(__dirname, '../../scripts/lib/daemon.sh');

const plain = (text: string) => execFileSync('bash', ['-c', `. ${JSON.stringify(DAEMON)}; plain`], { input: text, encoding: 'utf8' });

it('strips colour and cursor codes, their bare remnants and carriage returns, and keeps the text', () => {
  const jvm =
    '\x1b[0m\x1b[0m[2026-12-02 21:00:00,000] INFO \x1b[32mKafka Server started\x1b[0m (kafka.server.KafkaRaftServer)\r\n[0m[0mdone\x1b[2K\n';
  expect(plain(jvm)).toBe('[2026-12-02 21:00:00,000] INFO Kafka Server started (kafka.server.KafkaRaftServer)\ndone\n');
});

it('passes plain text through unchanged', () => {
  expect(plain('kafka.sh: ready (pid 42)\n[a] list [1, 2]\n')).toBe('kafka.sh: ready (pid 42)\n[a] list [1, 2]\n');
});
