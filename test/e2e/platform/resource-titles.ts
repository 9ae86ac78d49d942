/**
 * Every resource's title is translated in its service's texts: it is a part of its own in "<title> exists"
 * and in the stale-revision text, so a title without a translation would leave English inside a translated
 * answer. Each service's texts translate the same templates in both languages and keep their placeholders.
 */
import { TEXTS as DEVICE_TEXTS } from '../../../apps/device-service/src/i18n';
import { TEXTS as MAIN_TEXTS } from '../../../apps/main-service/src/i18n';
import { REGISTRY_RESOURCES } from '../../../apps/device-service/src/registry/registry.resources';
import { CONFIGURATION_RESOURCES } from '../../../apps/main-service/src/configuration/configuration.resources';
import { MESSAGE_RESOURCES } from '../../../apps/main-service/src/message/message.resources';
import { SNAPSHOT_RESOURCES } from '../../../apps/main-service/src/snapshot/snapshot.resources';

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe("resource titles in their service's texts", () => {
  const services = [
    { texts: MAIN_TEXTS, resources: [...CONFIGURATION_RESOURCES, ...MESSAGE_RESOURCES, ...SNAPSHOT_RESOURCES] },
    { texts: DEVICE_TEXTS, resources: REGISTRY_RESOURCES },
  ];

  it('covers every resource of both services', () => {
    expect(services.flatMap((s) => s.resources).length).toBeGreaterThan(30);
    for (const { texts, resources } of services)
      for (const title of resources.map((r) => r.resource.title))
        expect({ title, de: title in texts.de!, zhCN: title in texts['zh-CN']! }).toEqual({ title, de: true, zhCN: true });
  });

  it('translate the same templates in both languages, keeping their placeholders', () => {
    for (const { texts } of services) {
      expect(Object.keys(texts['zh-CN']!).sort()).toEqual(Object.keys(texts.de!).sort());
      for (const catalogue of [texts.de!, texts['zh-CN']!])
        for (const [template, text] of Object.entries(catalogue))
          expect({ template, got: placeholders(text) }).toEqual({ template, got: placeholders(template) });
    }
  });
});
