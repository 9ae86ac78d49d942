import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { OpenResponses } from './open-responses';

const response = (): ServerResponse => new ServerResponse(new IncomingMessage(new Socket()));

describe('OpenResponses', () => {
  it('holds each response until it closes', () => {
    const open = new OpenResponses();
    const [a, b, c] = [response(), response(), response()];
    for (const res of [a, b, c]) open.add(res);
    expect([...open]).toEqual([a, b, c]);
    b.emit('close');
    expect([...open]).toEqual([a, c]);
    a.emit('close');
    c.emit('close');
    expect([...open]).toEqual([]);
  });

  it('reuses the slots of closed responses, so it grows only to the most open at once', () => {
    const open = new OpenResponses();
    const live: ServerResponse[] = [];
    for (let i = 0; i < 10_000; i++) {
      const res = response();
      open.add(res);
      live.push(res);
      if (live.length === 3) live.shift()!.emit('close');
    }
    expect(open.capacity).toBe(3);
    expect(new Set(open)).toEqual(new Set(live));
  });
});
