import type { Catalogue } from '@app/common';

/** German texts of device-service's own errors and record titles, keyed by their English template (see Message). */
export const de: Catalogue = {
  'secret must be at most {{max}} characters': 'secret darf höchstens {{max}} Zeichen lang sein',
  'secret must not be null': 'secret darf nicht null sein',
  'dataAcquisitionServerNo: no data-acquisition server {{serverNo}} is registered in this tenant':
    'dataAcquisitionServerNo: in diesem Mandanten ist kein Datenerfassungsserver {{serverNo}} registriert',
  'Data acquisition device': 'Datenerfassungsgerät',
  'Data acquisition server': 'Datenerfassungsserver',
};
