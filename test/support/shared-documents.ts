/**
 * The OpenAPI document of each service, built by the first app of the test run that is asked for it and taken by
 * every later app with the same controllers (setupOpenApi's SharedDocument): building it was about a tenth of the
 * suite's CPU time. The document is made from the app's controllers and the classes they take and answer, the same
 * code in every test file of a run; where a test's configuration changes an app's modules, its controllers show it.
 */
import type { SharedDocument } from '@app/common';
import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { createHash } from 'node:crypto';
import { readRunFile, writeRunFile } from './run-files';

type Document = ReturnType<SharedDocument['get']> & object;

/** Per test file: the documents read or built so far, by key. */
const documents = new Map<string, Document>();

/** The app's modules and the controllers of each: what SwaggerModule makes the document's paths from. */
function controllersOf(app: INestApplication): string[] {
  return [...app.get(ModulesContainer).values()]
    .flatMap((module) => [...module.controllers.values()].map((controller) => `${module.name}.${controller.name}`))
    .sort();
}

/** The shared document of `service` for `app`, looked up when the app first serves it (its controllers are known by then). */
export function sharedDocument(service: string, app: INestApplication): SharedDocument {
  let file: string | undefined;
  const key = (): string => {
    const hash = createHash('sha256').update(JSON.stringify([service, controllersOf(app)]));
    return (file ??= `openapi-${service}-${hash.digest('hex').slice(0, 32)}.json`);
  };
  return {
    get: () => {
      let document = documents.get(key());
      const kept = document ? undefined : readRunFile(key());
      if (kept) documents.set(key(), (document = JSON.parse(kept.toString('utf8')) as Document));
      return document;
    },
    set: (document) => {
      documents.set(key(), document);
      writeRunFile(key(), JSON.stringify(document));
    },
  };
}
