/**
 * The envelope interceptor run as one awaited call (direct-interceptor.ts) answers what Nest's interceptor chain
 * answers: the same status, headers and envelope for a value, a body read within the route's limit, a failure
 * before and after the handler, an Observable, a StreamableFile, guards, pipes and the route's own status and
 * headers. Such a route gets a handler of its own (compiled-handlers.ts); routes with more interceptors, routes
 * whose handler writes the answer itself, and apps made with FAST_PATHS=off keep Nest's handler and chain.
 */
import { withFastPaths } from '../../../../test/support/fast-paths-env';
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
  Header,
  HttpCode,
  HttpException,
  INestApplication,
  Injectable,
  NestInterceptor,
  ParseIntPipe,
  Post,
  Query,
  Res,
  StreamableFile,
  UseGuards,
  UseInterceptors,
  ValidationPipe,
} from '@nestjs/common';
import { IsString } from 'class-validator';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { Response } from 'express';
import { of } from 'rxjs';
import request from 'supertest';
import { EnvelopeInterceptor } from '../http/envelope.interceptor';
import { BODY_LIMIT } from '../http/request-body';
import { InterceptorsConsumer } from '@nestjs/core/internal';
import { runDirectWhenFast } from './direct-interceptor';

/** A second interceptor: a route that has it runs Nest's chain. */
@Injectable()
class Marked implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    context.switchToHttp().getResponse<Response>().setHeader('X-Marked', 'yes');
    return next.handle();
  }
}

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

  @Get('file')
  file() {
    return new StreamableFile(Buffer.from('lamp file'));
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

  @Get('closed')
  @UseGuards(Closed)
  closed() {
    return 'never';
  }

  @Post('checked')
  checked(@Body(new ValidationPipe()) body: LampBody) {
    return body.colour;
  }

  @Get('doubled')
  doubled(@Query('n', ParseIntPipe) n: number) {
    return n * 2;
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
  return withFastPaths(fastPaths, async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [LampController],
      providers: [
        { provide: APP_INTERCEPTOR, useFactory: () => runDirectWhenFast(new EnvelopeInterceptor()) },
        { provide: APP_FILTER, useClass: Rendered },
      ],
    }).compile();
    return moduleRef.createNestApplication({ bodyParser: false, logger: false }).init();
  });
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
    ['a StreamableFile', 'get', '/lamp/file', undefined],
    ['a status and header declared on the route', 'post', '/lamp/made', undefined],
    ['an answer the handler writes itself', 'get', '/lamp/own', undefined],
    ['a header the handler sets beside its value', 'get', '/lamp/through', undefined],
    ['a guard that refuses', 'get', '/lamp/closed', undefined],
    ['a body a pipe accepts', 'post', '/lamp/checked', { colour: 'green' }],
    ['a body a pipe refuses', 'post', '/lamp/checked', { colour: 7 }],
    ['a query parameter a pipe converts', 'get', '/lamp/doubled?n=21', undefined],
    ['a query parameter a pipe refuses', 'get', '/lamp/doubled?n=many', undefined],
  ])('%s: the same answer both ways', async (_name, method, path, body) => {
    const [fast, nest] = [await answer(direct, method, path, body), await answer(chained, method, path, body)];
    expect(fast).toEqual(nest);
  });

  it("answers through a handler of the route's own, without Nest's interceptor chain, where the fast paths are on", async () => {
    const chain = jest.spyOn(InterceptorsConsumer.prototype, 'intercept');
    try {
      for (const path of ['/lamp/value', '/lamp/stream', '/lamp/file', '/lamp/through']) await request(direct.getHttpServer()).get(path);
      expect(chain).not.toHaveBeenCalled();
      // a route whose handler writes the answer itself keeps Nest's handler, as does an app made with the fast paths off
      await request(direct.getHttpServer()).get('/lamp/own');
      await request(chained.getHttpServer()).get('/lamp/value');
      expect(chain).toHaveBeenCalledTimes(2);
    } finally {
      jest.restoreAllMocks();
    }
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
