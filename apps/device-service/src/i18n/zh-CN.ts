import type { Catalogue } from '@app/common';

/** Simplified Chinese texts of device-service's own errors and record titles, keyed by their English template (see Message). */
export const zhCN: Catalogue = {
  'secret must be at most {{max}} characters': 'secret 不得超过 {{max}} 个字符',
  'secret must not be null': 'secret 不得为 null',
  'dataAcquisitionServerNo: no data-acquisition server {{serverNo}} is registered in this tenant':
    'dataAcquisitionServerNo：此租户中未注册数据采集服务器 {{serverNo}}',
  'Data acquisition device': '数据采集设备',
  'Data acquisition server': '数据采集服务器',
};
