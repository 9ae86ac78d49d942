import { createParamDecorator, ExecutionContext, PipeTransform, Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import { BODY_LIMIT, readRequestBody } from './request-body';
import { validationPipe } from './validation';

/** What the body parameter hands its pipes: the request, its response and the operation's body limit, nothing read yet. */
interface UnreadBody {
  req: Request;
  res: Response;
  limit: string | undefined;
}

/**
 * Nest extracts a parameter per request as it applies the pipes, after the guards: here only what reading needs
 * is taken, the handler's own limit (`Operation({ bodyLimit })`) included.
 */
const unreadBody = createParamDecorator((_data: unknown, context: ExecutionContext): UnreadBody => {
  const http = context.switchToHttp();
  return {
    req: http.getRequest<Request>(),
    res: http.getResponse<Response>(),
    limit: Reflect.getMetadata(BODY_LIMIT, context.getHandler()) as string | undefined,
  };
});

/** Reads, parses and sanitizes the body within the operation's limit (readRequestBody); undefined without one. */
class ReadBodyPipe implements PipeTransform<UnreadBody, Promise<unknown>> {
  async transform({ req, res, limit }: UnreadBody): Promise<unknown> {
    await readRequestBody(req, res, limit);
    return req.body as unknown;
  }
}

const readBody = new ReadBodyPipe();

/**
 * The request body as a handler's parameter, validated against `dto` when one is given (validationPipe). The body is
 * read only here, once the route is known and its caller admitted by the guards: a refused caller's or an unknown
 * route's body is never read, nor that of an operation without this parameter. The OpenAPI document does not see
 * this parameter: its operation declares the body with `@ApiBody`.
 */
export function RequestBody(dto?: Type<object>): ParameterDecorator {
  return dto ? unreadBody(undefined, readBody, validationPipe(dto)) : unreadBody(undefined, readBody);
}
