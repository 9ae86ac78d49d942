/** Log lines and metrics as the outside world sees them: JSON lines on a stream, Prometheus text. */
import type { Json } from './json';
export class LogCapture {
  readonly raw: string[] = [];

  write(line: string): void {
    this.raw.push(line);
  }

  get lines(): Json[] {
    return this.raw.map((l) => JSON.parse(l));
  }

  /** The access-log line of the request with this id. */
  requestLine(requestId: string): Json | undefined {
    return this.lines.find((l) => l.requestId === requestId && l.route !== undefined);
  }

  text(): string {
    return this.raw.join('');
  }
}

/** The value of one series of a Prometheus text exposition (0 when absent). */
export function metricValue(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}
