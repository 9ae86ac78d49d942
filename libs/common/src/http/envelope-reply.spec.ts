/**
 * The one request path: Nest's own route handler, the body read by the handler's body parameter once the guards
 * admitted the caller (body-param.ts), the envelope put around the handler's result by the adapter's reply
 * (server.ts), and failures answered by the exception filter.
 */
import { Controller, Get, Header, HttpCode, INestApplication, Injectable, Post, Res, StreamableFile, UseGuards } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { IsString } from 'class-validator';
import type { Response } from 'express';
import { of } from 'rxjs';
import request from 'supertest';
import { RequestBody } from './body-param';
import { WithExtra } from './envelope';
import { EnvelopeExceptionFilter } from './exception.filter';
import { BODY_LIMIT } from './request-body';
import { bodyStatusOf } from './sent-status';
import { AppHttpAdapter } from './server';

/** A guard that refuses every request. */
@Injectable()
class Closed {
  canActivate() {
    return false;
  }
}

class LampBody {
  @IsString() colour!: string;
}

/** The body status each answer noted, by path. */
const noted = new Map<string, number | undefined>();

@Controller('lamp')
class LampController {
  @Get('value')
  value() {
    return { colour: 'red' };
  }

  @Get('nothing')
  nothing() {
    return undefined;
  }

  @Get('extra')
  extra() {
    return new WithExtra([1], { total: 1 });
  }

  @Post('echo')
  echo(@RequestBody() body: unknown) {
    return Promise.resolve(body);
  }

  @Post('small')
  small(@RequestBody() body: unknown) {
    return body;
  }

  @Post('bodiless')
  bodiless() {
    return 'unread';
  }

  @Get('stream')
  stream() {
    return of(1, 2);
  }

  @Get('file')
  file() {
    return new StreamableFile(Buffer.from('lamp file'), { type: 'text/plain' });
  }

  @Post('made')
  @HttpCode(201)
  @Header('X-Lamp', 'lit')
  made() {
    return 'made';
  }

  @Get('own')
  own(@Res() res: Response) {
    res.status(202).json({ own: true });
  }

  @Get('through')
  through(@Res({ passthrough: true }) res: Response) {
    res.setHeader('X-Through', 'yes');
    return 'through';
  }

  @Post('closed')
  @UseGuards(Closed)
  closed(@RequestBody() body: unknown) {
    return body;
  }

  @Post('checked')
  checked(@RequestBody(LampBody) body: LampBody) {
    return body instanceof LampBody ? body.colour : 'not a LampBody';
  }
}
Reflect.defineMetadata(BODY_LIMIT, '10b', LampController.prototype.small);

describe('the request path', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [LampController],
      providers: [{ provide: APP_FILTER, useClass: EnvelopeExceptionFilter }],
    }).compile();
    app = moduleRef.createNestApplication(new AppHttpAdapter(), { bodyParser: false, logger: false });
    app.use((req: { originalUrl: string }, res: Response, next: () => void) => {
      res.on('finish', () => noted.set(req.originalUrl.split('?')[0], bodyStatusOf(res)));
      next();
    });
    await app.init();
  });

  afterAll(() => app?.close());

  /** What a client sees of an answer: status, envelope without its timestamp (which must be a number). */
  async function answer(method: 'get' | 'post', path: string, body?: string) {
    const call = request(app.getHttpServer())[method](path);
    const res = body === undefined ? await call : await call.set('Content-Type', 'application/json').send(body);
    const { timestamp, ...envelope } = (res.body ?? {}) as { timestamp?: number } & Record<string, unknown>;
    expect(typeof timestamp).toBe('number');
    return { status: res.status, envelope };
  }

  const ok = (data: unknown, extraData = {}) => ({ status: 200, error: null, localizedError: null, path: null, extraData, data });

  it("puts the handler's result, whatever it is, in the envelope once", async () => {
    expect(await answer('get', '/lamp/value')).toEqual({ status: 200, envelope: ok({ colour: 'red' }) });
    expect(await answer('get', '/lamp/nothing')).toEqual({ status: 200, envelope: ok(null) });
    expect(await answer('get', '/lamp/extra')).toEqual({ status: 200, envelope: ok([1], { total: 1 }) });
    expect(await answer('get', '/lamp/stream')).toEqual({ status: 200, envelope: ok(2) });
    expect(await answer('post', '/lamp/echo', '{"colour":"blue","sizes":[1,2]}')).toEqual({
      status: 201,
      envelope: ok({ colour: 'blue', sizes: [1, 2] }),
    });
    expect(noted.get('/lamp/value')).toBe(200);
  });

  it("keeps the route's status and headers, and what a handler sets beside its value", async () => {
    const made = await request(app.getHttpServer()).post('/lamp/made');
    expect([made.status, made.headers['x-lamp'], made.body.data]).toEqual([201, 'lit', 'made']);
    const through = await request(app.getHttpServer()).get('/lamp/through');
    expect([through.status, through.headers['x-through'], through.body.data]).toEqual([200, 'yes', 'through']);
  });

  it('sends a StreamableFile and an answer the handler writes itself as they are, with no envelope noted', async () => {
    const file = await request(app.getHttpServer()).get('/lamp/file');
    expect([file.status, file.headers['content-type'], file.text]).toEqual([200, 'text/plain', 'lamp file']);
    expect(noted.get('/lamp/file')).toBeUndefined();
    const own = await request(app.getHttpServer()).get('/lamp/own');
    expect([own.status, own.body]).toEqual([202, { own: true }]);
    expect(noted.get('/lamp/own')).toBeUndefined();
  });

  it("reads the body within the route's own limit, and answers its failures with the filter's envelope", async () => {
    const tooLarge = await answer('post', '/lamp/small', '{"colour":"far too long for ten bytes"}');
    expect([tooLarge.status, tooLarge.envelope.status]).toEqual([413, 413]);
    const malformed = await answer('post', '/lamp/echo', '{"colour":');
    expect([malformed.status, malformed.envelope.status]).toEqual([200, 1004]);
    expect(noted.get('/lamp/echo')).toBe(1004);
  });

  it('reads no body for a route without a body parameter, nor for a caller the guards refuse', async () => {
    expect(await answer('post', '/lamp/bodiless', '{"colour":')).toEqual({ status: 201, envelope: ok('unread') });
    const refused = await answer('post', '/lamp/closed', '{"colour":');
    expect([refused.status, refused.envelope.status]).toEqual([403, 403]);
  });

  it('validates the body against its class: an instance of it, or the refusal of class-validator', async () => {
    expect(await answer('post', '/lamp/checked', '{"colour":"green","extra":1}')).toEqual({ status: 201, envelope: ok('green') });
    const refused = await answer('post', '/lamp/checked', '{"colour":7}');
    expect([refused.status, refused.envelope.status, refused.envelope.error]).toEqual([200, 1003, expect.stringContaining('colour')]);
    const array = await answer('post', '/lamp/checked', '[]');
    expect([array.status, array.envelope.status]).toEqual([200, 1003]);
  });
});
