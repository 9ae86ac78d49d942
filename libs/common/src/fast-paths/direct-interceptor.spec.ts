/**
 * The envelope interceptor run as one awaited call (direct-interceptor.ts) answers what Nest's interceptor chain
 * answers: the same status, headers and envelope for a value, a body read within the route's limit, a failure
 * before and after the handler, and an Observable; routes with more interceptors, and apps made with
 * FAST_PATHS=off, keep Nest's chain.
 */
import {
  ArgumentsHost,
  BadRequestException,
  Body,
  CallHandler,
  Catch,
  Controller,
  ExceptionFilter,
  ExecutionContext,
  Get,
  HttpException,
  INestApplication,
  Injectable,
  NestInterceptor,
  Post,
  UseInterceptors,
} from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { Response } from 'express';
import { of } from 'rxjs';
import request from 'supertest';
import { EnvelopeInterceptor } from '../http/envelope.interceptor';
import { BODY_LIMIT } from '../http/request-body';
import { runDirectWhenFast } from './direct-interceptor';

/** A second interceptor: a route that has it runs Nest's chain. */
@Injectable()
class Marked implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    context.switchToHttp().getResponse<Response>().setHeader('X-Marked', 'yes');
    return next.handle();
  }
}

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

  @Post('echo')
  echo(@Body() body: unknown) {
    return Promise.resolve(body);
  }

  @Post('small')
  small(@Body() body: unknown) {
    return body;
  }

  @Get('refused')
  refused() {
    throw new BadRequestException('no lamp');
  }

  @Get('later')
  async later() {
    await Promise.resolve();
    throw new BadRequestException('no lamp later');
  }

  @Get('stream')
  stream() {
    return of(1, 2);
  }

  @Get('marked')
  @UseInterceptors(Marked)
  marked() {
    return 'marked';
  }
}
Reflect.defineMetadata(BODY_LIMIT, '10b', LampController.prototype.small);

@Catch()
class Rendered implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost) {
    const status = exception instanceof HttpException ? exception.getStatus() : 500;
    host
      .switchToHttp()
      .getResponse<Response>()
      .status(status)
      .json({ failed: exception instanceof Error ? exception.message : String(exception) });
  }
}

async function appWith(fastPaths: 'on' | 'off'): Promise<INestApplication> {
  const saved = process.env.FAST_PATHS;
  process.env.FAST_PATHS = fastPaths;
  try {
    const moduleRef = await Test.createTestingModule({
      controllers: [LampController],
      providers: [
        { provide: APP_INTERCEPTOR, useFactory: () => runDirectWhenFast(new EnvelopeInterceptor()) },
        { provide: APP_FILTER, useClass: Rendered },
      ],
    }).compile();
    return await moduleRef.createNestApplication({ bodyParser: false, logger: false }).init();
  } finally {
    if (saved === undefined) delete process.env.FAST_PATHS;
    else process.env.FAST_PATHS = saved;
  }
}

/** What a client sees of an answer, the envelope's timestamp left out. */
async function answer(app: INestApplication, method: 'get' | 'post', path: string, body?: unknown) {
  const call = request(app.getHttpServer())[method](path);
  if (typeof body === 'string') call.set('Content-Type', 'application/json');
  const res = body === undefined ? await call : await call.send(body as object);
  const { date: _date, etag: _etag, ...headers } = res.headers; // the ETag hashes the timestamp
  const { timestamp, ...rest } = (res.body ?? {}) as { timestamp?: number };
  return { status: res.status, headers, body: rest, stamped: typeof timestamp === 'number' };
}

describe('the envelope interceptor as one awaited call (FAST_PATHS=on)', () => {
  let direct: INestApplication;
  let chained: INestApplication;

  beforeAll(async () => {
    direct = await appWith('on');
    chained = await appWith('off');
  });

  afterAll(async () => {
    await direct?.close();
    await chained?.close();
  });

  it.each<[string, 'get' | 'post', string, unknown]>([
    ['a value', 'get', '/lamp/value', undefined],
    ['no value', 'get', '/lamp/nothing', undefined],
    ['a body read and returned', 'post', '/lamp/echo', { colour: 'blue', sizes: [1, 2] }],
    ['a body over the route limit', 'post', '/lamp/small', { colour: 'far too long for ten bytes' }],
    ['malformed JSON', 'post', '/lamp/echo', '{"colour":'],
    ['a failure thrown at once', 'get', '/lamp/refused', undefined],
    ['a failure after an await', 'get', '/lamp/later', undefined],
    ['an Observable', 'get', '/lamp/stream', undefined],
    ['a route with a second interceptor', 'get', '/lamp/marked', undefined],
  ])('%s: the same answer both ways', async (_name, method, path, body) => {
    const [fast, nest] = [await answer(direct, method, path, body), await answer(chained, method, path, body)];
    expect(fast).toEqual(nest);
  });

  it("runs the interceptor's `around`, not its Nest chain, where the fast paths are on", async () => {
    const intercept = jest.spyOn(EnvelopeInterceptor.prototype, 'intercept');
    const around = jest.spyOn(EnvelopeInterceptor.prototype, 'around');
    try {
      await request(direct.getHttpServer()).get('/lamp/value').expect(200);
      expect([intercept.mock.calls.length, around.mock.calls.length]).toEqual([0, 1]);
      await request(chained.getHttpServer()).get('/lamp/value').expect(200);
      await request(direct.getHttpServer()).get('/lamp/marked').expect(200);
      expect([intercept.mock.calls.length, around.mock.calls.length]).toEqual([2, 1]);
    } finally {
      jest.restoreAllMocks();
    }
  });
});
