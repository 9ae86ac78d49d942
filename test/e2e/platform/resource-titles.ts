/**
 * Every resource's title is translated in the shipped catalogues: it is a part of its own in
 * "<title> exists" and in the stale-revision text, so a title without a translation would leave English
 * inside a translated answer.
 */
import { de } from '../../../libs/common/src/i18n/catalogues/de';
import { zhCN } from '../../../libs/common/src/i18n/catalogues/zh-CN';
import { REGISTRY_RESOURCES } from '../../../apps/device-service/src/registry/registry.resources';
import { CONFIGURATION_RESOURCES } from '../../../apps/main-service/src/configuration/configuration.resources';
import { MESSAGE_RESOURCES } from '../../../apps/main-service/src/message/message.resources';
import { SNAPSHOT_RESOURCES } from '../../../apps/main-service/src/snapshot/snapshot.resources';

describe('resource titles in the shipped catalogues', () => {
  const titles = [...CONFIGURATION_RESOURCES, ...MESSAGE_RESOURCES, ...SNAPSHOT_RESOURCES, ...REGISTRY_RESOURCES].map(
    (r) => r.resource.title,
  );

  it('covers every resource of both services', () => {
    expect(titles.length).toBeGreaterThan(30);
    for (const title of titles) expect({ title, de: title in de, zhCN: title in zhCN }).toEqual({ title, de: true, zhCN: true });
  });
});
